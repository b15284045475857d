#include "sim/core/event_queue.hpp"

#include <string>

#include "sim/core/errors.hpp"

namespace zng {

EventQueue::EventQueue() : bucket_of_tick_(64) {
    ticks_.reserve(64);
    buckets_.reserve(64);
}

void EventQueue::scheduled_in_the_past(const Event& ev, Tick when) const {
    throw SimError("event '" + std::string(ev.name()) + "' scheduled in the past (at " + std::to_string(when) +
                   " ps, now " + std::to_string(now_) + " ps)");
}

void EventQueue::deschedule(Event& ev) {
    if (!ev.scheduled()) return;
    ev.seq_ = 0;
    --live_;
}

uint32_t EventQueue::bucket_for(Tick when) {
    // Schedulings come in runs for one tick (the next edge of a clock): the last
    // answer is remembered (schedule() asks it before calling here).
    last_tick_ = when;
    if (const uint32_t* found = bucket_of_tick_.get(when)) return last_bucket_ = *found;
    uint32_t b;
    if (!free_buckets_.empty()) {
        b = free_buckets_.back();
        free_buckets_.pop_back();
    } else {
        b = static_cast<uint32_t>(buckets_.size());
        buckets_.emplace_back();
    }
    if (bucket_of_tick_.size() == bucket_of_tick_.capacity()) grow_index();
    bucket_of_tick_.put(when, b);
    push_tick({when, b});
    return last_bucket_ = b;
}

// The index holds one key per pending tick; when that many ticks are pending, it is
// rebuilt twice as large from the heap, which lists them all.
void EventQueue::grow_index() {
    FixedHashMap<uint32_t> bigger(bucket_of_tick_.capacity() * 2);
    for (const TickEntry& t : ticks_) bigger.put(t.when, t.bucket);
    bucket_of_tick_ = std::move(bigger);
}

// Sift-up / sift-down move a hole instead of swapping entries, which keeps the hot
// loops small. Ticks in the heap are distinct, so the key is the tick alone.
void EventQueue::push_tick(TickEntry e) {
    ticks_.push_back(e);
    TickEntry* h = ticks_.data();
    size_t i = ticks_.size() - 1;
    while (i > 0) {
        size_t parent = (i - 1) / kArity;
        if (h[parent].when <= e.when) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

// Removes the root: the last entry moves into the hole, sinking below the smallest
// child while that child is earlier.
void EventQueue::pop_tick() {
    const size_t n = ticks_.size() - 1;
    TickEntry* h = ticks_.data();
    const TickEntry last = h[n];
    size_t i = 0;
    for (;;) {
        const size_t first = kArity * i + 1;
        if (first >= n) break;
        size_t best = first;
        const size_t end = first + kArity < n ? first + kArity : n;
        for (size_t c = first + 1; c < end; ++c) best = h[c].when < h[best].when ? c : best;
        if (last.when <= h[best].when) break;
        h[i] = h[best];
        i = best;
    }
    h[i] = last;
    ticks_.pop_back();
}

// Retires the earliest tick once its bucket has nothing left to fire.
void EventQueue::retire_front() {
    const TickEntry t = ticks_.front();
    Bucket& b = buckets_[t.bucket];
    b.entries.clear();
    b.head = 0;
    free_buckets_.push_back(t.bucket);
    bucket_of_tick_.erase(t.when);
    if (t.bucket == last_bucket_) last_bucket_ = kNoBucket;
    pop_tick();
}

// Skips stale entries (moved or cancelled events) at the front.
void EventQueue::drop_stale() {
    while (!ticks_.empty()) {
        Bucket& b = buckets_[ticks_.front().bucket];
        while (b.head < b.entries.size() && b.entries[b.head].ev->seq_ != b.entries[b.head].seq) ++b.head;
        if (b.head < b.entries.size()) return;
        retire_front();
    }
}

Tick EventQueue::next_tick() {
    drop_stale();
    return ticks_.empty() ? kMaxTick : ticks_.front().when;
}

void EventQueue::run_until(Tick until) {
    while (next_tick() <= until) step();
}

}  // namespace zng
