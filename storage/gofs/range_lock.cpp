#include "storage/gofs/range_lock.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"

namespace zng::storage::gofs {

bool RangeLock::blocked(Index::const_iterator it) const {
    const uint64_t begin = it->first, end = it->second.end, seq = it->second.seq;
    const bool shared = it->second.shared;
    for (auto k = by_begin_.lower_bound(nearest_start(begin)); k != by_begin_.end() && k->first < end; ++k)
        if (k->second.seq < seq && k->second.end > begin && !(shared && k->second.shared)) return true;
    return false;
}

bool RangeLock::acquire(uint64_t id, uint64_t offset, uint64_t bytes, bool shared) {
    longest_ = std::max(longest_, bytes);
    auto it = by_begin_.emplace(offset, Slot{id, offset + bytes, seq_++, false, shared});
    by_id_[id] = it;
    it->second.granted = !blocked(it);
    if (!it->second.granted) ++waiting_;
    return it->second.granted;
}

void RangeLock::release(uint64_t id, std::vector<uint64_t>& granted) {
    auto f = by_id_.find(id);
    if (f == by_id_.end() || !f->second->second.granted)
        throw SimError("range lock released by a request not holding it");
    const uint64_t begin = f->second->first, end = f->second->second.end, seq = f->second->second.seq;
    by_begin_.erase(f->second);
    by_id_.erase(f);
    if (waiting_ == 0) return;
    // A waiting range is held only by earlier ranges overlapping it, so the release can
    // free only later waiting ranges that overlap the released one: those are checked,
    // not every waiter (with thousands of random writes in flight, checking every
    // waiter on every release took most of a run). They go on in acquisition order.
    freed_.clear();
    for (auto k = by_begin_.lower_bound(nearest_start(begin)); k != by_begin_.end() && k->first < end; ++k)
        if (!k->second.granted && k->second.seq > seq && k->second.end > begin && !blocked(k)) freed_.push_back(k);
    std::sort(freed_.begin(), freed_.end(),
              [](Index::iterator a, Index::iterator b) { return a->second.seq < b->second.seq; });
    for (Index::iterator k : freed_) {
        k->second.granted = true;
        granted.push_back(k->second.id);
    }
    waiting_ -= freed_.size();
}

}  // namespace zng::storage::gofs
