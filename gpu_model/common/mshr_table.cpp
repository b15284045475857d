#include "gpu_model/common/mshr_table.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "sim/core/errors.hpp"

namespace zng::gpu {

uint64_t MshrTable::index_slots(uint32_t entries) { return std::bit_ceil(std::max<uint64_t>(uint64_t{entries} * 4, 16)); }

MshrTable::MshrTable(uint32_t entries, uint32_t max_merge) : max_merge_(max_merge) {
    if (entries == 0 || max_merge == 0)
        throw SimError("MSHR table needs at least one entry and one waiter slot (got " + std::to_string(entries) +
                       " x " + std::to_string(max_merge) + ")");
    const uint64_t n = index_slots(entries);
    slots_of_index_.assign(n, kEmptySlot);
    slot_mask_ = n - 1;
    index_shift_ = static_cast<uint32_t>(64 - std::countr_zero(n));
    entries_.resize(entries);
    slots_.resize(static_cast<size_t>(entries) * max_merge, nullptr);
    free_.reserve(entries);
    for (uint32_t i = entries; i-- > 0;) free_.push_back(i);  // hand out entry 0 first
}

uint64_t MshrTable::upfront_bytes(uint32_t entries, uint32_t max_merge) {
    // entries_, slots_, free_ and the index, as the constructor sizes them.
    return uint64_t{entries} * (sizeof(Entry) + sizeof(uint32_t)) +
           uint64_t{entries} * max_merge * sizeof(MemRequest*) + index_slots(entries) * sizeof(uint32_t);
}

int MshrTable::allocate(uint64_t key, uint32_t flags) {
    if (free_.empty()) throw SimError("MSHR allocation with no free entry");
    // The key's probe run is walked once: for an entry of the same key (an error), and
    // to the free slot the new entry takes.
    uint64_t slot = home(key);
    for (; slots_of_index_[slot] != kEmptySlot; slot = (slot + 1) & slot_mask_)
        if (entries_[slots_of_index_[slot]].key == key)
            throw SimError("MSHR allocation for a line that already has an entry");
    uint32_t i = free_.back();
    free_.pop_back();
    entries_[i] = Entry{key, 0, flags, static_cast<uint32_t>(slot), true};
    slots_of_index_[slot] = i;
    ++in_use_;
    return static_cast<int>(i);
}

void MshrTable::add_waiter(int e, MemRequest* r) {
    Entry& en = entries_[e];
    if (en.waiters >= max_merge_) throw SimError("MSHR merge beyond the entry's waiter slots");
    slots_[static_cast<size_t>(e) * max_merge_ + en.waiters++] = r;
}

void MshrTable::release(int e) {
    Entry& en = entries_[e];
    if (!en.valid) throw SimError("MSHR release of a free entry");
    en.valid = false;
    en.waiters = 0;
    index_erase(static_cast<uint32_t>(e));
    free_.push_back(static_cast<uint32_t>(e));
    --in_use_;
}

void MshrTable::index_erase(uint32_t e) {
    uint64_t hole = entries_[e].index_slot;
    // Pull later members of the probe run into the hole unless their home slot lies
    // cyclically in (hole, j]: lookups then never meet a gap inside a run.
    for (uint64_t j = (hole + 1) & slot_mask_; slots_of_index_[j] != kEmptySlot; j = (j + 1) & slot_mask_) {
        const uint32_t moved = slots_of_index_[j];
        const uint64_t h = home(entries_[moved].key);
        const bool movable = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
        if (movable) {
            slots_of_index_[hole] = moved;
            entries_[moved].index_slot = static_cast<uint32_t>(hole);
            hole = j;
        }
    }
    slots_of_index_[hole] = kEmptySlot;
}

}  // namespace zng::gpu
