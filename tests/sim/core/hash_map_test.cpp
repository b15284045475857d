// The engine's hash map (both growth policies) against std::map on random operations
// (an independent implementation), with small tables so probe runs are long and wrap
// around the end; and the capacities each policy promises, computed by hand.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "sim/core/hash_map.hpp"

namespace zng {
namespace {

TEST(FixedHashMap, MatchesAReferenceMap) {
    FixedHashMap<uint32_t> m(64);
    std::map<uint64_t, uint32_t> ref;
    std::mt19937_64 rng(11);
    for (int i = 0; i < 50000; ++i) {
        // Keys clustered in few hash homes and spread over the 64-bit range.
        const uint64_t key = (rng() % 300) << (rng() % 2 ? 0 : 40);
        const uint32_t op = static_cast<uint32_t>(rng() % 3);
        if (op == 0 && (ref.size() < 64 || ref.count(key))) {
            const uint32_t v = static_cast<uint32_t>(rng());
            m.put(key, v);
            ref[key] = v;
        } else if (op == 1) {
            EXPECT_EQ(m.erase(key), ref.erase(key) == 1);
        } else {
            const uint32_t* v = m.get(key);
            auto it = ref.find(key);
            ASSERT_EQ(v != nullptr, it != ref.end()) << key;
            if (v) {
                EXPECT_EQ(*v, it->second);
            }
        }
        ASSERT_EQ(m.size(), ref.size());
    }
    for (const auto& [k, v] : ref) EXPECT_EQ(*m.get(k), v);
}

TEST(FixedHashMap, FullMapRefusesNewKeysButUpdatesOldOnes) {
    FixedHashMap<int> m(2);
    m.put(5, 1);
    m.put(6, 2);
    m.put(5, 3);
    EXPECT_EQ(*m.get(5), 3);
    EXPECT_THROW(m.put(7, 4), std::length_error);
    m.clear();
    EXPECT_EQ(m.size(), 0u);
    EXPECT_FALSE(m.contains(5));
}

TEST(GrowingHashMap, MatchesAReferenceMapWhileGrowing) {
    GrowingHashMap<uint64_t> m(4);  // 8 slots: grows many times on the way to ~3300 keys
    std::map<uint64_t, uint64_t> ref;
    std::mt19937_64 rng(5);
    for (int i = 0; i < 200000; ++i) {
        const uint64_t k = rng() % 5000;  // dense keys collide in probe runs
        if (rng() % 3 == 0) {
            EXPECT_EQ(m.erase(k), ref.erase(k) == 1);
        } else {
            m.put(k, static_cast<uint64_t>(i));
            ref[k] = static_cast<uint64_t>(i);
        }
        ASSERT_EQ(m.size(), ref.size());
    }
    for (uint64_t k = 0; k < 5000; ++k) {
        const uint64_t* v = m.get(k);
        auto it = ref.find(k);
        ASSERT_EQ(v != nullptr, it != ref.end()) << k;
        if (v) {
            EXPECT_EQ(*v, it->second);
        }
    }
}

TEST(GrowingHashMap, InsertAndGetOrInsertMatchAReferenceMap) {
    // insert keeps a present key's value; get_or_insert counts like operator[]++.
    GrowingHashMap<uint32_t> m(4);
    std::map<uint64_t, uint32_t> ref;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 100000; ++i) {
        const uint64_t k = rng() % 3000;
        switch (rng() % 3) {
            case 0: EXPECT_EQ(m.erase(k), ref.erase(k) == 1); break;
            case 1: {
                const uint32_t v = static_cast<uint32_t>(rng());
                EXPECT_EQ(m.insert(k, v), ref.emplace(k, v).second) << k;
                break;
            }
            default: EXPECT_EQ(m.get_or_insert(k)++, ref[k]++) << k;
        }
        ASSERT_EQ(m.size(), ref.size());
    }
    for (const auto& [k, v] : ref) EXPECT_EQ(*m.get(k), v);
    FixedHashMap<int> fixed(1);
    EXPECT_TRUE(fixed.insert(1, 5));
    EXPECT_FALSE(fixed.insert(1, 6));
    EXPECT_EQ(fixed.get_or_insert(1), 5);
    EXPECT_THROW(fixed.get_or_insert(2), std::length_error);
    EXPECT_THROW(fixed.insert(2, 1), std::length_error);
}

TEST(HashMap, CapacitiesFollowTheHalfFullTable) {
    // Fixed: the table is bit_ceil(max(2 x 5, 8)) = 16 slots, but the map holds exactly
    // the 5 keys asked for; 16 slots of {key 8 B, int 4 B, flag 1 B, padded} = 16 x 16 B.
    FixedHashMap<int> fixed(5);
    EXPECT_EQ(fixed.capacity(), 5u);
    EXPECT_EQ(FixedHashMap<int>::table_bytes(5), 256u);
    for (uint64_t k = 0; k < 5; ++k) fixed.put(k << 40, 1);
    EXPECT_THROW(fixed.put(99, 1), std::length_error);
    // Growing: 5 keys round up to a 16-slot table, whose half (8 keys) it fills before
    // doubling to 32 slots (16 keys).
    GrowingHashMap<int> growing(5);
    EXPECT_EQ(growing.capacity(), 8u);
    for (uint64_t k = 0; k < 8; ++k) growing.put(k, static_cast<int>(k));
    EXPECT_EQ(growing.capacity(), 8u);
    growing.put(8, 8);
    EXPECT_EQ(growing.capacity(), 16u);
    EXPECT_EQ(growing.size(), 9u);
    for (uint64_t k = 0; k < 9; ++k) EXPECT_EQ(*growing.get(k), static_cast<int>(k));
    // A value can be changed in place through get().
    *growing.get(3) = 30;
    EXPECT_EQ(*growing.get(3), 30);
    EXPECT_EQ(growing.get(100), nullptr);
}

}  // namespace
}  // namespace zng
