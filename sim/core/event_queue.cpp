#include "sim/core/event_queue.hpp"

#include <string>

#include "sim/core/errors.hpp"

namespace zng {

void EventQueue::schedule(Event& ev, Tick when) {
    if (when < now_) [[unlikely]]
        throw SimError("event '" + std::string(ev.name()) + "' scheduled in the past (at " +
                       std::to_string(when) + " ps, now " + std::to_string(now_) + " ps)");
    if (ev.scheduled()) --live_;  // the old entry becomes stale and is skipped when popped
    ev.when_ = when;
    ev.seq_ = next_seq_++;
    push({when, ev.seq_, &ev});
    ++live_;
}

void EventQueue::deschedule(Event& ev) {
    if (!ev.scheduled()) return;
    ev.seq_ = 0;
    --live_;
}

// Sift-up / sift-down move a hole instead of swapping entries, which keeps the hot
// loops small.
void EventQueue::push(const Entry& e) {
    heap_.push_back(e);
    Entry* h = heap_.data();
    size_t i = heap_.size() - 1;
    const unsigned __int128 k = key(e);
    while (i > 0) {
        size_t parent = (i - 1) / kArity;
        if (key(h[parent]) <= k) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

// Removes the root: the last entry moves into the hole, sinking below the smallest
// child while that child is earlier.
void EventQueue::pop() {
    const size_t n = heap_.size() - 1;
    Entry* h = heap_.data();
    const Entry last = h[n];
    const unsigned __int128 k = key(last);
    size_t i = 0;
    for (;;) {
        const size_t first = kArity * i + 1;
        if (first >= n) break;
        size_t best = first;
        unsigned __int128 bk = key(h[first]);
        const size_t end = first + kArity < n ? first + kArity : n;
        for (size_t c = first + 1; c < end; ++c) {
            const unsigned __int128 ck = key(h[c]);
            const bool earlier = ck < bk;
            best = earlier ? c : best;
            bk = earlier ? ck : bk;
        }
        if (k <= bk) break;
        h[i] = h[best];
        i = best;
    }
    h[i] = last;
    heap_.pop_back();
}

void EventQueue::drop_stale() {
    while (!heap_.empty() && heap_.front().ev->seq_ != heap_.front().seq) pop();
}

Tick EventQueue::next_tick() {
    drop_stale();
    return heap_.empty() ? kMaxTick : heap_.front().when;
}

bool EventQueue::step() {
    drop_stale();
    if (heap_.empty()) return false;
    const Entry e = heap_.front();
    pop();
    now_ = e.when;
    e.ev->seq_ = 0;
    --live_;
    ++fired_;
    e.ev->process();
    return true;
}

void EventQueue::run_until(Tick until) {
    while (next_tick() <= until) step();
}

}  // namespace zng
