#include "mmu_ftl/wear/fifo_pool.hpp"

#include "sim/core/errors.hpp"

namespace zng::ftl {

FifoPool::FifoPool(uint32_t units, uint32_t blocks_per_unit) : FreeBlockPool(units, blocks_per_unit) {
    queues_.resize(units);  // each ring allocated when its unit first recycles
}

void FifoPool::give_back(uint32_t unit, uint32_t block, uint32_t) {
    auto& q = queues_.at(unit);
    if (q.size() == blocks_per_unit()) throw SimError("fifo wear levelling: a unit given back more blocks than it has");
    if (q.capacity() == 0) q = RingQueue<uint32_t>(blocks_per_unit());  // sized once: pushes never allocate
    q.push_back(block);
}

const ComponentSchema& FifoPool::schema() {
    static const ComponentSchema s{"wear_leveling", "fifo",
                                   "No wear levelling: free blocks are reused in the order they were freed.",
                                   {}, {}};
    return s;
}

}  // namespace zng::ftl
