#include "mmu_ftl/wear/fifo_pool.hpp"

namespace zng {

FifoPool::FifoPool(uint32_t units, uint32_t blocks_per_unit) : FreeBlockPool(units, blocks_per_unit) {
    queues_.reserve(units);
    for (uint32_t u = 0; u < units; ++u) queues_.emplace_back(0);
}

void FifoPool::give_back(uint32_t unit, uint32_t block, uint32_t) {
    auto& q = queues_.at(unit);
    if (q.capacity() == 0) q.reset(blocks_per_unit());  // allocated when the unit first recycles
    q.push(block);
}

const ComponentSchema& FifoPool::schema() {
    static const ComponentSchema s{"wear_leveling", "fifo",
                                   "No wear levelling: free blocks are reused in the order they were freed.",
                                   {}, {}};
    return s;
}

}  // namespace zng
