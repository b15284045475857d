// LineMarks: the prefetch and accessed bits of L2 lines, one byte per line in (set, way)
// order. Each mark is set and cleared on its own, and neighbouring lines and sets do not
// share bits.
#include <gtest/gtest.h>

#include "gpu_model/l2/line_marks.hpp"

namespace zng::gpu {
namespace {

TEST(LineMarks, EachBitIsSetAndClearedOnItsOwn) {
    LineMarks m;
    EXPECT_EQ(m.bits, 0u);  // a fresh line: not prefetched, not accessed
    m.set(LineMarks::kPrefetched);
    m.set(LineMarks::kUnusedPrefetch);
    EXPECT_TRUE(m.prefetched());
    EXPECT_FALSE(m.accessed());
    EXPECT_TRUE(m.unused_prefetch());
    EXPECT_EQ(m.bits, 1u + 4u);  // kPrefetched (1) | kUnusedPrefetch (4)
    m.clear(LineMarks::kUnusedPrefetch);
    m.set(LineMarks::kAccessed);
    EXPECT_EQ(m.bits, 1u + 2u);  // kPrefetched (1) | kAccessed (2)
    m.assign(LineMarks::kPrefetched, false);  // a demand fill of a line already valid
    EXPECT_FALSE(m.prefetched());
    EXPECT_TRUE(m.accessed());
    m.assign(LineMarks::kPrefetched, true);
    EXPECT_EQ(m.bits, 3u);
}

TEST(LineMarks, ArrayKeepsOneByteForEveryWayOfEverySet) {
    static_assert(sizeof(LineMarks) == 1);
    LineMarksArray a(3, 4);  // 3 sets x 4 ways: 12 lines
    for (uint32_t s = 0; s < 3; ++s)
        for (uint32_t w = 0; w < 4; ++w) EXPECT_EQ(a.at(s, w).bits, 0u) << s << " " << w;
    a.at(1, 2).set(LineMarks::kAccessed);
    a.at(2, 0).set(LineMarks::kPrefetched);
    // (set 1, way 2) is line 1 x 4 + 2 = 6 and (set 2, way 0) line 8: byte 6 and byte 8
    // from (set 0, way 0), with line 7 between them untouched.
    EXPECT_EQ(&a.at(1, 2) - &a.at(0, 0), 6);
    EXPECT_EQ(&a.at(2, 0) - &a.at(0, 0), 8);
    EXPECT_TRUE(a.at(1, 2).accessed());
    EXPECT_FALSE(a.at(1, 2).prefetched());
    EXPECT_EQ(a.at(1, 3).bits, 0u);
    EXPECT_TRUE(a.at(2, 0).prefetched());
    EXPECT_EQ(a.at(1, 1).bits, 0u);
    a.at(1, 2) = {};  // a fresh install clears every mark
    EXPECT_EQ(a.at(1, 2).bits, 0u);
}

TEST(LineMarks, WaysWithABitAreThoseOfTheirSetOnly) {
    LineMarksArray a(2, 8);  // 2 sets x 8 ways
    a.at(0, 1).set(LineMarks::kPinned);
    a.at(0, 6).set(LineMarks::kPinned);
    a.at(0, 6).set(LineMarks::kAccessed);
    a.at(0, 3).set(LineMarks::kAccessed);
    a.at(1, 0).set(LineMarks::kPinned);  // the next set's way 0 is not set 0's
    // Set 0: pinned ways 1 and 6 -> 0b0100'0010 = 0x42; accessed ways 3 and 6 -> 0x48.
    EXPECT_EQ(a.ways_with(0, LineMarks::kPinned), 0x42u);
    EXPECT_EQ(a.ways_with(0, LineMarks::kAccessed), 0x48u);
    EXPECT_EQ(a.ways_with(0, LineMarks::kPrefetched), 0u);
    EXPECT_EQ(a.ways_with(1, LineMarks::kPinned), 0x1u);
    a.at(0, 6) = {};  // invalidated: its marks clear, so it is no longer pinned
    EXPECT_EQ(a.ways_with(0, LineMarks::kPinned), 0x2u);
    EXPECT_TRUE(a.at(0, 1).pinned());
}

}  // namespace
}  // namespace zng::gpu
