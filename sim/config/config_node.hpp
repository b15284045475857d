// The configuration as a tree that remembers where every value came from (file and
// line, or the command line), so that any error about a value can point at it.
// YAML is read with yaml-cpp and converted into this tree once; includes and --set
// overrides are merged here.
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

namespace zng {

struct SourceLoc {
    std::string file;  // "<command line>" for --set overrides, "<default>" for defaults
    int line = 0;      // 1-based; 0 = unknown
    std::string str() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

class ConfigNode {
public:
    enum class Kind { Null, Scalar, Map, Sequence };

    Kind kind() const { return kind_; }
    bool is_map() const { return kind_ == Kind::Map; }
    bool is_scalar() const { return kind_ == Kind::Scalar; }
    bool is_sequence() const { return kind_ == Kind::Sequence; }
    const std::string& scalar() const { return scalar_; }
    const SourceLoc& loc() const { return loc_; }
    const std::string& path() const { return path_; }  // dotted key from the root

    const std::vector<std::pair<std::string, ConfigNode>>& entries() const { return map_; }
    const std::vector<ConfigNode>& items() const { return seq_; }
    const ConfigNode* find(const std::string& key) const;
    ConfigNode* find(const std::string& key);
    // Follows a dotted path ("gpu.l1d.size"); nullptr if any step is missing.
    const ConfigNode* find_path(const std::string& dotted) const;

    // Builders (used by the loader and by overrides).
    static ConfigNode make_scalar(std::string v, SourceLoc loc, std::string path, bool quoted = false);
    static ConfigNode make_map(SourceLoc loc, std::string path);
    static ConfigNode make_sequence(SourceLoc loc, std::string path);
    ConfigNode& set(const std::string& key, ConfigNode child);  // insert or replace
    void push(ConfigNode child) { seq_.push_back(std::move(child)); }
    // Deep merge: maps merge key by key, anything else replaces.
    void merge_from(const ConfigNode& other);
    bool erase(const std::string& key);

    // Serialisation for stats.json ("resolved config") and `config show`.
    std::string to_yaml() const;
    // Values keep their YAML types (YAML 1.2 core schema): a plain 16 is a number, a plain
    // true a bool, a quoted "16" and anything with a unit (3us, 24MiB) a string.
    nlohmann::ordered_json to_json() const;
    // A scalar written in quotes ("16", '16'): a string whatever it holds.
    bool quoted() const { return quoted_; }

private:
    static ConfigNode make(Kind kind, SourceLoc loc, std::string path);
    void reroot(const std::string& path);

    Kind kind_ = Kind::Null;
    std::string scalar_;
    bool quoted_ = false;
    std::vector<std::pair<std::string, ConfigNode>> map_;  // insertion order kept for stable output
    std::vector<ConfigNode> seq_;
    SourceLoc loc_;
    std::string path_;
};

// Loads a YAML file, resolving `include:` (a path or list of paths, relative to the
// including file; included files are merged first, in order, then the including file
// on top). Throws ConfigError naming the file and line on syntax errors, include
// cycles and missing files.
ConfigNode load_config_file(const std::string& path);
// Parses YAML text (for tests and for --set values).
ConfigNode parse_config_text(const std::string& text, const std::string& name);
// Applies "a.b.c=value" (value parsed as YAML, so lists and maps work); "a.b.c=~"
// removes the key so that it takes its default.
void apply_override(ConfigNode& root, const std::string& assignment);

}  // namespace zng
