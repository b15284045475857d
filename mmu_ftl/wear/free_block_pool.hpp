// Free flash blocks and the wear-levelling decision of which one to use next
// (slot "wear_leveling"). Blocks are grouped in units (the set of blocks a mapping may
// choose from: a package's superblocks for ZnG, a plane for a page-mapping FTL).
// Never-used blocks are handed out first, in index order, without being stored (a 1.5 TB
// array has a million blocks; memory grows with the blocks recycled); the policy orders
// only recycled (erased) blocks, whose erase count it is told when they are returned.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/config/registry.hpp"

namespace zng::ftl {

class FreeBlockPool {
public:
    struct Taken {
        uint32_t block = 0;
        bool fresh = false;  // never used before: holds the pre-loaded data, never erased
    };
    FreeBlockPool(uint32_t units, uint32_t blocks_per_unit);
    virtual ~FreeBlockPool() = default;

    uint32_t units() const { return static_cast<uint32_t>(fresh_next_.size()); }
    uint32_t blocks_per_unit() const { return blocks_; }
    // Free blocks of the unit (fresh + recycled).
    uint64_t free(uint32_t unit) const { return (blocks_ - fresh_next_.at(unit)) + recycled(unit); }
    // Takes the next block of `unit`; throws SimError when the unit has none.
    Taken take(uint32_t unit);
    // Returns an erased block with its erase count.
    virtual void give_back(uint32_t unit, uint32_t block, uint32_t erase_count) = 0;

protected:
    virtual uint64_t recycled(uint32_t unit) const = 0;
    virtual uint32_t take_recycled(uint32_t unit) = 0;

private:
    uint32_t blocks_;
    std::vector<uint32_t> fresh_next_;
};

// Args: units, blocks per unit.
using WearLevelingSlot = Slot<FreeBlockPool, uint32_t, uint32_t>;
WearLevelingSlot& wear_leveling_slot();
void register_wear_leveling_policies();

}  // namespace zng::ftl
