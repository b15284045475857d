// Prefetch windows inside a 4 KB page of 128 B lines (32 lines), computed by hand:
// the unit-aligned chunk holding the miss, shifted back when it would cross the page.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace zng::gpu
