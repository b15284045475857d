// Items that become ready at given ticks, handed to a callback in (tick, insertion)
// order, with one event for the whole queue. This is how a component models many
// operations in flight (pipelines, links, device operations finishing at different
// times) without an event object per operation.
// Most owners push with a fixed latency, so items mostly arrive in ready order: those
// go to a FIFO ring (no heap sift), the others to a heap, and each pop takes the
// earlier of the two fronts by (ready, insertion), the same order a single heap gives.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/core/event.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/simulator.hpp"

namespace zng {

template <class T>
class TimedQueue {
public:
    using Handler = std::function<void(T&)>;
    TimedQueue(Simulator& sim, Handler h, const char* name = "timed-queue")
        : sim_(sim), handler_(std::move(h)), event_(this, name) {}

    void push(T item, Tick ready) {
        if (fifo_.empty() || fifo_[fifo_.size() - 1].ready <= ready) {
            fifo_.push_back({ready, seq_++, std::move(item)});
        } else {
            heap_.push_back({ready, seq_++, std::move(item)});
            sift_up(heap_.size() - 1);
        }
        sim_.events().schedule_at_most(event_, next_ready());
    }
    size_t size() const { return fifo_.size() + heap_.size(); }
    bool empty() const { return fifo_.empty() && heap_.empty(); }
    Tick next_ready() const {
        const Tick f = fifo_.empty() ? kMaxTick : fifo_.front().ready;
        const Tick h = heap_.empty() ? kMaxTick : heap_.front().ready;
        return f < h ? f : h;
    }

private:
    struct Entry {
        Tick ready;
        uint64_t seq;
        T item;
    };
    static bool later(const Entry& a, const Entry& b) {
        return a.ready != b.ready ? a.ready > b.ready : a.seq > b.seq;
    }
    void sift_up(size_t i) {
        while (i > 0) {
            size_t p = (i - 1) / 2;
            if (!later(heap_[p], heap_[i])) break;
            std::swap(heap_[p], heap_[i]);
            i = p;
        }
    }
    void sift_down(size_t i) {
        size_t n = heap_.size();
        for (;;) {
            size_t c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && later(heap_[c], heap_[c + 1])) ++c;
            if (!later(heap_[i], heap_[c])) break;
            std::swap(heap_[i], heap_[c]);
            i = c;
        }
    }
    // The heap's front goes first when it is earlier by (ready, insertion).
    bool heap_first() const {
        if (heap_.empty()) return false;
        if (fifo_.empty()) return true;
        return later(fifo_.front(), heap_.front());
    }
    void fire() {
        Tick now = sim_.now();
        for (;;) {
            T item;
            if (heap_first()) {
                if (heap_.front().ready > now) break;
                item = std::move(heap_.front().item);
                heap_.front() = std::move(heap_.back());
                heap_.pop_back();
                if (!heap_.empty()) sift_down(0);
            } else {
                if (fifo_.empty() || fifo_.front().ready > now) break;
                item = fifo_.take_front().item;
            }
            handler_(item);  // may push more items
        }
        if (!empty()) sim_.events().schedule_at_most(event_, next_ready());
    }

    Simulator& sim_;
    Handler handler_;
    RingQueue<Entry> fifo_;   // pushed in ready order
    std::vector<Entry> heap_;  // the others
    uint64_t seq_ = 0;
    MemberEvent<TimedQueue, &TimedQueue::fire> event_;
};

}  // namespace zng
