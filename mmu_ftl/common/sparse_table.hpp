// A table indexed by a dense integer key whose storage is allocated on first write:
// memory grows with the keys touched, not with the key space configured (a 1.5 TB flash
// array has 4e8 pages; a mistyped geometry may have 1e12). Lookups of untouched keys
// return the fill value without allocating. Three levels, the shape of a page table:
// a top directory of size / 2^(2 x LeafBits) entries, middle directories of 2^LeafBits
// leaf pointers and leaves of 2^LeafBits entries, the last two made on first write.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/errors.hpp"

namespace zng::ftl {

template <class T, unsigned LeafBits = 12>
class SparseTable {
public:
    static constexpr uint64_t kLeafEntries = uint64_t{1} << LeafBits;
    static constexpr unsigned kMidShift = 2 * LeafBits;

    SparseTable(uint64_t size, T fill) : size_(size), fill_(fill) {
        top_.resize((size + (uint64_t{1} << kMidShift) - 1) >> kMidShift);
    }
    uint64_t size() const { return size_; }
    uint64_t leaves_allocated() const { return leaves_; }

    T get(uint64_t key) const { return peek(key); }
    // Reference for reading: the fill value for an untouched key, without allocating.
    const T& peek(uint64_t key) const {
        check(key);
        const auto& mid = top_[key >> kMidShift];
        if (!mid) return fill_;
        const auto& leaf = (*mid)[(key >> LeafBits) & (kLeafEntries - 1)];
        return leaf ? leaf[key & (kLeafEntries - 1)] : fill_;
    }
    // Reference for writing; allocates the leaf on first use.
    T& at(uint64_t key) {
        check(key);
        auto& mid = top_[key >> kMidShift];
        if (!mid) mid = std::make_unique<Mid>();
        auto& leaf = (*mid)[(key >> LeafBits) & (kLeafEntries - 1)];
        if (!leaf) {
            leaf = std::make_unique<T[]>(kLeafEntries);
            for (uint64_t i = 0; i < kLeafEntries; ++i) leaf[i] = fill_;
            ++leaves_;
        }
        return leaf[key & (kLeafEntries - 1)];
    }
    void set(uint64_t key, T v) { at(key) = v; }

    // Visits the stored entries (of allocated leaves) in key order: f(key, value). Every
    // other key holds the fill value; there are `size() - stored()` of them.
    template <class F>
    void for_each_stored(F&& f) const {
        for (uint64_t t = 0; t < top_.size(); ++t) {
            if (!top_[t]) continue;
            for (uint64_t l = 0; l < kLeafEntries; ++l) {
                const auto& leaf = (*top_[t])[l];
                if (!leaf) continue;
                const uint64_t first = (t << kMidShift) | (l << LeafBits), end = std::min(size_, first + kLeafEntries);
                for (uint64_t k = first; k < end; ++k) f(k, leaf[k - first]);
            }
        }
    }
    uint64_t stored() const {
        uint64_t n = 0;
        for (uint64_t t = 0; t < top_.size(); ++t) {
            if (!top_[t]) continue;
            for (uint64_t l = 0; l < kLeafEntries; ++l) {
                if (!(*top_[t])[l]) continue;
                const uint64_t first = (t << kMidShift) | (l << LeafBits);
                n += std::min(size_, first + kLeafEntries) - first;
            }
        }
        return n;
    }
    const T& fill() const { return fill_; }

    // Bytes allocated before any key is written (the top directory), for memory estimates.
    static uint64_t upfront_bytes(uint64_t size) {
        return ((size + (uint64_t{1} << kMidShift) - 1) >> kMidShift) * sizeof(std::unique_ptr<Mid>);
    }

private:
    using Mid = std::array<std::unique_ptr<T[]>, kLeafEntries>;
    void check(uint64_t key) const {
        if (key >= size_) throw SimError("SparseTable: key " + std::to_string(key) + " beyond size " + std::to_string(size_));
    }
    uint64_t size_;
    T fill_;
    std::vector<std::unique_ptr<Mid>> top_;
    uint64_t leaves_ = 0;
};

}  // namespace zng::ftl
