// A two-level table indexed by a dense integer key whose leaves are allocated on first
// write: memory grows with the keys touched, not with the key space configured (a
// 1.5 TB flash array has 4e8 pages). Lookups of untouched keys return the fill value
// without allocating. This is the shape of a two-level page table.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/errors.hpp"

namespace zng {

template <class T, unsigned LeafBits = 12>
class SparseTable {
public:
    static constexpr uint64_t kLeafEntries = uint64_t{1} << LeafBits;

    SparseTable(uint64_t size, T fill) : size_(size), fill_(fill) {
        dir_.resize((size + kLeafEntries - 1) >> LeafBits);
    }
    uint64_t size() const { return size_; }
    uint64_t leaves_allocated() const { return leaves_; }

    T get(uint64_t key) const {
        check(key);
        const auto& leaf = dir_[key >> LeafBits];
        return leaf ? leaf[key & (kLeafEntries - 1)] : fill_;
    }
    // Reference for writing; allocates the leaf on first use.
    T& at(uint64_t key) {
        check(key);
        auto& leaf = dir_[key >> LeafBits];
        if (!leaf) {
            leaf = std::make_unique<T[]>(kLeafEntries);
            for (uint64_t i = 0; i < kLeafEntries; ++i) leaf[i] = fill_;
            ++leaves_;
        }
        return leaf[key & (kLeafEntries - 1)];
    }
    void set(uint64_t key, T v) { at(key) = v; }

private:
    void check(uint64_t key) const {
        if (key >= size_) throw SimError("SparseTable: key " + std::to_string(key) + " beyond size " + std::to_string(size_));
    }
    uint64_t size_;
    T fill_;
    std::vector<std::unique_ptr<T[]>> dir_;
    uint64_t leaves_ = 0;
};

}  // namespace zng
