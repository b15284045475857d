// A per-inode range lock (seed 001 §3.3): "GoFS replaces the inode mutex with a range
// lock for fine-grained concurrency control based on accessed I/O ranges ... structured
// as a ring buffer". A request appends its byte range and is granted when no earlier
// range still in the buffer overlaps it; otherwise it waits ("Upon access range
// conflict, the newer request must wait"). Earlier ranges, granted or waiting, all
// count, so that "a newer lock acquisition will not succeed earlier than a previous
// request within an overlapping range" (no starvation). Disjoint ranges proceed
// together. Released ranges leave the buffer; the waiting ranges a released one overlapped
// are re-checked, and those now free go on in acquisition order.
//
// Reads take their range shared: overlapping reads do not conflict (GoFS "replaces the
// inode mutex" of the host, under which reads of a file run together; only writes
// take Linux's inode lock exclusively), so a read waits only for an earlier
// overlapping write, and a write for any earlier overlapping range.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace zng::storage::gofs {

class RangeLock {
public:
    // Appends [offset, offset + bytes) under `id`, shared (a read) or exclusive; true if
    // granted now. A request not granted now is reported by a later release().
    bool acquire(uint64_t id, uint64_t offset, uint64_t bytes, bool shared = false);
    // Removes `id`'s range; appends to `granted` the ids that become granted.
    void release(uint64_t id, std::vector<uint64_t>& granted);
    size_t held() const { return by_id_.size(); }

private:
    struct Slot {
        uint64_t id, end, seq;
        bool granted;
        bool shared;
    };
    using Index = std::multimap<uint64_t, Slot>;  // by begin
    // Whether the range at `it` overlaps a range acquired before it.
    bool blocked(Index::const_iterator it) const;
    // Ranges overlapping [begin, end) start before `end` and no earlier than this (they
    // end after `begin`, and none is longer than longest_).
    uint64_t nearest_start(uint64_t begin) const { return begin > longest_ ? begin - longest_ : 0; }
    Index by_begin_;
    std::unordered_map<uint64_t, Index::iterator> by_id_;
    uint64_t waiting_ = 0;  // ranges not granted
    std::vector<Index::iterator> freed_;  // release's scratch: the ranges it lets go on
    uint64_t seq_ = 0;
    uint64_t longest_ = 0;  // no range held is longer (never shrinks)
};

}  // namespace zng::storage::gofs
