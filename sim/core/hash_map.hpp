// The simulator's hash map from 64-bit keys to small values: open addressing in one
// flat array, linear probing, backward-shift deletion (no tombstones), so lookups and
// erases never allocate and no node is allocated per key, unlike std::unordered_map.
// Two growth policies, chosen by the owner:
//   - FixedHashMap: the capacity is fixed at construction and a new key beyond it is an
//     error, so inserts never allocate either (flash registers by page, recently
//     evicted pages, MSHR entries by line, pending event ticks);
//   - GrowingHashMap: the table doubles when a new key finds it full, so memory follows
//     what a run touches and the allocations stop once the working set is reached
//     (translator mappings, page walks and faults in flight, FTL tables).
// Both keep at most half of the table used, so probe runs stay short. Maps are never
// iterated: the probe order (and thus the hash) cannot change a result.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace zng {

enum class HashMapGrowth { Fixed, Doubling };

template <class V, HashMapGrowth Growth>
class HashMap {
public:
    // Holds `capacity` keys before it is full (Fixed) or grows (Doubling); the table
    // is at least twice that, a power of two, and at least 8 slots.
    explicit HashMap(uint64_t capacity) { allocate(capacity); }

    // Bytes the table of a map of `capacity` keys takes (memory estimates before building).
    static uint64_t table_bytes(uint64_t capacity) { return slot_count(capacity) * sizeof(Slot); }

    // Inserts or overwrites. A new key that finds the map full throws std::length_error
    // (Fixed) or doubles the table (Doubling; pointers from get() are then invalid).
    void put(uint64_t key, V value) {
        uint64_t i = home(key);
        for (; slots_[i].used; i = (i + 1) & mask_) {
            if (slots_[i].key == key) {
                slots_[i].value = value;
                return;
            }
        }
        if (size_ == capacity_) {
            if constexpr (Growth == HashMapGrowth::Fixed) {
                throw std::length_error("fixed hash map is full");
            } else {
                grow();
                put(key, value);
                return;
            }
        }
        slots_[i] = {key, value, true};
        ++size_;
    }
    // Inserts `key` with `value` unless the map holds it already: false, and no change,
    // when it does. One probe run, where contains() then put() walk it twice.
    bool insert(uint64_t key, V value) {
        const uint64_t size = size_;
        V& v = get_or_insert(key);
        if (size_ == size) return false;
        v = value;
        return true;
    }
    // The value of `key`, inserted as V{} when absent (std::unordered_map's operator[]).
    // Full: as put().
    V& get_or_insert(uint64_t key) {
        uint64_t i = home(key);
        for (; slots_[i].used; i = (i + 1) & mask_)
            if (slots_[i].key == key) return slots_[i].value;
        if (size_ == capacity_) {
            if constexpr (Growth == HashMapGrowth::Fixed) {
                throw std::length_error("fixed hash map is full");
            } else {
                grow();
                return get_or_insert(key);
            }
        }
        slots_[i] = {key, V{}, true};
        ++size_;
        return slots_[i].value;
    }
    // The value of `key`, or null.
    const V* get(uint64_t key) const {
        const uint64_t i = find(key);
        return i == kAbsent ? nullptr : &slots_[i].value;
    }
    V* get(uint64_t key) {
        const uint64_t i = find(key);
        return i == kAbsent ? nullptr : &slots_[i].value;
    }
    bool contains(uint64_t key) const { return find(key) != kAbsent; }
    // False when absent.
    bool erase(uint64_t key) {
        uint64_t hole = find(key);
        if (hole == kAbsent) return false;
        // Pull later members of the probe run into the hole unless their home slot lies
        // cyclically in (hole, j]: lookups then never meet a gap inside a run.
        for (uint64_t j = (hole + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
            const uint64_t h = home(slots_[j].key);
            const bool movable = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
            if (movable) {
                slots_[hole] = slots_[j];
                hole = j;
            }
        }
        slots_[hole] = Slot{};
        --size_;
        return true;
    }
    void clear() {
        std::fill(slots_.begin(), slots_.end(), Slot{});
        size_ = 0;
    }
    uint64_t size() const { return size_; }
    // Keys held before the map is full (Fixed) or next grows (Doubling).
    uint64_t capacity() const { return capacity_; }

private:
    static uint64_t slot_count(uint64_t capacity) { return std::bit_ceil(std::max<uint64_t>(capacity * 2, 8)); }
    struct Slot {
        uint64_t key = 0;
        V value{};
        bool used = false;
    };
    static constexpr uint64_t kAbsent = ~0ull;
    void allocate(uint64_t capacity) {
        const uint64_t n = slot_count(capacity);
        slots_.assign(n, Slot{});
        mask_ = n - 1;
        shift_ = static_cast<uint32_t>(64 - std::countr_zero(n));
        // A growing map uses the whole half-table its size rounds up to.
        capacity_ = Growth == HashMapGrowth::Fixed ? capacity : n / 2;
        size_ = 0;
    }
    void grow() {
        std::vector<Slot> old;
        old.swap(slots_);
        allocate(capacity_ * 2);
        for (const Slot& s : old)
            if (s.used) put(s.key, s.value);
    }
    // Fibonacci hashing: keys that differ only in high or low bits still spread.
    uint64_t home(uint64_t key) const { return (key * 0x9e3779b97f4a7c15ull) >> shift_; }
    uint64_t find(uint64_t key) const {
        for (uint64_t i = home(key);; i = (i + 1) & mask_) {
            if (!slots_[i].used) return kAbsent;
            if (slots_[i].key == key) return i;
        }
    }

    std::vector<Slot> slots_;
    uint64_t mask_ = 0;
    uint32_t shift_ = 0;
    uint64_t capacity_ = 0;
    uint64_t size_ = 0;
};

template <class V>
using FixedHashMap = HashMap<V, HashMapGrowth::Fixed>;
template <class V>
using GrowingHashMap = HashMap<V, HashMapGrowth::Doubling>;

}  // namespace zng
