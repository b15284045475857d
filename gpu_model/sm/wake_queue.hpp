// The warps of an SM sleeping until a given cycle (compute latency, shared and constant
// memory latency, a phase's end). Almost every sleep is a few cycles long, so a sleep
// within the next kWindow cycles goes into a ring of per-cycle buckets, found again by a
// bitmap; longer ones, and one for a cycle already drained, go into a min-heap. A binary
// heap alone cost two heap operations per compute instruction. Which warps wake at a
// cycle is all the SM asks; their order within it is not kept (the SM only marks them
// ready).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "sim/core/tick.hpp"

namespace zng::gpu {

class WakeQueue {
public:
    static constexpr uint32_t kWindow = 64;

    bool empty() const { return occupied_ == 0 && far_.empty(); }

    void add(Cycle until, uint32_t slot) {
        if (until >= next_ && until - next_ < kWindow) {
            buckets_[until % kWindow].push_back(slot);
            occupied_ |= uint64_t{1} << (until % kWindow);
        } else {
            far_.emplace_back(until, slot);
            std::push_heap(far_.begin(), far_.end(), std::greater<>());
        }
    }

    // The earliest cycle a warp sleeps until; the queue must not be empty.
    Cycle earliest() const {
        Cycle e = far_.empty() ? ~Cycle{0} : far_.front().first;
        if (occupied_) {
            // Bucket b holds cycle next_ + ((b - next_) mod kWindow): rotate next_'s bucket to bit 0.
            const uint32_t start = static_cast<uint32_t>(next_ % kWindow);
            e = std::min(e, next_ + static_cast<Cycle>(std::countr_zero(std::rotr(occupied_, static_cast<int>(start)))));
        }
        return e;
    }

    // Calls wake(slot) for every warp sleeping until `cycle` or earlier and forgets them;
    // later adds for cycles up to `cycle` go to the heap.
    template <class F>
    void wake_due(Cycle cycle, F&& wake) {
        while (!far_.empty() && far_.front().first <= cycle) {
            const uint32_t slot = far_.front().second;
            std::pop_heap(far_.begin(), far_.end(), std::greater<>());
            far_.pop_back();
            wake(slot);
        }
        if (cycle < next_) return;
        // The buckets of cycles next_ .. cycle (all of them when cycle is a window or more ahead).
        uint64_t due = ~uint64_t{0};
        if (cycle - next_ < kWindow - 1) {
            const uint64_t span = (uint64_t{1} << (cycle - next_ + 1)) - 1;
            due = std::rotl(span, static_cast<int>(next_ % kWindow));
        }
        for (uint64_t m = occupied_ & due; m; m &= m - 1) {
            std::vector<uint32_t>& b = buckets_[std::countr_zero(m)];
            for (uint32_t slot : b) wake(slot);
            b.clear();
        }
        occupied_ &= ~due;
        next_ = cycle + 1;
    }

private:
    std::array<std::vector<uint32_t>, kWindow> buckets_;
    uint64_t occupied_ = 0;  // bit b: bucket b holds a warp
    Cycle next_ = 0;         // the earliest cycle not yet drained; the ring covers [next_, next_ + kWindow)
    std::vector<std::pair<Cycle, uint32_t>> far_;  // min-heap of (cycle, slot)
};

}  // namespace zng::gpu
