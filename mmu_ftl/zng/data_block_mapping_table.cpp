#include "mmu_ftl/zng/data_block_mapping_table.hpp"

#include <string>

#include "sim/core/errors.hpp"

namespace zng::ftl {

uint32_t DataBlockMappingTable::add(const DbmtEntry& e) {
    if (e.vbn >> 48) throw SimError("DBMT: virtual block number " + std::to_string(e.vbn) + " beyond 48 bits");
    if (find(e.app, e.vbn) != kNoLbn) throw SimError("DBMT: data block mapped twice");
    if (entries_.size() >= kNoLbn) throw SimError("DBMT: more data blocks than LBNs");
    uint32_t lbn = static_cast<uint32_t>(entries_.size());
    entries_.push_back(e);
    map_.put(key(e.app, e.vbn), lbn);
    return lbn;
}

}  // namespace zng::ftl
