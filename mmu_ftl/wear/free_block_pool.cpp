#include "mmu_ftl/wear/free_block_pool.hpp"

#include <string>

namespace zng::ftl {

FreeBlockPool::FreeBlockPool(uint32_t units, uint32_t blocks_per_unit)
    : blocks_(blocks_per_unit), fresh_next_(units, 0) {}

FreeBlockPool::Taken FreeBlockPool::take(uint32_t unit) {
    uint32_t& next = fresh_next_.at(unit);
    // A fresh block has 0 erases, so it is the least-worn choice under any policy.
    if (next < blocks_) return {next++, true};
    if (recycled(unit) == 0)
        throw SimError("no free flash block left in unit " + std::to_string(unit) +
                       " (over-provisioned space exhausted)");
    return {take_recycled(unit), false};
}

WearLevelingSlot& wear_leveling_slot() {
    static WearLevelingSlot slot("wear_leveling");
    return slot;
}

}  // namespace zng::ftl
