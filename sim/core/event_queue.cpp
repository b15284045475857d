#include "sim/core/event_queue.hpp"

#include <string>

#include "sim/core/errors.hpp"

namespace zng {

EventQueue::EventQueue() {
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
    // answer is remembered, and every answer is memoised (bucket_of asks both first).
    last_tick_ = when;
    // i: where `when` belongs, every tick before i being later than it, every tick from
    // i on earlier or equal.
    size_t i = ticks_.size();
    const TickEntry* t = ticks_.data();
    const size_t walk_end = i > kWalk ? i - kWalk : 0;
    while (i > walk_end && t[i - 1].when <= when) --i;
    if (i == walk_end && i > 0 && t[i - 1].when <= when) {
        // Far in the future: binary search of [0, i) for the first tick not later.
        size_t lo = 0, hi = i;
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            if (t[mid].when > when) lo = mid + 1;
            else hi = mid;
        }
        i = lo;
    }
    last_bucket_ = i < ticks_.size() && t[i].when == when ? t[i].bucket : insert_tick(i, when);
    memo_[memo_slot(when)] = TickMemo{when, last_bucket_};
    return last_bucket_;
}

// Out of line, so that finding a pending tick (three in four calls) keeps a small frame.
uint32_t EventQueue::insert_tick(size_t i, Tick when) {
    uint32_t b;
    if (!free_buckets_.empty()) {
        b = free_buckets_.back();
        free_buckets_.pop_back();
    } else {
        b = static_cast<uint32_t>(buckets_.size());
        buckets_.emplace_back();
    }
    ticks_.insert(ticks_.begin() + static_cast<std::ptrdiff_t>(i), TickEntry{when, b});
    return b;
}

// Retires the earliest tick once its bucket has nothing left to fire.
void EventQueue::retire_front() {
    const TickEntry t = ticks_.back();
    Bucket& b = buckets_[t.bucket];
    b.entries.clear();
    b.head = 0;
    free_buckets_.push_back(t.bucket);
    if (t.bucket == last_bucket_) last_bucket_ = kNoBucket;
    TickMemo& m = memo_[memo_slot(t.when)];
    if (m.when == t.when) m = TickMemo{};
    ticks_.pop_back();
}

// Skips stale entries (moved or cancelled events) at the front.
void EventQueue::drop_stale() {
    while (!ticks_.empty()) {
        Bucket& b = buckets_[ticks_.back().bucket];
        while (b.head < b.entries.size() && b.entries[b.head].ev->seq_ != b.entries[b.head].seq) ++b.head;
        if (b.head < b.entries.size()) return;
        retire_front();
    }
}

Tick EventQueue::next_tick() {
    drop_stale();
    return ticks_.empty() ? kMaxTick : ticks_.back().when;
}

void EventQueue::run_until(Tick until) {
    while (next_tick() <= until) step();
}

}  // namespace zng
