// The warps of an SM sleeping until a given cycle (compute latency, shared and constant
// memory latency, a polling warp's next poll, a phase's end). A sleep within the next
// kWindow cycles goes into a ring of per-cycle buckets, found again by a two-level
// bitmap (a word per 64 buckets, a summary bit per word); longer ones, and one for a
// cycle already drained, go into a min-heap. A binary heap alone cost two heap
// operations per compute instruction; a 64-cycle ring still sent every BaM poll (one
// poll interval, 425 ns = 510 cycles at 1.2 GHz) through the heap, whose pops took a
// fifth of a polling run's instructions. Which warps wake at a cycle is all the SM asks;
// their order within it is not kept (the SM only marks them ready), so a bucket is a list
// threaded through a per-slot link: a warp sleeps in at most one bucket at a time.
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
    static constexpr uint32_t kWindow = 1024;  // cycles: a power of two, 64 buckets a word
    static constexpr uint32_t kWords = kWindow / 64;
    static_assert(kWords < 32, "the summary is one 32-bit word, with a bit to spare for shifts");

    // Warp slots 0 .. slots - 1.
    explicit WakeQueue(uint32_t slots) : link_(slots, kNone) { head_.fill(kNone); }

    bool empty() const { return summary_ == 0 && far_.empty(); }

    // `slot` is not sleeping already.
    void add(Cycle until, uint32_t slot) {
        if (until >= next_ && until - next_ < kWindow) {
            const uint32_t b = static_cast<uint32_t>(until % kWindow);
            link_[slot] = head_[b];
            head_[b] = slot;
            words_[b / 64] |= uint64_t{1} << (b % 64);
            summary_ |= 1u << (b / 64);
        } else {
            far_.emplace_back(until, slot);
            std::push_heap(far_.begin(), far_.end(), std::greater<>());
        }
    }

    // The earliest cycle a warp sleeps until; the queue must not be empty.
    Cycle earliest() const {
        Cycle e = far_.empty() ? ~Cycle{0} : far_.front().first;
        if (summary_) e = std::min(e, next_ + first_occupied_offset());
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
        const uint32_t first = static_cast<uint32_t>(next_ % kWindow);
        const uint32_t last = static_cast<uint32_t>(cycle % kWindow);
        if (cycle == next_) {
            // A busy SM ticks every cycle: one bucket.
            wake_word(first / 64, uint64_t{1} << (first % 64), wake);
        } else if (cycle - next_ < 64 && first / 64 == last / 64 && first <= last) {
            wake_word(first / 64, (~uint64_t{0} << (first % 64)) & (~uint64_t{0} >> (63 - last % 64)), wake);
        } else if (cycle - next_ >= kWindow - 1) {
            wake_buckets(0, kWindow - 1, wake);
        } else if (first <= last) {
            wake_buckets(first, last, wake);
        } else {
            wake_buckets(first, kWindow - 1, wake);
            wake_buckets(0, last, wake);
        }
        next_ = cycle + 1;
    }

private:
    // Buckets from next_'s (bucket b holds cycle next_ + ((b - next_) mod kWindow)) to
    // the first non-empty one; some bucket must be non-empty.
    Cycle first_occupied_offset() const {
        const uint32_t start = static_cast<uint32_t>(next_ % kWindow);
        const uint32_t w0 = start / 64;
        const uint64_t here = words_[w0] & (~uint64_t{0} << (start % 64));
        uint32_t b;
        if (here) {
            b = w0 * 64 + static_cast<uint32_t>(std::countr_zero(here));
        } else {
            // The words after w0, circularly (w0's own low buckets come last, a window on).
            const uint32_t after = rotate_summary(w0 + 1) & ((1u << (kWords - 1)) - 1);
            const uint32_t w = after ? (w0 + 1 + static_cast<uint32_t>(std::countr_zero(after))) % kWords : w0;
            b = w * 64 + static_cast<uint32_t>(std::countr_zero(words_[w]));
        }
        return (b - start) & (kWindow - 1);
    }
    // The summary rotated right by r words (1 <= r <= kWords) within its kWords bits.
    uint32_t rotate_summary(uint32_t r) const {
        return ((summary_ >> r) | (summary_ << (kWords - r))) & ((1u << kWords) - 1);
    }
    // Wakes the warps of buckets first..last (inclusive, first <= last) and empties them.
    template <class F>
    void wake_buckets(uint32_t first, uint32_t last, F& wake) {
        const uint32_t wf = first / 64, wl = last / 64;
        const uint64_t from_first = ~uint64_t{0} << (first % 64), to_last = ~uint64_t{0} >> (63 - last % 64);
        if (wf == wl) {
            wake_word(wf, from_first & to_last, wake);
            return;
        }
        const uint32_t span = ((2u << (wl - wf)) - 1) << wf;
        for (uint32_t ws = summary_ & span; ws; ws &= ws - 1) {
            const uint32_t w = static_cast<uint32_t>(std::countr_zero(ws));
            wake_word(w, w == wf ? from_first : w == wl ? to_last : ~uint64_t{0}, wake);
        }
    }
    // Wakes the warps of word w's buckets in `mask` and empties them.
    template <class F>
    [[gnu::always_inline]] void wake_word(uint32_t w, uint64_t mask, F& wake) {
        uint64_t m = words_[w] & mask;
        if (m == 0) return;
        words_[w] &= ~m;
        if (words_[w] == 0) summary_ &= ~(1u << w);
        for (; m; m &= m - 1) {
            uint32_t& head = head_[w * 64 + static_cast<uint32_t>(std::countr_zero(m))];
            for (uint32_t slot = head; slot != kNone;) {
                const uint32_t next = link_[slot];
                wake(slot);
                slot = next;
            }
            head = kNone;
        }
    }

    static constexpr uint32_t kNone = UINT32_MAX;
    std::array<uint32_t, kWindow> head_;  // per bucket: its first warp slot, or kNone
    std::vector<uint32_t> link_;          // per warp slot: the next slot of its bucket
    std::array<uint64_t, kWords> words_{};  // bit i of word w: bucket 64 w + i holds a warp
    uint32_t summary_ = 0;                  // bit w: words_[w] is not zero
    Cycle next_ = 0;  // the earliest cycle not yet drained; the ring covers [next_, next_ + kWindow)
    std::vector<std::pair<Cycle, uint32_t>> far_;  // min-heap of (cycle, slot)
};

}  // namespace zng::gpu
