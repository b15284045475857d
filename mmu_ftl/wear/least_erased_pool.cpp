#include "mmu_ftl/wear/least_erased_pool.hpp"

namespace zng::ftl {

LeastErasedPool::LeastErasedPool(uint32_t units, uint32_t blocks_per_unit)
    : FreeBlockPool(units, blocks_per_unit), heaps_(units) {}

void LeastErasedPool::give_back(uint32_t unit, uint32_t block, uint32_t erase_count) {
    heaps_.at(unit).push({erase_count, block});
}

uint32_t LeastErasedPool::take_recycled(uint32_t unit) {
    auto& h = heaps_.at(unit);
    uint32_t b = h.top().block;
    h.pop();
    return b;
}

const ComponentSchema& LeastErasedPool::schema() {
    static const ComponentSchema s{
        "wear_leveling", "least_erased",
        "Dynamic wear levelling: a new block is the free block with the fewest erases (never-used blocks first).",
        {}, {}};
    return s;
}

}  // namespace zng::ftl
