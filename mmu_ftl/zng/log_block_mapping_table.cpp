#include "mmu_ftl/zng/log_block_mapping_table.hpp"

namespace zng::ftl {

uint32_t LogBlockMappingTable::join(uint16_t app, uint32_t unit, uint32_t lbn) {
    const uint64_t key = (uint64_t{app} << 32) | unit;
    const uint32_t* open = open_.get(key);
    uint32_t g = open ? *open : 0;
    if (!open || groups_[g].members == group_size_) {
        g = static_cast<uint32_t>(groups_.size());
        LogGroup ng;
        ng.app = app;
        ng.unit = unit;
        groups_.push_back(ng);
        members_.resize(members_.size() + group_size_, UINT32_MAX);
        open_.put(key, g);
    }
    LogGroup& gr = groups_[g];
    members_[uint64_t{g} * group_size_ + gr.members++] = lbn;
    return g;
}

}  // namespace zng::ftl
