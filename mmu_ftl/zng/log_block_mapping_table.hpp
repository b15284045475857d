// The LBMT (in GPU shared memory): which data blocks share one physical log block.
// Log blocks come from over-provisioned space, which is too small for one per data
// block, so up to `group_size` data blocks of the same application and unit form a log
// group. Groups never mix applications, so a merge holds only its owner's requests.
// Members are stored in one flat array (group_size slots per group): no allocation per
// group beyond the arrays' amortised growth.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/hash_map.hpp"

namespace zng::ftl {

struct LogGroup {
    uint16_t app = 0;
    uint32_t unit = 0;
    uint32_t plbn = UINT32_MAX;  // none until a member is first rewritten
    uint32_t members = 0;
    bool merging = false;
};

class LogBlockMappingTable {
public:
    explicit LogBlockMappingTable(uint32_t group_size) : group_size_(group_size) {}
    uint32_t group_size() const { return group_size_; }

    // The group a new data block (LBN) of `app` in `unit` joins: the application's open
    // group there, or a new one when that is full.
    uint32_t join(uint16_t app, uint32_t unit, uint32_t lbn);
    LogGroup& group(uint32_t g) { return groups_.at(g); }
    const LogGroup& group(uint32_t g) const { return groups_.at(g); }
    uint32_t member(uint32_t g, uint32_t i) const { return members_.at(uint64_t{g} * group_size_ + i); }
    uint64_t groups() const { return groups_.size(); }

private:
    uint32_t group_size_;
    std::vector<LogGroup> groups_;
    std::vector<uint32_t> members_;
    GrowingHashMap<uint32_t> open_{512};  // (app, unit) -> group still accepting members
};

}  // namespace zng::ftl
