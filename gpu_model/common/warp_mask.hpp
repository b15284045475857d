// A set of warp slots as a small fixed bitmap: the schedulers' view of which warps can
// issue. Finding the next candidate is a few count-trailing-zeros, not a scan of 80
// warp records.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

namespace zng::gpu {

class WarpMask {
public:
    static constexpr uint32_t kMaxWarps = 256;
    static constexpr uint32_t kNone = ~0u;

    void set(uint32_t i) { w_[i >> 6] |= bit(i); }
    void reset(uint32_t i) { w_[i >> 6] &= ~bit(i); }
    bool test(uint32_t i) const { return (w_[i >> 6] & bit(i)) != 0; }
    bool any() const { return (w_[0] | w_[1] | w_[2] | w_[3]) != 0; }
    uint32_t count() const {
        uint32_t n = 0;
        for (uint64_t x : w_) n += static_cast<uint32_t>(std::popcount(x));
        return n;
    }
    // Smallest member >= from, or kNone.
    uint32_t next(uint32_t from) const {
        if (from >= kMaxWarps) return kNone;
        uint32_t word = from >> 6;
        uint64_t x = w_[word] & (~0ull << (from & 63));
        for (;;) {
            if (x) return (word << 6) + static_cast<uint32_t>(std::countr_zero(x));
            if (++word == kWords) return kNone;
            x = w_[word];
        }
    }
    // Calls f(i) for every member i, in increasing order.
    template <class F>
    void for_each(F&& f) const {
        for (uint32_t k = 0; k < kWords; ++k)
            for (uint64_t x = w_[k]; x; x &= x - 1) f((k << 6) + static_cast<uint32_t>(std::countr_zero(x)));
    }
    // First member at or after `from`, wrapping around; kNone when empty.
    uint32_t next_wrapping(uint32_t from) const {
        uint32_t i = next(from);
        return i != kNone ? i : next(0);
    }

private:
    static constexpr uint32_t kWords = kMaxWarps / 64;
    static uint64_t bit(uint32_t i) { return 1ull << (i & 63); }
    std::array<uint64_t, kWords> w_{};
};

}  // namespace zng::gpu
