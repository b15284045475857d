// The discrete-event core. Events fire in (tick, insertion sequence) order, so two
// events at the same tick fire in the order they were scheduled and runs are
// deterministic. The heap is a vector of plain entries: once it has grown to the
// model's working size, scheduling and firing allocate nothing.
//
// The heap is 4-ary: a model keeps a few tens of events pending, so a 4-ary heap is
// half as deep as a binary one and the four children of a node sit side by side in
// memory. Entries are compared on one 128-bit key (tick, sequence), branch-free.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/event.hpp"

namespace zng {

class EventQueue {
public:
    EventQueue() { heap_.reserve(1024); }

    Tick now() const { return now_; }
    bool empty() const { return live_ == 0; }
    uint64_t size() const { return live_; }
    uint64_t fired() const { return fired_; }

    // Schedules ev at tick `when` (>= now). If ev is already scheduled, it is moved.
    void schedule(Event& ev, Tick when);
    // Schedules ev unless it is already scheduled at or before `when`.
    void schedule_at_most(Event& ev, Tick when) {
        if (!ev.scheduled() || ev.when() > when) schedule(ev, when);
    }
    void deschedule(Event& ev);

    // Tick of the next live event, or kMaxTick when none.
    Tick next_tick();
    // Fires the next event; false when the queue is empty.
    bool step();
    // Fires events until the queue is empty or the next event lies beyond `until`.
    void run_until(Tick until);

private:
    struct Entry {
        Tick when;
        uint64_t seq;
        Event* ev;
    };
    static constexpr size_t kArity = 4;
    static unsigned __int128 key(const Entry& e) {
        return (static_cast<unsigned __int128>(e.when) << 64) | e.seq;
    }
    static bool later(const Entry& a, const Entry& b) { return key(a) > key(b); }
    void push(const Entry& e);
    void pop();
    void drop_stale();

    std::vector<Entry> heap_;
    Tick now_ = 0;
    uint64_t next_seq_ = 1;
    uint64_t live_ = 0;
    uint64_t fired_ = 0;
};

}  // namespace zng
