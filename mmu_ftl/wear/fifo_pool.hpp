// No wear awareness: free blocks are reused in the order they were freed. The baseline
// against which least-erased-first is judged.
#pragma once
#include <vector>

#include "mmu_ftl/wear/free_block_pool.hpp"
#include "sim/core/ring_queue.hpp"

namespace zng::ftl {

class FifoPool final : public FreeBlockPool {
public:
    FifoPool(uint32_t units, uint32_t blocks_per_unit);
    void give_back(uint32_t unit, uint32_t block, uint32_t erase_count) override;
    static const ComponentSchema& schema();

protected:
    uint64_t recycled(uint32_t unit) const override { return queues_.at(unit).size(); }
    uint32_t take_recycled(uint32_t unit) override { return queues_.at(unit).take_front(); }

private:
    std::vector<RingQueue<uint32_t>> queues_;  // a unit never holds more than its blocks
};

}  // namespace zng::ftl
