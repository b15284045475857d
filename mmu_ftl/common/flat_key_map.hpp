// Open-addressing hash map from 64-bit keys to 32-bit values. Unlike std::unordered_map
// it does not allocate a node per insert: the table doubles when half full, so the
// allocations are amortised and stop once the working set is reached (memory grows
// with what is touched). Linear probing with backward-shift deletion, so no tombstones
// accumulate.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/errors.hpp"

namespace zng {

class FlatKeyMap {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    explicit FlatKeyMap(uint64_t initial_capacity = 1024) {
        uint64_t cap = 16;
        while (cap < initial_capacity) cap <<= 1;
        keys_.assign(cap, kEmpty);
        vals_.assign(cap, kNone);
        mask_ = cap - 1;
    }
    uint64_t size() const { return size_; }

    uint32_t find(uint64_t key) const {
        for (uint64_t i = slot(key);; i = (i + 1) & mask_) {
            if (keys_[i] == key) return vals_[i];
            if (keys_[i] == kEmpty) return kNone;
        }
    }
    void insert(uint64_t key, uint32_t value) {
        if (key == kEmpty) throw SimError("FlatKeyMap: reserved key");
        for (uint64_t i = slot(key);; i = (i + 1) & mask_) {
            if (keys_[i] == key) {
                vals_[i] = value;
                return;
            }
            if (keys_[i] == kEmpty) {
                if (2 * (size_ + 1) > keys_.size()) {  // load factor <= 1/2 keeps probes short
                    grow();
                    insert(key, value);
                    return;
                }
                keys_[i] = key;
                vals_[i] = value;
                ++size_;
                return;
            }
        }
    }
    bool erase(uint64_t key) {
        uint64_t i = slot(key);
        for (;; i = (i + 1) & mask_) {
            if (keys_[i] == key) break;
            if (keys_[i] == kEmpty) return false;
        }
        // Backward shift: move later members of the probe run into the hole.
        uint64_t hole = i;
        for (uint64_t j = (i + 1) & mask_; keys_[j] != kEmpty; j = (j + 1) & mask_) {
            uint64_t home = slot(keys_[j]);
            bool movable = (j > hole) ? (home <= hole || home > j) : (home <= hole && home > j);
            if (movable) {
                keys_[hole] = keys_[j];
                vals_[hole] = vals_[j];
                hole = j;
            }
        }
        keys_[hole] = kEmpty;
        vals_[hole] = kNone;
        --size_;
        return true;
    }

private:
    static constexpr uint64_t kEmpty = UINT64_MAX;
    void grow() {
        std::vector<uint64_t> keys(keys_.size() * 2, kEmpty);
        std::vector<uint32_t> vals(keys_.size() * 2, kNone);
        keys.swap(keys_);
        vals.swap(vals_);
        mask_ = keys_.size() - 1;
        size_ = 0;
        for (size_t i = 0; i < keys.size(); ++i)
            if (keys[i] != kEmpty) insert(keys[i], vals[i]);
    }
    uint64_t slot(uint64_t key) const {
        key ^= key >> 33;  // splitmix-style finaliser: page numbers are sequential
        key *= 0xff51afd7ed558ccdULL;
        key ^= key >> 33;
        return key & mask_;
    }
    std::vector<uint64_t> keys_;
    std::vector<uint32_t> vals_;
    uint64_t mask_ = 0, size_ = 0;
};

}  // namespace zng
