#include "sim/config/params.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

#include "sim/config/units.hpp"
#include "sim/core/errors.hpp"

namespace zng {

const char* to_string(ParamType t) {
    switch (t) {
        case ParamType::Int: return "int";
        case ParamType::UInt: return "uint";
        case ParamType::Real: return "real";
        case ParamType::Bool: return "bool";
        case ParamType::String: return "string";
        case ParamType::Choice: return "choice";
        case ParamType::Time: return "time";
        case ParamType::Frequency: return "frequency";
        case ParamType::Rate: return "rate";
        case ParamType::Size: return "size";
        case ParamType::Bandwidth: return "bandwidth";
        case ParamType::Section: return "section";
        case ParamType::List: return "list";
    }
    return "?";
}

const ParamSpec* ComponentSchema::find(const std::string& key) const {
    for (const auto& p : params)
        if (p.key == key) return &p;
    return nullptr;
}

Params::Params(const ConfigNode* node, const ComponentSchema& schema, std::string path)
    : node_(node), schema_(schema), path_(std::move(path)) {
    if (!node_) return;
    if (!node_->is_map())
        throw ConfigError(fmt::format("{}: '{}' must be a section (a map of keys) for {} '{}'", node_->loc().str(),
                                      path_, schema_.slot, schema_.name));
    for (const auto& [k, v] : node_->entries()) {
        if (k == "type") continue;  // selects the implementation; read by the slot
        const ParamSpec* s = schema_.find(k);
        if (!s) {
            std::string known;
            for (const auto& p : schema_.params) known += (known.empty() ? "" : ", ") + p.key;
            throw ConfigError(fmt::format("{}: unknown key '{}' in {} '{}' (section '{}'); known keys: {}",
                                          v.loc().str(), k, schema_.slot, schema_.name, path_, known));
        }
        if (s->type == ParamType::Section && !v.is_map())
            throw ConfigError(fmt::format("{}: key '{}' must be a section (a map)", v.loc().str(), v.path()));
        if (s->type == ParamType::List && !v.is_sequence())
            throw ConfigError(fmt::format("{}: key '{}' must be a list", v.loc().str(), v.path()));
        if (s->type != ParamType::Section && s->type != ParamType::List && !v.is_scalar())
            throw ConfigError(fmt::format("{}: key '{}' must be a single {} value", v.loc().str(), v.path(),
                                          to_string(s->type)));
    }
    // Validate every present value now, so a bad value fails at load time even if the
    // component reads it late.
    for (const auto& [k, v] : node_->entries()) {
        const ParamSpec* s = schema_.find(k);
        if (!s || s->type == ParamType::Section || s->type == ParamType::List) continue;
        switch (s->type) {
            case ParamType::Int: (void)i64(k); break;
            case ParamType::UInt: (void)u64(k); break;
            case ParamType::Real: (void)real(k); break;
            case ParamType::Bool: (void)flag(k); break;
            case ParamType::String:
            case ParamType::Choice: (void)str(k); break;
            case ParamType::Time: (void)time(k); break;
            case ParamType::Frequency: (void)frequency(k); break;
            case ParamType::Rate: (void)rate(k); break;
            case ParamType::Size: (void)size(k); break;
            case ParamType::Bandwidth: (void)bandwidth(k); break;
            default: break;
        }
    }
    for (const auto& p : schema_.params)
        if (p.required && !has(p.key))
            throw ConfigError(fmt::format("{}: required key '{}.{}' is missing ({})", node_->loc().str(), path_,
                                          p.key, p.description));
}

std::string Params::where(const std::string& key) const {
    const ConfigNode* v = node_ ? node_->find(key) : nullptr;
    std::string full = path_.empty() ? key : path_ + "." + key;
    if (v) return fmt::format("{}: key '{}'", v->loc().str(), full);
    return fmt::format("<default>: key '{}'", full);
}

void Params::fail(const std::string& key, const std::string& msg) const {
    throw ConfigError(where(key) + ": " + msg);
}

bool Params::has(const std::string& key) const { return node_ && node_->find(key); }

const ParamSpec& Params::spec(const std::string& key, ParamType expect) const {
    const ParamSpec* s = schema_.find(key);
    if (!s)
        throw std::logic_error(fmt::format("{} '{}' reads undeclared parameter '{}'", schema_.slot, schema_.name, key));
    bool compatible = s->type == expect || (expect == ParamType::String && s->type == ParamType::Choice) ||
                      (expect == ParamType::UInt && s->type == ParamType::Int);
    if (!compatible)
        throw std::logic_error(fmt::format("{} '{}' reads parameter '{}' declared {} as {}", schema_.slot, schema_.name,
                                           key, to_string(s->type), to_string(expect)));
    return *s;
}

std::string Params::text(const ParamSpec& s) const {
    if (const ConfigNode* v = node_ ? node_->find(s.key) : nullptr) return v->scalar();
    if (s.default_value.empty() && s.type != ParamType::String)
        fail(s.key, "no value and no default");
    return s.default_value;
}

void Params::check_range(const ParamSpec& s, double v) const {
    if (v < s.min || v > s.max)
        fail(s.key, fmt::format("value {} is out of range [{}, {}]", v, s.min, s.max));
}

int64_t Params::i64(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::Int);
    std::string t = text(s);
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(t.c_str(), &end, 0);
    if (t.empty() || *end != '\0' || errno == ERANGE) fail(key, fmt::format("'{}' is not an integer", t));
    check_range(s, static_cast<double>(v));
    return v;
}

uint64_t Params::u64(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::UInt);
    std::string t = text(s);
    errno = 0;
    char* end = nullptr;
    if (!t.empty() && t[0] == '-') fail(key, fmt::format("'{}' must not be negative", t));
    unsigned long long v = std::strtoull(t.c_str(), &end, 0);
    if (t.empty() || *end != '\0' || errno == ERANGE)
        fail(key, fmt::format("'{}' is not a non-negative integer", t));
    check_range(s, static_cast<double>(v));
    return v;
}

uint32_t Params::u32(const std::string& key) const {
    uint64_t v = u64(key);
    if (v > 0xffffffffull) fail(key, fmt::format("value {} does not fit in 32 bits", v));
    return static_cast<uint32_t>(v);
}

double Params::real(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::Real);
    std::string t = text(s);
    char* end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0') fail(key, fmt::format("'{}' is not a number", t));
    check_range(s, v);
    return v;
}

bool Params::flag(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::Bool);
    std::string t = text(s);
    if (t == "true" || t == "yes" || t == "on") return true;
    if (t == "false" || t == "no" || t == "off") return false;
    fail(key, fmt::format("'{}' is not a boolean (true/false)", t));
}

std::string Params::str(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::String);
    std::string t = text(s);
    if (s.type == ParamType::Choice && std::find(s.choices.begin(), s.choices.end(), t) == s.choices.end()) {
        std::string opts;
        for (const auto& c : s.choices) opts += (opts.empty() ? "" : ", ") + c;
        fail(key, fmt::format("'{}' is not one of: {}", t, opts));
    }
    return t;
}

namespace {
template <class F>
auto parse_unit(const Params& p, const std::string& key, const std::string& t, F f) {
    try {
        return f(t);
    } catch (const std::invalid_argument& e) {
        p.fail(key, e.what());
    }
}
}  // namespace

Tick Params::time(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::Time);
    Tick v = parse_unit(*this, key, text(s), units::parse_time);
    check_range(s, static_cast<double>(v));
    return v;
}

uint64_t Params::frequency(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::Frequency);
    uint64_t v = parse_unit(*this, key, text(s), units::parse_frequency);
    check_range(s, static_cast<double>(v));
    return v;
}

uint64_t Params::rate(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::Rate);
    uint64_t v = parse_unit(*this, key, text(s), units::parse_rate);
    check_range(s, static_cast<double>(v));
    return v;
}

uint64_t Params::size(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::Size);
    uint64_t v = parse_unit(*this, key, text(s), units::parse_size);
    check_range(s, static_cast<double>(v));
    return v;
}

double Params::bandwidth(const std::string& key) const {
    const ParamSpec& s = spec(key, ParamType::Bandwidth);
    double v = parse_unit(*this, key, text(s), units::parse_bandwidth);
    check_range(s, v);
    return v;
}

std::vector<std::string> Params::list(const std::string& key) const {
    spec(key, ParamType::List);
    std::vector<std::string> out;
    const ConfigNode* v = node_ ? node_->find(key) : nullptr;
    if (!v) return out;
    for (const auto& item : v->items()) {
        if (!item.is_scalar()) throw ConfigError(item.loc().str() + ": entries of '" + v->path() + "' must be values");
        out.push_back(item.scalar());
    }
    return out;
}

const ConfigNode* Params::section(const std::string& key) const {
    spec(key, ParamType::Section);
    return node_ ? node_->find(key) : nullptr;
}

}  // namespace zng
