// FixedHashMap against std::map on random operations (an independent implementation),
// with a small table so probe runs are long and wrap around the end.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "sim/core/fixed_hash_map.hpp"

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

}  // namespace
}  // namespace zng
