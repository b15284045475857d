// Component parameters. Each component implementation declares a schema (its slot,
// its name, and every parameter with type, unit, default and description) next to its
// constructor; the constructor reads values through Params, which checks them against
// the schema. Unknown keys, wrong types and out-of-range values are ConfigErrors that
// name the file, line and key. The same schemas print `zngsim config describe`.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/config/config_node.hpp"
#include "sim/core/tick.hpp"

namespace zng {

enum class ParamType {
    Int,        // signed integer
    UInt,       // unsigned integer
    Real,       // floating point
    Bool,       // true/false
    String,     // free text
    Choice,     // one of `choices`
    Time,       // ps ns us ms s
    Frequency,  // Hz kHz MHz GHz
    Rate,       // T/s kT/s MT/s GT/s
    Size,       // B KiB MiB GiB TiB (KB MB GB TB decimal)
    Bandwidth,  // B/s .. GB/s
    Section,    // a nested map configured by another component (described separately)
    List,       // a YAML sequence of scalars
};
const char* to_string(ParamType t);

struct ParamSpec {
    std::string key;
    ParamType type = ParamType::UInt;
    std::string default_value;  // as written in YAML; empty = no default
    std::string description;
    double min = -std::numeric_limits<double>::infinity();  // inclusive bounds, in base units
    double max = std::numeric_limits<double>::infinity();   // (ps, Hz, T/s, bytes, bytes/s)
    std::vector<std::string> choices;                        // for Choice
    bool required = false;

    ParamSpec() = default;
    // {"ways", ParamType::UInt, "8", "associativity", 1, 64}
    ParamSpec(std::string k, ParamType t, std::string def, std::string desc,
              double lo = -std::numeric_limits<double>::infinity(),
              double hi = std::numeric_limits<double>::infinity())
        : key(std::move(k)), type(t), default_value(std::move(def)), description(std::move(desc)), min(lo), max(hi) {}
    // A Choice: {"policy", "lru", {"lru", "fifo"}, "replacement policy"}
    ParamSpec(std::string k, std::string def, std::vector<std::string> options, std::string desc)
        : key(std::move(k)), type(ParamType::Choice), default_value(std::move(def)), description(std::move(desc)),
          choices(std::move(options)) {}
};

// Everything `config describe` prints about one component implementation.
struct ComponentSchema {
    std::string slot;         // what it plugs into: "l2", "memory", "warp_scheduler", ...
    std::string name;         // the implementation chosen in YAML with `type: <name>`
    std::string description;
    std::vector<ParamSpec> params;
    std::vector<std::string> ports;  // "name: description"
    // Statistics are documented where they are registered: `zngsim stats describe`.
    const ParamSpec* find(const std::string& key) const;
};

// A parameter declared once: key, type, default, description and range live in one
// object that both goes into the schema (it converts to its ParamSpec) and reads the
// value (params[handle]), so the key is written once.
//   const Param<UInt> kWays = Param<UInt>("ways", "8", "associativity").range(1, 64);
//   schema.params = {kWays, ...};   cfg.ways = p[kWays];
// The kinds (UInt, Time, Size, ...) name the unit a value is written in and the C++
// type it is read as.
namespace param_kind {
struct Int { static constexpr ParamType type = ParamType::Int; using value_type = int64_t; };
struct UInt { static constexpr ParamType type = ParamType::UInt; using value_type = uint64_t; };
struct UInt32 { static constexpr ParamType type = ParamType::UInt; using value_type = uint32_t; };  // fits 32 bits
struct Real { static constexpr ParamType type = ParamType::Real; using value_type = double; };
struct Bool { static constexpr ParamType type = ParamType::Bool; using value_type = bool; };
struct String { static constexpr ParamType type = ParamType::String; using value_type = std::string; };
struct Choice { static constexpr ParamType type = ParamType::Choice; using value_type = std::string; };
struct Time { static constexpr ParamType type = ParamType::Time; using value_type = Tick; };
struct Frequency { static constexpr ParamType type = ParamType::Frequency; using value_type = uint64_t; };
struct Rate { static constexpr ParamType type = ParamType::Rate; using value_type = uint64_t; };
struct Size { static constexpr ParamType type = ParamType::Size; using value_type = uint64_t; };
struct Bandwidth { static constexpr ParamType type = ParamType::Bandwidth; using value_type = double; };
// A nested map another component reads (null when absent).
struct Section { static constexpr ParamType type = ParamType::Section; using value_type = const ConfigNode*; };
}  // namespace param_kind

template <class Kind>
class Param {
public:
    Param(std::string key, std::string default_value, std::string description) {
        spec_.key = std::move(key);
        spec_.type = Kind::type;
        spec_.default_value = std::move(default_value);
        spec_.description = std::move(description);
    }
    // Inclusive bounds in base units (ps, Hz, T/s, bytes, bytes/s).
    Param& range(double lo, double hi) {
        spec_.min = lo;
        spec_.max = hi;
        return *this;
    }
    Param& min(double lo) {
        spec_.min = lo;
        return *this;
    }
    Param& choices(std::vector<std::string> options) {
        static_assert(Kind::type == ParamType::Choice, "choices() is for Choice parameters");
        spec_.choices = std::move(options);
        return *this;
    }
    const std::string& key() const { return spec_.key; }
    const ParamSpec& spec() const { return spec_; }
    operator ParamSpec() const { return spec_; }  // NOLINT: a declaration is its schema entry

private:
    ParamSpec spec_;
};

// Typed, validated view of one component's config section.
class Params {
public:
    // node may be null (all defaults). path is the section's dotted name for messages.
    Params(const ConfigNode* node, const ComponentSchema& schema, std::string path);

    int64_t i64(const std::string& key) const;
    uint64_t u64(const std::string& key) const;
    uint32_t u32(const std::string& key) const;
    double real(const std::string& key) const;
    bool flag(const std::string& key) const;
    std::string str(const std::string& key) const;  // String and Choice
    Tick time(const std::string& key) const;
    uint64_t frequency(const std::string& key) const;
    uint64_t rate(const std::string& key) const;
    uint64_t size(const std::string& key) const;
    double bandwidth(const std::string& key) const;
    std::vector<std::string> list(const std::string& key) const;
    // The value of a declared parameter, as its kind reads it.
    template <class Kind>
    typename Kind::value_type operator[](const Param<Kind>& p) const {
        using K = Kind;
        namespace pk = param_kind;
        if constexpr (std::is_same_v<K, pk::Int>) return i64(p.key());
        else if constexpr (std::is_same_v<K, pk::UInt>) return u64(p.key());
        else if constexpr (std::is_same_v<K, pk::UInt32>) return u32(p.key());
        else if constexpr (std::is_same_v<K, pk::Real>) return real(p.key());
        else if constexpr (std::is_same_v<K, pk::Bool>) return flag(p.key());
        else if constexpr (std::is_same_v<K, pk::String> || std::is_same_v<K, pk::Choice>) return str(p.key());
        else if constexpr (std::is_same_v<K, pk::Time>) return time(p.key());
        else if constexpr (std::is_same_v<K, pk::Frequency>) return frequency(p.key());
        else if constexpr (std::is_same_v<K, pk::Rate>) return rate(p.key());
        else if constexpr (std::is_same_v<K, pk::Size>) return size(p.key());
        else if constexpr (std::is_same_v<K, pk::Section>) return section(p.key());
        else return bandwidth(p.key());
    }
    // The nested section (may be null when absent from the config).
    const ConfigNode* section(const std::string& key) const;
    bool has(const std::string& key) const;  // set explicitly in the config

    const std::string& path() const { return path_; }
    // "file:line: key 'path.key'": the prefix of every error about this key.
    std::string where(const std::string& key) const;
    [[noreturn]] void fail(const std::string& key, const std::string& msg) const;

private:
    const ParamSpec& spec(const std::string& key, ParamType expect) const;
    std::string text(const ParamSpec& s) const;
    void check_range(const ParamSpec& s, double v) const;

    const ConfigNode* node_;
    const ComponentSchema& schema_;
    std::string path_;
};

}  // namespace zng
