// The index of lines in unit fetches against std::map (an independent implementation)
// on random windows of units put and lines installed one by one, and the record
// recycling it relies on, counted by hand.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "gpu_model/l2/unit_line_index.hpp"
#include "sim/core/errors.hpp"

namespace zng::gpu {
namespace {

TEST(UnitLineIndex, MatchesAReferenceMapOverUnitWindows) {
    constexpr uint32_t kUnits = 6;
    UnitLineIndex idx(kUnits);
    std::map<uint64_t, uint32_t> ref;
    std::vector<std::vector<uint64_t>> in_unit(kUnits);  // lines still to install, per unit
    std::mt19937_64 rng(23);
    for (int i = 0; i < 40000; ++i) {
        const uint32_t u = static_cast<uint32_t>(rng() % kUnits);
        if (in_unit[u].empty()) {
            // A new window of 1 to 64 lines, aligned to its power-of-two size or not,
            // in a few pages so that units share blocks; lines other units bring are skipped.
            const uint32_t lines = 1u << (rng() % 7);
            const uint64_t first = (rng() % 24) * 32 + (rng() % 2 ? 0 : rng() % 32);
            for (uint64_t l = first; l < first + lines; ++l) {
                if (ref.count(l)) {
                    EXPECT_TRUE(idx.contains(l));
                    continue;
                }
                EXPECT_FALSE(idx.contains(l));
                idx.put(l, u);
                ref[l] = u;
                in_unit[u].push_back(l);
            }
        } else {
            const size_t k = rng() % in_unit[u].size();
            const uint64_t l = in_unit[u][k];
            in_unit[u].erase(in_unit[u].begin() + static_cast<std::ptrdiff_t>(k));
            EXPECT_EQ(idx.unit_of(l), u);
            idx.erase(l);
            ref.erase(l);
            EXPECT_FALSE(idx.contains(l));
        }
        ASSERT_EQ(idx.size(), ref.size());
        const uint64_t probe = rng() % (25 * 32);
        auto it = ref.find(probe);
        EXPECT_EQ(idx.unit_of(probe), it == ref.end() ? UnitLineIndex::kNone : it->second) << probe;
    }
}

TEST(UnitLineIndex, RecordsOfEmptiedBlocksAreReused) {
    // One unit: two records (a window may straddle two 64-line blocks).
    UnitLineIndex idx(1);
    idx.put(63, 0);
    idx.put(64, 0);  // lines 63 and 64: blocks 0 and 1, both records taken
    EXPECT_THROW(idx.put(128, 0), SimError);
    idx.erase(63);
    idx.erase(63);  // absent: no effect
    EXPECT_EQ(idx.size(), 1u);
    idx.put(200, 0);  // block 3 takes block 0's record
    EXPECT_EQ(idx.unit_of(200), 0u);
    EXPECT_EQ(idx.unit_of(63), UnitLineIndex::kNone);
    EXPECT_EQ(idx.unit_of(64), 0u);
}

}  // namespace
}  // namespace zng::gpu
