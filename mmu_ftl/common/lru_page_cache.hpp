// A set of page-sized slots with LRU replacement: the DRAM buffer of an SSD controller
// and the GPU memory of a host-paged GPU are both this. Slot numbers are stable for the
// life of an entry (the GPU frame number, the buffer page). Per slot: the key (a logical
// page), a dirty flag and a mask of valid lines. A pinned slot (a fill or a write-back
// in flight) is kept out of the LRU order so it is never chosen as a victim. Slots and
// the key map grow with use up to the capacity; nothing is allocated per access.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/hash_map.hpp"

namespace zng::ftl {

class LruPageCache {
public:
    static constexpr uint32_t kNone = UINT32_MAX;
    // Slots are 32-bit numbers below kNone (kNone - 1 marks the list ends).
    static constexpr uint64_t kMaxSlots = uint64_t{UINT32_MAX} - 1;

    explicit LruPageCache(uint64_t capacity_slots);
    uint64_t capacity() const { return capacity_; }
    uint64_t size() const { return map_.size(); }
    bool full() const { return size() == capacity_; }

    uint32_t find(uint64_t key) const {
        const uint32_t* slot = map_.get(key);
        return slot ? *slot : kNone;
    }
    // Puts `key` into a free slot as most recently used; throws SimError if full or
    // already present.
    uint32_t insert(uint64_t key);
    void erase(uint32_t slot);
    // Most recently used from now on (no-op for pinned slots: they re-enter on unpin).
    void touch(uint32_t slot);
    // The least recently used unpinned slot, or kNone when every slot is pinned or empty.
    uint32_t victim() const { return tail_; }

    void pin(uint32_t slot);
    void unpin(uint32_t slot);
    bool pinned(uint32_t slot) const { return slots_[slot].pins != 0; }

    // True if `slot` holds an entry.
    bool holds(uint32_t slot) const { return slot < slots_.size() && slots_[slot].used; }
    uint64_t key(uint32_t slot) const { return slots_[slot].key; }
    bool dirty(uint32_t slot) const { return slots_[slot].dirty; }
    void set_dirty(uint32_t slot, bool d) { slots_[slot].dirty = d; }
    uint64_t lines(uint32_t slot) const { return slots_[slot].lines; }
    void set_lines(uint32_t slot, uint64_t mask) { slots_[slot].lines = mask; }

private:
    struct Slot {
        uint64_t key = 0;
        uint32_t prev = kNone, next = kNone;  // LRU list: head = most recent
        uint32_t pins = 0;
        bool used = false, dirty = false;
        uint64_t lines = 0;
    };
    void link_front(uint32_t s);
    void unlink(uint32_t s);

    uint64_t capacity_;
    std::vector<Slot> slots_;
    std::vector<uint32_t> free_;
    GrowingHashMap<uint32_t> map_{512};
    uint32_t head_ = kNone, tail_ = kNone;
};

}  // namespace zng::ftl
