// Which addresses lie in a workload's arrays (the device allocations its trace header
// declares). Arrays sorted by base, each carrying the largest last byte of itself and all
// arrays before it, answer "some array starts at or before the range's last byte and ends
// at or after its first byte" with one binary search. Inclusive bounds keep the topmost
// byte of the address space representable.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace zng::trace {

// Last byte of [base, base + size), size > 0, saturating at the top of the address space.
inline uint64_t last_byte_of(uint64_t base, uint64_t size) {
    return base + (size - 1) < base ? ~uint64_t(0) : base + (size - 1);
}

class ArrayIndex {
public:
    ArrayIndex() = default;
    // `arrays`: any range of items with `base` and `size` (bytes); empty arrays are skipped.
    template <class Arrays>
    explicit ArrayIndex(const Arrays& arrays) {
        for (const auto& a : arrays)
            if (a.size != 0) spans_.push_back({a.base, last_byte_of(a.base, a.size)});
        std::sort(spans_.begin(), spans_.end());
        uint64_t running = 0;
        for (auto& s : spans_) running = s.second = std::max(running, s.second);
    }
    bool empty() const { return spans_.empty(); }
    bool overlaps(uint64_t first_byte, uint64_t last_byte) const {
        auto it = std::upper_bound(spans_.begin(), spans_.end(), last_byte,
                                   [](uint64_t v, const std::pair<uint64_t, uint64_t>& s) { return v < s.first; });
        return it != spans_.begin() && std::prev(it)->second >= first_byte;
    }

private:
    std::vector<std::pair<uint64_t, uint64_t>> spans_;  // base, max last byte so far
};

}  // namespace zng::trace
