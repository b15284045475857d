#include "sim/config/registry.hpp"

namespace zng {

SchemaCatalog& SchemaCatalog::global() {
    static SchemaCatalog catalog;
    return catalog;
}

void SchemaCatalog::add(const ComponentSchema* s) { schemas_[{s->slot, s->name}] = s; }

std::vector<const ComponentSchema*> SchemaCatalog::all() const {
    std::vector<const ComponentSchema*> out;
    for (const auto& [_, s] : schemas_) out.push_back(s);
    return out;
}

const ComponentSchema* SchemaCatalog::find(const std::string& slot, const std::string& name) const {
    auto it = schemas_.find({slot, name});
    return it == schemas_.end() ? nullptr : it->second;
}

}  // namespace zng
