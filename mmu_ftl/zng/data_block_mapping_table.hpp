// The DBMT: ZnG's page table, one entry per data block an application has touched,
// mapping its virtual block number (VBN) to a logical block number (LBN, the entry's
// global index) and to the flash blocks that hold it: the physical data block (PDBN)
// and the physical log block (PLBN) that takes its rewritten pages. Entries are created
// on first touch, so the simulator's memory grows with the data touched; the size the
// hardware table would have is computed in mapping_table_sizes.hpp.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/hash_map.hpp"

namespace zng::ftl {

struct DbmtEntry {
    uint64_t vbn = 0;
    uint16_t app = 0;
    uint32_t unit = 0;      // the plane group (package-wide by default) holding the block
    uint32_t pdbn = 0;      // physical data block number inside the unit
    uint32_t plbn = 0;      // physical log block, kNoBlock until the first rewrite
    uint32_t group = 0;     // LBMT entry (log group) the data block belongs to
};

class DataBlockMappingTable {
public:
    static constexpr uint32_t kNoBlock = UINT32_MAX;
    static constexpr uint32_t kNoLbn = UINT32_MAX;

    // LBN of (app, vbn), or kNoLbn when the application never touched that block.
    uint32_t find(uint16_t app, uint64_t vbn) const {
        const uint32_t* lbn = map_.get(key(app, vbn));
        return lbn ? *lbn : kNoLbn;
    }
    uint32_t add(const DbmtEntry& e);
    DbmtEntry& at(uint32_t lbn) { return entries_.at(lbn); }
    const DbmtEntry& at(uint32_t lbn) const { return entries_.at(lbn); }
    uint64_t size() const { return entries_.size(); }

private:
    // VBNs are below 2^48 / block size, far below 2^48, so app and VBN pack in one key.
    static uint64_t key(uint16_t app, uint64_t vbn) { return (uint64_t{app} << 48) | vbn; }
    GrowingHashMap<uint32_t> map_{512};
    std::vector<DbmtEntry> entries_;
};

}  // namespace zng::ftl
