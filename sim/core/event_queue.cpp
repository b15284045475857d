#include "sim/core/event_queue.hpp"

#include <string>

#include "sim/core/errors.hpp"

namespace zng {

void EventQueue::schedule(Event& ev, Tick when) {
    if (when < now_)
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

// Sift-up / sift-down by hand: std::push_heap/pop_heap would do, but an explicit hole
// avoids swaps and keeps the hot loop small.
void EventQueue::push(const Entry& e) {
    heap_.push_back(e);
    size_t i = heap_.size() - 1;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!later(heap_[parent], e)) break;
        heap_[i] = heap_[parent];
        i = parent;
    }
    heap_[i] = e;
}

EventQueue::Entry EventQueue::pop() {
    Entry top = heap_.front();
    Entry last = heap_.back();
    heap_.pop_back();
    size_t n = heap_.size();
    if (n > 0) {
        size_t i = 0;
        for (;;) {
            size_t child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && later(heap_[child], heap_[child + 1])) ++child;
            if (!later(last, heap_[child])) break;
            heap_[i] = heap_[child];
            i = child;
        }
        heap_[i] = last;
    }
    return top;
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
    Entry e = pop();
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
