#include "mmu_ftl/common/lru_page_cache.hpp"

#include <string>

namespace zng::ftl {

LruPageCache::LruPageCache(uint64_t capacity_slots) : capacity_(capacity_slots) {
    if (capacity_slots == 0 || capacity_slots > kMaxSlots)
        throw SimError("LruPageCache: capacity must be between 1 and 2^32-2 slots, got " +
                       std::to_string(capacity_slots));
}

uint32_t LruPageCache::insert(uint64_t key) {
    if (full()) throw SimError("LruPageCache: insert into a full cache");
    if (map_.contains(key)) throw SimError("LruPageCache: key " + std::to_string(key) + " already cached");
    uint32_t s;
    if (!free_.empty()) {
        s = free_.back();
        free_.pop_back();
    } else {
        s = static_cast<uint32_t>(slots_.size());
        slots_.emplace_back();
    }
    slots_[s] = Slot{};
    slots_[s].key = key;
    slots_[s].used = true;
    map_.put(key, s);
    link_front(s);
    return s;
}

void LruPageCache::erase(uint32_t s) {
    Slot& sl = slots_.at(s);
    if (!sl.used) throw SimError("LruPageCache: erase of a free slot");
    if (sl.pins == 0) unlink(s);
    map_.erase(sl.key);
    sl = Slot{};
    free_.push_back(s);
}

void LruPageCache::touch(uint32_t s) {
    if (slots_[s].pins != 0 || head_ == s) return;
    unlink(s);
    link_front(s);
}

void LruPageCache::pin(uint32_t s) {
    if (slots_[s].pins++ == 0) unlink(s);
}

void LruPageCache::unpin(uint32_t s) {
    if (slots_[s].pins == 0) throw SimError("LruPageCache: unpin of an unpinned slot");
    if (--slots_[s].pins == 0) link_front(s);
}

void LruPageCache::link_front(uint32_t s) {
    slots_[s].prev = kNone;
    slots_[s].next = head_;
    if (head_ != kNone) slots_[head_].prev = s;
    head_ = s;
    if (tail_ == kNone) tail_ = s;
}

void LruPageCache::unlink(uint32_t s) {
    Slot& sl = slots_[s];
    if (sl.prev != kNone) slots_[sl.prev].next = sl.next; else head_ = sl.next;
    if (sl.next != kNone) slots_[sl.next].prev = sl.prev; else tail_ = sl.prev;
    sl.prev = sl.next = kNone;
}

}  // namespace zng::ftl
