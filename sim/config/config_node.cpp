#include "sim/config/config_node.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <sstream>

#include "sim/config/core_schema.hpp"
#include "sim/core/errors.hpp"

namespace zng {
namespace fs = std::filesystem;

const ConfigNode* ConfigNode::find(const std::string& key) const {
    for (const auto& [k, v] : map_)
        if (k == key) return &v;
    return nullptr;
}

ConfigNode* ConfigNode::find(const std::string& key) {
    for (auto& [k, v] : map_)
        if (k == key) return &v;
    return nullptr;
}

const ConfigNode* ConfigNode::find_path(const std::string& dotted) const {
    const ConfigNode* n = this;
    size_t start = 0;
    while (n && start <= dotted.size()) {
        size_t dot = dotted.find('.', start);
        std::string key = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        n = n->is_map() ? n->find(key) : nullptr;
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return n;
}

ConfigNode ConfigNode::make(Kind kind, SourceLoc loc, std::string path) {
    ConfigNode n;
    n.kind_ = kind;
    n.loc_ = std::move(loc);
    n.path_ = std::move(path);
    return n;
}

ConfigNode ConfigNode::make_scalar(std::string v, SourceLoc loc, std::string path, bool quoted) {
    ConfigNode n = make(Kind::Scalar, std::move(loc), std::move(path));
    n.scalar_ = std::move(v);
    n.quoted_ = quoted;
    return n;
}

ConfigNode ConfigNode::make_map(SourceLoc loc, std::string path) { return make(Kind::Map, std::move(loc), std::move(path)); }

ConfigNode ConfigNode::make_sequence(SourceLoc loc, std::string path) {
    return make(Kind::Sequence, std::move(loc), std::move(path));
}

void ConfigNode::reroot(const std::string& path) {
    path_ = path;
    for (auto& [k, v] : map_) v.reroot(path.empty() ? k : path + "." + k);
    for (size_t i = 0; i < seq_.size(); ++i) seq_[i].reroot(path + "[" + std::to_string(i) + "]");
}

ConfigNode& ConfigNode::set(const std::string& key, ConfigNode child) {
    child.reroot(path_.empty() ? key : path_ + "." + key);
    if (ConfigNode* existing = find(key)) {
        *existing = std::move(child);
        return *existing;
    }
    map_.emplace_back(key, std::move(child));
    return map_.back().second;
}

bool ConfigNode::erase(const std::string& key) {
    for (auto it = map_.begin(); it != map_.end(); ++it)
        if (it->first == key) {
            map_.erase(it);
            return true;
        }
    return false;
}

void ConfigNode::merge_from(const ConfigNode& other) {
    if (is_map() && other.is_map()) {
        for (const auto& [k, v] : other.map_) {
            ConfigNode* mine = find(k);
            if (mine && mine->is_map() && v.is_map())
                mine->merge_from(v);
            else
                set(k, v);
        }
        return;
    }
    std::string keep = path_;
    *this = other;
    reroot(keep);
}

std::string ConfigNode::to_yaml() const {
    std::function<void(const ConfigNode&, YAML::Emitter&)> emit = [&](const ConfigNode& n, YAML::Emitter& e) {
        switch (n.kind_) {
            case Kind::Null: e << YAML::Null; break;
            case Kind::Scalar:
                if (n.quoted_) e << YAML::DoubleQuoted;
                e << n.scalar_;
                break;
            case Kind::Sequence:
                e << YAML::BeginSeq;
                for (const auto& c : n.seq_) emit(c, e);
                e << YAML::EndSeq;
                break;
            case Kind::Map:
                e << YAML::BeginMap;
                for (const auto& [k, v] : n.map_) {
                    e << YAML::Key << k << YAML::Value;
                    emit(v, e);
                }
                e << YAML::EndMap;
                break;
        }
    };
    YAML::Emitter out;
    emit(*this, out);
    return out.c_str();
}

namespace {

// A plain scalar as the YAML 1.2 core schema types it: null, bool, integer, float, or
// else a string. Integers past 64 bits stay strings rather than lose digits.
nlohmann::ordered_json typed_scalar(const std::string& v) {
    switch (classify_plain_scalar(v)) {
        case PlainScalarKind::Null: return nullptr;
        case PlainScalarKind::True: return true;
        case PlainScalarKind::False: return false;
        case PlainScalarKind::Int: {
            errno = 0;
            char* end = nullptr;
            if (v[0] == '-') {
                const long long i = std::strtoll(v.c_str(), &end, 10);
                if (errno == 0) return static_cast<int64_t>(i);
            } else {
                const unsigned long long u = std::strtoull(v.c_str(), &end, 10);
                if (errno == 0) return static_cast<uint64_t>(u);
            }
            return v;
        }
        case PlainScalarKind::Float: return std::strtod(v.c_str(), nullptr);
        case PlainScalarKind::String: break;
    }
    return v;
}

}  // namespace

nlohmann::ordered_json ConfigNode::to_json() const {
    switch (kind_) {
        case Kind::Null: return nullptr;
        case Kind::Scalar: return quoted_ || scalar_.empty() ? nlohmann::ordered_json(scalar_) : typed_scalar(scalar_);
        case Kind::Sequence: {
            nlohmann::ordered_json a = nlohmann::ordered_json::array();
            for (const auto& c : seq_) a.push_back(c.to_json());
            return a;
        }
        case Kind::Map: {
            nlohmann::ordered_json o = nlohmann::ordered_json::object();
            for (const auto& [k, v] : map_) o[k] = v.to_json();
            return o;
        }
    }
    return nullptr;
}

namespace {

// A platform file has hundreds of values; YAML aliases can make a few bytes expand to
// billions of nodes ("billion laughs"), so the expansion is bounded before it allocates.
constexpr uint64_t kMaxConfigNodes = 100'000;

struct NodeBudget {
    uint64_t left = kMaxConfigNodes;
    void take(const SourceLoc& at) {
        if (left-- == 0)
            throw ConfigError(fmt::format("{}: the document expands to more than {} values (YAML aliases nested "
                                          "too deep?)",
                                          at.str(), kMaxConfigNodes));
    }
};

ConfigNode convert(const YAML::Node& y, const std::string& file, const std::string& path, NodeBudget& budget) {
    SourceLoc loc{file, y.Mark().line >= 0 ? y.Mark().line + 1 : 0};
    budget.take(loc);
    switch (y.Type()) {
        // yaml-cpp tags a quoted (non-plain) scalar "!", a plain one "?".
        case YAML::NodeType::Scalar: return ConfigNode::make_scalar(y.Scalar(), loc, path, y.Tag() == "!");
        case YAML::NodeType::Sequence: {
            ConfigNode n = ConfigNode::make_sequence(loc, path);
            size_t i = 0;
            for (const auto& item : y) n.push(convert(item, file, path + "[" + std::to_string(i++) + "]", budget));
            return n;
        }
        case YAML::NodeType::Map: {
            ConfigNode n = ConfigNode::make_map(loc, path);
            for (const auto& kv : y) {
                std::string key = kv.first.Scalar();
                SourceLoc kloc{file, kv.first.Mark().line + 1};
                if (n.find(key))
                    throw ConfigError(kloc.str() + ": key '" + key + "' appears twice in the same map");
                ConfigNode child = convert(kv.second, file, path.empty() ? key : path + "." + key, budget);
                if (child.kind() == ConfigNode::Kind::Null)  // "key:" with no value: keep its line
                    child = ConfigNode::make_scalar("", kloc, path.empty() ? key : path + "." + key);
                n.set(key, std::move(child));
            }
            return n;
        }
        default: return ConfigNode::make_map(loc, path);  // empty document = empty map
    }
}

YAML::Node parse_yaml(const std::string& text, const std::string& name) {
    try {
        return YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw ConfigError(name + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
    }
}

ConfigNode load_recursive(const fs::path& path, std::vector<fs::path>& stack);

// The type of the file at `path` (not_found when there is none). A path the file system
// cannot even look up (a name longer than it allows, a loop of links, no permission) is
// a ConfigError at `where`, not a std::filesystem::filesystem_error.
fs::file_type file_type_of(const fs::path& path, const std::string& where) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec && st.type() != fs::file_type::not_found)
        throw ConfigError(where + ": cannot look up '" + path.string() + "': " + ec.message());
    return st.type();
}

// Resolves `include:` in `node` and, recursively, in every section below it: the
// included files are merged first, in order, then the section's own keys on top. A
// nested include merges a fragment into that section only (e.g. a GPU memory section
// that includes fragments/gddr5.yaml's keys and overrides the capacity).
ConfigNode resolve_includes(ConfigNode node, const fs::path& file, std::vector<fs::path>& stack) {
    if (!node.is_map()) return node;
    std::vector<std::string> keys;
    for (const auto& [k, v] : node.entries())
        if (v.is_map() && k != "include") keys.push_back(k);
    for (const auto& k : keys) node.set(k, resolve_includes(*node.find(k), file, stack));
    const ConfigNode* inc = node.find("include");
    if (!inc) return node;
    std::vector<const ConfigNode*> files;
    if (inc->is_scalar())
        files.push_back(inc);
    else if (inc->is_sequence())
        for (const auto& i : inc->items()) files.push_back(&i);
    else
        throw ConfigError(inc->loc().str() + ": 'include' must be a file name or a list of file names");
    ConfigNode merged = ConfigNode::make_map(node.loc(), node.path());
    for (const ConfigNode* f : files) {
        if (!f->is_scalar() || f->scalar().empty())
            throw ConfigError(f->loc().str() + ": 'include' entries must be file names");
        fs::path target =
            fs::path(f->scalar()).is_absolute() ? fs::path(f->scalar()) : file.parent_path() / f->scalar();
        const fs::file_type type = file_type_of(target, f->loc().str());
        if (type == fs::file_type::not_found)
            throw ConfigError(f->loc().str() + ": included file '" + target.string() + "' does not exist");
        if (type == fs::file_type::directory)
            throw ConfigError(f->loc().str() + ": included '" + target.string() + "' is a directory, not a config file");
        merged.merge_from(load_recursive(target, stack));
    }
    node.erase("include");
    merged.merge_from(node);
    return merged;
}

ConfigNode load_recursive(const fs::path& path, std::vector<fs::path>& stack) {
    const fs::file_type type = file_type_of(path, path.string());
    if (type == fs::file_type::directory) throw ConfigError(path.string() + ": is a directory, not a config file");
    std::error_code ec;
    const fs::path canon = fs::weakly_canonical(path, ec);
    if (ec) throw ConfigError(path.string() + ": cannot look up the config file: " + ec.message());
    for (const auto& p : stack)
        if (p == canon) {
            std::string chain;
            for (const auto& q : stack) chain += q.string() + " -> ";
            throw ConfigError(path.string() + ": include cycle: " + chain + canon.string());
        }
    std::ifstream in(path);
    if (!in) throw ConfigError(path.string() + ": cannot open config file");
    std::stringstream ss;
    ss << in.rdbuf();
    NodeBudget budget;
    ConfigNode own = convert(parse_yaml(ss.str(), path.string()), path.string(), "", budget);
    if (!own.is_map()) throw ConfigError(path.string() + ":1: a config file must be a map of keys");
    stack.push_back(canon);
    ConfigNode merged = resolve_includes(std::move(own), path, stack);
    stack.pop_back();
    return merged;
}

}  // namespace

ConfigNode load_config_file(const std::string& path) {
    std::vector<fs::path> stack;
    ConfigNode root = load_recursive(fs::path(path), stack);
    // An empty file (or one of comments only) would run a platform of defaults named by nothing.
    if (root.entries().empty()) throw ConfigError(path + ": the config is empty (no keys, no include)");
    return root;
}

ConfigNode parse_config_text(const std::string& text, const std::string& name) {
    NodeBudget budget;
    ConfigNode n = convert(parse_yaml(text, name), name, "", budget);
    if (n.kind() == ConfigNode::Kind::Null) return ConfigNode::make_map(SourceLoc{name, 1}, "");
    return n;
}

void apply_override(ConfigNode& root, const std::string& assignment) {
    size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("--set '" + assignment + "': expected key.path=value");
    std::string key = assignment.substr(0, eq);
    std::string value = assignment.substr(eq + 1);
    SourceLoc loc{"<command line: --set " + assignment + ">", 0};
    NodeBudget budget;
    ConfigNode parsed = convert(parse_yaml(value, loc.file), loc.file, key, budget);
    // "key=~" (YAML null) removes the key, so it takes its default again; e.g. switching
    // an implementation whose schema lacks a key the config sets for the previous one.
    const bool remove = value == "~" || value == "null";
    if (parsed.kind() == ConfigNode::Kind::Null) parsed = ConfigNode::make_scalar("", loc, key);

    ConfigNode* n = &root;
    size_t start = 0;
    for (;;) {
        size_t dot = key.find('.', start);
        std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (part.empty()) throw ConfigError("--set '" + assignment + "': empty component in key path");
        if (dot == std::string::npos) {
            if (remove) {
                n->erase(part);
                return;
            }
            ConfigNode* existing = n->find(part);
            if (existing && existing->is_map() && parsed.is_map())
                existing->merge_from(parsed);
            else
                n->set(part, std::move(parsed));
            return;
        }
        ConfigNode* next = n->find(part);
        if (!next) next = &n->set(part, ConfigNode::make_map(loc, ""));
        if (!next->is_map())
            throw ConfigError("--set '" + assignment + "': '" + key.substr(0, dot) + "' (set at " +
                              next->loc().str() + ") is a value, not a section");
        n = next;
        start = dot + 1;
    }
}

}  // namespace zng
