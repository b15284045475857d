// TimedQueue's contract (items handed to a callback in (tick, insertion) order, one
// event for the whole queue) for a component whose items all fall on edges of its own
// clock, at most `horizon` cycles past the first edge at or after now: a flash mesh's
// router, link and port timings. The items then fit a ring of per-cycle FIFO buckets,
// so pushing and handing out are O(1) where the heap paid log n swaps for each; a
// bitmap of the non-empty buckets finds the next pending cycle.
//
// The event is scheduled exactly as TimedQueue schedules its own (schedule_at_most at
// the earliest pending tick on every push and after every firing), so replacing one
// by the other changes no event's order in the simulation.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

#include <fmt/format.h>

#include "sim/core/clock_domain.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/event.hpp"
#include "sim/core/simulator.hpp"

namespace zng {

template <class T>
class CycleCalendar {
public:
    using Handler = std::function<void(T&)>;
    CycleCalendar(Simulator& sim, const ClockDomain& clock, Cycle horizon, Handler h,
                  const char* name = "cycle-calendar")
        : sim_(sim),
          clock_(clock),
          horizon_(horizon),
          // At least one bitmap word; more than `horizon` buckets, so the pending
          // cycles [first edge, first edge + horizon] never share one.
          mask_(std::bit_ceil(std::max<Cycle>(horizon + 1, 64)) - 1),
          buckets_(mask_ + 1),
          occupied_((mask_ + 1) / 64, 0),
          handler_(std::move(h)),
          event_(this, name) {
        // Cycles are ordered as their ticks only while every edge has a tick of its own.
        if (clock.frequency_hz() > kSecond)
            throw SimError(fmt::format("{}: clock {} has edges sharing a tick", name, clock.name()));
    }

    // Queues `item` for edge `cycle` of the clock (its tick: clock.cycle_to_tick(cycle)).
    void push(T item, Cycle cycle) {
        const Cycle first = clock_.remembered_edge_cycle(sim_.now());
        if (cycle - first > horizon_) [[unlikely]]  // also catches cycle < first (unsigned)
            beyond_horizon(cycle, first);
        const uint32_t n = new_node(std::move(item));
        Bucket& b = buckets_[cycle & mask_];
        if (b.tail == kNil) {
            b.head = n;
            occupied_[(cycle & mask_) / 64] |= uint64_t{1} << (cycle & 63);
        } else {
            nodes_[b.tail].next = n;
        }
        b.tail = n;
        ++size_;
        // TimedQueue's schedule_at_most(event, earliest pending tick). While the event
        // is scheduled, it is at or before every pending item, so only an item earlier
        // than the event moves it.
        if (!event_.scheduled())
            arm(size_ == 1 ? cycle : next_pending(first));
        else if (cycle < armed_)
            arm(cycle);
    }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Cycle horizon() const { return horizon_; }

private:
    static constexpr uint32_t kNil = UINT32_MAX;
    struct Node {
        T item;
        uint32_t next;
    };
    struct Bucket {  // a FIFO list of nodes
        uint32_t head = kNil;
        uint32_t tail = kNil;
    };

    uint32_t new_node(T&& item) {
        if (free_ == kNil) {
            nodes_.push_back({std::move(item), kNil});
            return static_cast<uint32_t>(nodes_.size() - 1);
        }
        const uint32_t n = free_;
        free_ = nodes_[n].next;
        nodes_[n] = {std::move(item), kNil};
        return n;
    }
    void arm(Cycle c) {
        armed_ = c;
        sim_.events().schedule(event_, clock_.cycle_to_tick(c));
    }
    // The earliest pending cycle, given that none is before `from` (nor, then, beyond
    // from + mask_). The queue must not be empty.
    Cycle next_pending(Cycle from) const {
        const Cycle pos = from & mask_;
        const size_t words = occupied_.size();
        size_t w = pos / 64;
        uint64_t bits = occupied_[w] & (~uint64_t{0} << (pos & 63));
        while (bits == 0) {
            w = (w + 1) & (words - 1);
            bits = occupied_[w];
        }
        const Cycle slot = w * 64 + static_cast<Cycle>(std::countr_zero(bits));
        return from + ((slot - pos) & mask_);
    }
    // Hands out the items of the armed cycle, including those pushed for it meanwhile.
    void fire() {
        const Cycle c = armed_;
        Bucket& b = buckets_[c & mask_];  // buckets_ never grows: the reference holds
        while (b.head != kNil) {
            const uint32_t n = b.head;
            b.head = nodes_[n].next;
            if (b.head == kNil) {
                b.tail = kNil;
                occupied_[(c & mask_) / 64] &= ~(uint64_t{1} << (c & 63));
            }
            T item = std::move(nodes_[n].item);
            nodes_[n].next = free_;
            free_ = n;
            --size_;
            handler_(item);  // may push more items, and grow nodes_
        }
        if (size_ > 0 && !event_.scheduled()) arm(next_pending(c + 1));
    }
    [[noreturn]] void beyond_horizon(Cycle cycle, Cycle first) const {
        throw SimError(fmt::format("{}: item for cycle {} pushed at the edge of cycle {}, outside its {}-cycle horizon",
                                   event_.name(), cycle, first, horizon_));
    }

    Simulator& sim_;
    const ClockDomain& clock_;
    Cycle horizon_;
    Cycle mask_;                    // buckets - 1 (a power of two less one)
    std::vector<Bucket> buckets_;   // bucket of cycle c: c & mask_
    std::vector<uint64_t> occupied_;  // one bit per non-empty bucket
    std::vector<Node> nodes_;       // items of every bucket, and the free list
    uint32_t free_ = kNil;
    size_t size_ = 0;
    Cycle armed_ = 0;  // the cycle the event is scheduled at, while it is
    Handler handler_;
    MemberEvent<CycleCalendar, &CycleCalendar::fire> event_;
};

}  // namespace zng
