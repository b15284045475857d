#include "gpu_model/common/mshr_table.hpp"

#include <string>

#include "sim/core/errors.hpp"

namespace zng::gpu {

MshrTable::MshrTable(uint32_t entries, uint32_t max_merge) : max_merge_(max_merge), index_(entries) {
    if (entries == 0 || max_merge == 0)
        throw SimError("MSHR table needs at least one entry and one waiter slot (got " + std::to_string(entries) +
                       " x " + std::to_string(max_merge) + ")");
    entries_.resize(entries);
    slots_.resize(static_cast<size_t>(entries) * max_merge, nullptr);
    free_.reserve(entries);
    for (uint32_t i = entries; i-- > 0;) free_.push_back(i);  // hand out entry 0 first
}

uint64_t MshrTable::upfront_bytes(uint32_t entries, uint32_t max_merge) {
    // entries_, slots_, free_ and index_, as the constructor sizes them.
    return uint64_t{entries} * (sizeof(Entry) + sizeof(uint32_t)) +
           uint64_t{entries} * max_merge * sizeof(MemRequest*) + FixedHashMap<uint32_t>::table_bytes(entries);
}

int MshrTable::allocate(uint64_t key, uint32_t flags) {
    if (free_.empty()) throw SimError("MSHR allocation with no free entry");
    if (index_.contains(key)) throw SimError("MSHR allocation for a line that already has an entry");
    uint32_t i = free_.back();
    free_.pop_back();
    entries_[i] = Entry{key, 0, flags, true};
    index_.put(key, i);
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
    index_.erase(en.key);
    free_.push_back(static_cast<uint32_t>(e));
    --in_use_;
}

}  // namespace zng::gpu
