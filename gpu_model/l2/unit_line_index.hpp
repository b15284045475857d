// Which unit fetch will install a line (L2Cache's unit fetches): a line is in at most one
// unit in flight. A unit fetch asks for every line of its window whether another unit
// already brings it, and installing a line removes it; the lines of a window are
// consecutive, so they are kept by 64-line block: one record per block holds a bit per
// line and the units of its lines, and the lines of a window share one look-up of the
// block's record instead of one hash probe each (which scattered a 4 KB unit's 32 lines
// over 32 host cache lines of a table sized for every MSHR entry's largest unit).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/hash_map.hpp"

namespace zng::gpu {

class UnitLineIndex {
public:
    static constexpr uint32_t kNone = UINT32_MAX;
    // `max_units` units in flight of at most 64 lines each: at most two blocks per unit.
    explicit UnitLineIndex(uint64_t max_units);
    // Host bytes of an index for `max_units` (memory estimates before building).
    static uint64_t bytes(uint64_t max_units);

    bool contains(uint64_t line) const { return unit_of(line) != kNone; }
    // The unit bringing `line`, or kNone.
    uint32_t unit_of(uint64_t line) const {
        const uint32_t* r = records_by_block_.get(line >> kBlockShift);
        if (!r) return kNone;
        const Record& rec = records_[*r];
        return (rec.present >> (line & kLineMask)) & 1 ? rec.unit[line & kLineMask] : kNone;
    }
    // Precondition: !contains(line).
    void put(uint64_t line, uint32_t unit);
    // No effect when absent.
    void erase(uint64_t line);
    uint64_t size() const { return size_; }

private:
    static constexpr uint32_t kBlockShift = 6;
    static constexpr uint64_t kLineMask = (uint64_t{1} << kBlockShift) - 1;
    struct Record {
        uint64_t present = 0;  // bit i: line (block << 6) + i is in a unit
        std::array<uint32_t, 64> unit{};
    };
    FixedHashMap<uint32_t> records_by_block_;  // block -> its record
    std::vector<Record> records_;
    std::vector<uint32_t> free_records_;
    uint64_t size_ = 0;
};

}  // namespace zng::gpu
