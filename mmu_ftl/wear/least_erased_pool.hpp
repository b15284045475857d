// Wear levelling by least-erased-first choice of a free block (dynamic wear levelling):
// every allocation takes the recycled block with the fewest erases, ties broken by the
// lower block number so runs are deterministic.
#pragma once
#include <queue>
#include <vector>

#include "mmu_ftl/wear/free_block_pool.hpp"

namespace zng::ftl {

class LeastErasedPool final : public FreeBlockPool {
public:
    LeastErasedPool(uint32_t units, uint32_t blocks_per_unit);
    void give_back(uint32_t unit, uint32_t block, uint32_t erase_count) override;
    static const ComponentSchema& schema();

protected:
    uint64_t recycled(uint32_t unit) const override { return heaps_.at(unit).size(); }
    uint32_t take_recycled(uint32_t unit) override;

private:
    struct Entry {
        uint32_t erases, block;
        bool operator>(const Entry& o) const { return erases != o.erases ? erases > o.erases : block > o.block; }
    };
    std::vector<std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>>> heaps_;
};

}  // namespace zng::ftl
