// Open-addressing hash map from 64-bit keys (page numbers) to 64-bit values, for the
// lookups on every page walk (translator mappings, walks in flight). Linear probing in
// one flat array: no node per entry, and it grows (doubling) only with the number of
// pages actually touched. Erase uses backward shifting, so there are no tombstones.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace zng::gpu {

class FlatPageMap {
public:
    explicit FlatPageMap(size_t initial_capacity = 64) { rehash(initial_capacity < 8 ? 8 : initial_capacity); }

    size_t size() const { return size_; }

    // Value of `key`, or nullptr.
    uint64_t* find(uint64_t key) {
        for (size_t i = slot(key);; i = (i + 1) & mask_) {
            Entry& e = slots_[i];
            if (!e.used) return nullptr;
            if (e.key == key) return &e.value;
        }
    }
    // Inserts (key, value) unless present; returns the stored value and whether it was new.
    std::pair<uint64_t*, bool> insert(uint64_t key, uint64_t value) {
        if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
        for (size_t i = slot(key);; i = (i + 1) & mask_) {
            Entry& e = slots_[i];
            if (!e.used) {
                e = Entry{key, value, true};
                ++size_;
                return {&e.value, true};
            }
            if (e.key == key) return {&e.value, false};
        }
    }
    bool erase(uint64_t key) {
        size_t i = slot(key);
        for (;; i = (i + 1) & mask_) {
            if (!slots_[i].used) return false;
            if (slots_[i].key == key) break;
        }
        // Backward-shift the rest of the probe run into the hole.
        size_t hole = i;
        for (size_t j = (i + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
            // j's entry may fill the hole if the hole lies on its probe path (from its
            // home slot to j).
            size_t home = slot(slots_[j].key);
            if (((j - home) & mask_) >= ((j - hole) & mask_)) {
                slots_[hole] = slots_[j];
                hole = j;
            }
        }
        slots_[hole].used = false;
        --size_;
        return true;
    }

private:
    struct Entry {
        uint64_t key = 0;
        uint64_t value = 0;
        bool used = false;
    };
    size_t slot(uint64_t k) const {
        k ^= k >> 33;  // murmur3 finalizer: page numbers are sequential, spread them
        k *= 0xff51afd7ed558ccdull;
        k ^= k >> 33;
        return static_cast<size_t>(k) & mask_;
    }
    void rehash(size_t capacity) {
        size_t cap = 8;
        while (cap < capacity) cap *= 2;
        std::vector<Entry> old;
        old.swap(slots_);
        slots_.assign(cap, Entry{});
        mask_ = cap - 1;
        size_ = 0;
        for (const Entry& e : old)
            if (e.used) insert(e.key, e.value);
    }
    std::vector<Entry> slots_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

}  // namespace zng::gpu
