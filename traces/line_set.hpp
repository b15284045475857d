// Set of 128 B line numbers for footprint counting: open addressing with linear
// probing in one flat array, so memory grows with the footprint and an insert costs
// no allocation (std::unordered_set would allocate a node per line).
#pragma once

#include <cstdint>
#include <vector>

namespace zng::trace {

class LineSet {
public:
    LineSet() : slots_(kInitialSlots, kEmpty) {}

    // Line numbers are addresses / 128 < 2^57, so the all-ones key is never a line.
    static constexpr uint64_t kEmpty = ~uint64_t(0);

    bool insert(uint64_t line) {
        if ((size_ + 1) * 4 > slots_.size() * 3) grow();
        return place(slots_, line);
    }
    bool contains(uint64_t line) const {
        const uint64_t mask = slots_.size() - 1;
        for (uint64_t i = hash(line) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == line) return true;
            if (slots_[i] == kEmpty) return false;
        }
    }
    uint64_t size() const { return size_; }

    template <typename F>
    void for_each(F&& f) const {
        for (uint64_t v : slots_)
            if (v != kEmpty) f(v);
    }

private:
    static constexpr uint64_t kInitialSlots = 1024;   // a power of two

    static uint64_t hash(uint64_t x) {   // splitmix64 finaliser: neighbouring lines spread out
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    }
    bool place(std::vector<uint64_t>& slots, uint64_t line) {
        const uint64_t mask = slots.size() - 1;
        for (uint64_t i = hash(line) & mask;; i = (i + 1) & mask) {
            if (slots[i] == line) return false;
            if (slots[i] == kEmpty) {
                slots[i] = line;
                ++size_;
                return true;
            }
        }
    }
    void grow() {
        std::vector<uint64_t> bigger(slots_.size() * 2, kEmpty);
        size_ = 0;
        for (uint64_t v : slots_)
            if (v != kEmpty) place(bigger, v);
        slots_.swap(bigger);
    }

    std::vector<uint64_t> slots_;
    uint64_t size_ = 0;
};

}  // namespace zng::trace
