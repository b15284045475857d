// Miss status holding registers: one entry per line being fetched, each with a bounded
// list of the requests waiting for it (merged misses). Entries and waiter slots are
// preallocated, as in hardware; a full table or a full entry is a structural stall the
// owner must handle (keep the request and retry when release() frees room).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/mem/mem_request.hpp"

namespace zng::gpu {

class MshrTable {
public:
    static constexpr int kNone = -1;

    MshrTable(uint32_t entries, uint32_t max_merge);
    // Bytes such a table allocates when built (memory estimates before building).
    static uint64_t upfront_bytes(uint32_t entries, uint32_t max_merge);

    uint32_t capacity() const { return static_cast<uint32_t>(entries_.size()); }
    uint32_t max_merge() const { return max_merge_; }
    uint32_t in_use() const { return in_use_; }
    bool full() const { return in_use_ == entries_.size(); }

    // Entry tracking `key`, or kNone. Every L1 and L2 access asks, so it is a hash
    // lookup rather than a scan of the valid entries.
    int find(uint64_t key) const {
        for (uint64_t i = home(key);; i = (i + 1) & slot_mask_) {
            const uint32_t s = slots_of_index_[i];
            if (s == kEmptySlot) return kNone;
            if (entries_[s].key == key) return static_cast<int>(s);
        }
    }
    // Takes a free entry for `key` (caller checked !full()).
    int allocate(uint64_t key, uint32_t flags = 0);
    bool can_merge(int e) const { return entries_[e].waiters < max_merge_; }
    void add_waiter(int e, MemRequest* r);

    uint64_t key(int e) const { return entries_[e].key; }
    uint32_t flags(int e) const { return entries_[e].flags; }
    void set_flags(int e, uint32_t f) { entries_[e].flags = f; }
    uint32_t waiters(int e) const { return entries_[e].waiters; }
    MemRequest* waiter(int e, uint32_t i) const { return slots_[static_cast<size_t>(e) * max_merge_ + i]; }
    void release(int e);

private:
    struct Entry {
        uint64_t key = 0;
        uint32_t waiters = 0;
        uint32_t flags = 0;
        uint32_t index_slot = 0;  // where the index holds this entry (valid entries)
        bool valid = false;
    };
    // The index: open addressing with linear probing over entry numbers, at most a
    // quarter full (short probe runs: a release walks to the end of its run). Each entry knows its index slot, so a release (every fill) starts its
    // backward-shift deletion there instead of hashing and probing for the key again.
    static constexpr uint32_t kEmptySlot = ~0u;
    static uint64_t index_slots(uint32_t entries);
    // Fibonacci hashing: lines that differ only in high or low bits still spread.
    uint64_t home(uint64_t key) const { return (key * 0x9e3779b97f4a7c15ull) >> index_shift_; }
    void index_erase(uint32_t e);

    uint32_t max_merge_;
    uint32_t in_use_ = 0;
    std::vector<Entry> entries_;
    std::vector<MemRequest*> slots_;   // entries x max_merge
    std::vector<uint32_t> slots_of_index_;  // entry number, or kEmptySlot
    uint64_t slot_mask_;
    uint32_t index_shift_;
    std::vector<uint32_t> free_;
};

}  // namespace zng::gpu
