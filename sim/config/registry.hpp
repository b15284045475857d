// Slots and implementations, Ramulator-2 style: an interface per slot, each
// implementation registered under a name with its parameter schema, and chosen in YAML
// with `type: <name>`. The catalog of every schema is what `config describe` prints.
#pragma once
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/params.hpp"
#include "sim/core/errors.hpp"

namespace zng {

class SchemaCatalog {
public:
    static SchemaCatalog& global();
    void add(const ComponentSchema* s);
    // Sorted by slot then name, for a stable reference.
    std::vector<const ComponentSchema*> all() const;
    const ComponentSchema* find(const std::string& slot, const std::string& name) const;

private:
    std::map<std::pair<std::string, std::string>, const ComponentSchema*> schemas_;
};

// A schema that no slot creates (the top-level sections, a subsection its component
// reads itself) but that `config describe` lists: built once, catalogued once.
//   static const CataloguedSchema s{{.slot = "run", .name = "run", ...}};  return s.schema;
struct CataloguedSchema {
    explicit CataloguedSchema(ComponentSchema s) : schema(std::move(s)) { SchemaCatalog::global().add(&schema); }
    CataloguedSchema(const CataloguedSchema&) = delete;
    CataloguedSchema& operator=(const CataloguedSchema&) = delete;
    ComponentSchema schema;
};

template <class Interface, class... Args>
class Slot {
public:
    using Factory = std::function<std::unique_ptr<Interface>(const Params&, Args...)>;

    explicit Slot(std::string name) : name_(std::move(name)) {}
    const std::string& name() const { return name_; }

    // Registers an implementation; registering the same name twice is a no-op so that
    // registration functions may be called more than once (tests, tools).
    void add(ComponentSchema schema, Factory factory) {
        schema.slot = name_;
        if (impls_.count(schema.name)) return;
        schemas_.push_back(std::move(schema));
        impls_[schemas_.back().name] = {&schemas_.back(), std::move(factory)};
        SchemaCatalog::global().add(&schemas_.back());
    }

    bool has(const std::string& impl) const { return impls_.count(impl) != 0; }
    const ComponentSchema& schema(const std::string& impl) const { return *impls_.at(impl).schema; }

    // Builds the implementation named by the section's `type:` key (or default_impl),
    // validating the section against its schema.
    std::unique_ptr<Interface> create(const ConfigNode* section, const std::string& path,
                                      const std::string& default_impl, Args... args) const {
        std::string impl = default_impl;
        std::string where = "<default>";
        if (section) {
            if (!section->is_map())
                throw ConfigError(section->loc().str() + ": '" + path + "' must be a section (a map of keys)");
            if (const ConfigNode* t = section->find("type")) {
                impl = t->scalar();
                where = t->loc().str();
            }
        }
        auto it = impls_.find(impl);
        if (it == impls_.end()) {
            std::string known;
            for (const auto& [n, _] : impls_) known += (known.empty() ? "" : ", ") + n;
            throw ConfigError(where + ": key '" + path + ".type': unknown " + name_ + " '" + impl +
                              "' (known: " + known + ")");
        }
        Params params(section, *it->second.schema, path);
        return it->second.factory(params, args...);
    }

private:
    struct Impl {
        const ComponentSchema* schema;
        Factory factory;
    };
    std::string name_;
    std::deque<ComponentSchema> schemas_;
    std::map<std::string, Impl> impls_;
};

}  // namespace zng
