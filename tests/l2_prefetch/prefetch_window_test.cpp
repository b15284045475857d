// Prefetch windows inside a 4 KB page of 128 B lines (32 lines), computed by hand:
// the unit-aligned chunk holding the miss, shifted back when it would cross the page.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <set>

#include "gpu_model/l2/prefetch/line_address_set.hpp"
#include "gpu_model/l2/prefetch/prefetch_window.hpp"

namespace zng::gpu {
namespace {

TEST(PrefetchWindow, StaysInsideTheMissedPage) {
    // 4 KB unit: the whole page 3 (lines 96..127) whatever line missed.
    LineWindow w = prefetch_window(3 * 4096 + 2000, 4096, 128, 4096);
    EXPECT_EQ(w.first_line, 96u);
    EXPECT_EQ(w.lines, 32u);
    // 1 KB unit (8 lines): miss at line 13 of page 0 -> chunk 8..15.
    w = prefetch_window(13 * 128 + 5, 1024, 128, 4096);
    EXPECT_EQ(w.first_line, 8u);
    EXPECT_EQ(w.lines, 8u);
    // 3 KB unit (24 lines): miss at line 28 -> chunk 24..47 crosses the page: 8..31.
    w = prefetch_window(28 * 128, 3072, 128, 4096);
    EXPECT_EQ(w.first_line, 8u);
    EXPECT_EQ(w.lines, 24u);
    // 3 KB unit, miss at line 5 -> chunk 0..23.
    w = prefetch_window(5 * 128, 3072, 128, 4096);
    EXPECT_EQ(w.first_line, 0u);
    // A unit larger than the page is cut to the page; a unit below a line is one line.
    w = prefetch_window(4096 + 128, 16384, 128, 4096);
    EXPECT_EQ(w.first_line, 32u);
    EXPECT_EQ(w.lines, 32u);
    w = prefetch_window(4096 + 128, 64, 128, 4096);
    EXPECT_EQ(w.first_line, 33u);
    EXPECT_EQ(w.lines, 1u);
}

// Against std::set on a random sequence of inserts and erases (the reference is an
// independent implementation); a small capacity makes long probe runs and wrap-around.
TEST(LineAddressSet, MatchesAReferenceSet) {
    LineAddressSet s(64);
    std::set<uint64_t> ref;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 20000; ++i) {
        uint64_t key = rng() % 200;
        if (rng() % 2 && ref.size() < 64) {
            EXPECT_EQ(s.insert(key), ref.insert(key).second);
        } else {
            EXPECT_EQ(s.erase(key), ref.erase(key) == 1);
        }
        ASSERT_EQ(s.size(), ref.size());
    }
    for (uint64_t k = 0; k < 200; ++k) EXPECT_EQ(s.contains(k), ref.count(k) == 1) << k;
}

TEST(LineAddressSet, RefusesBeyondCapacity) {
    LineAddressSet s(2);
    EXPECT_TRUE(s.insert(1));
    EXPECT_TRUE(s.insert(2));
    EXPECT_FALSE(s.insert(2));
    EXPECT_THROW(s.insert(3), std::length_error);
}

}  // namespace
}  // namespace zng::gpu
