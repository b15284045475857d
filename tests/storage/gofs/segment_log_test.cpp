#include <gtest/gtest.h>

#include "sim/core/errors.hpp"
#include "storage/gofs/segment_log.hpp"

namespace zng::storage::gofs {
namespace {

TEST(GofsSegmentLog, RandomWriteLandsAtTheSmsLogHead) {
    // 10 segments, 2 SMs; one file of 10 blocks fills part of segment 0. Free segments
    // 1..9 are dealt round-robin: SM 0 gets 1,3,5,7,9, SM 1 gets 2,4,6,8.
    SegmentLog log({.segments = 10, .blocks_per_segment = 512, .sms = 2, .gc_threshold = 0.05});
    log.format(1, 10);
    EXPECT_EQ(log.lookup(0, 7), 7u);
    EXPECT_EQ(log.valid(0), 10u);
    // Block 7 written from SM 1 goes to the head of SM 1's first segment, 2: 2*512.
    EXPECT_EQ(log.write(1, 0, 7), 1024u);
    EXPECT_EQ(log.lookup(0, 7), 1024u);
    EXPECT_EQ(log.valid(0), 9u);  // the old copy is invalid
    // The next write from SM 1, to an earlier block, is appended after it.
    EXPECT_EQ(log.write(1, 0, 3), 1025u);
    // SM 0 appends into its own segment 1.
    EXPECT_EQ(log.write(0, 0, 9), 512u);
    EXPECT_EQ(log.valid(2), 2u);
    EXPECT_EQ(log.free_segments(), 7u);
}

TEST(GofsSegmentLog, ForegroundGcPicksTheSegmentWithFewestValidBlocks) {
    // 40 segments of 512 blocks, 1 SM; GC keeps ceil(5% of 40) = 2 segments free.
    // One file of 38 segments fills 0..37; 38 and 39 are free.
    SegmentLog log({.segments = 40, .blocks_per_segment = 512, .sms = 1, .gc_threshold = 0.05});
    log.format(1, 38 * 512);
    // 412 overwrites of segment 5's blocks and 100 of segment 9's fill segment 38
    // (taking it leaves 1 free, below the floor; GC runs at the next segment taken).
    for (uint32_t k = 0; k < 412; ++k) log.write(0, 0, 5 * 512 + k);
    for (uint32_t k = 0; k < 100; ++k) log.write(0, 0, 9 * 512 + k);
    EXPECT_EQ(log.valid(5), 100u);
    EXPECT_EQ(log.valid(9), 412u);
    EXPECT_EQ(log.gc_runs(), 0u);
    // The next write needs a segment: GC takes segment 5 (100 valid) first, moving its
    // blocks into the GC's segment 39; still 1 free, so segment 9 (412 valid) follows,
    // its blocks fill the rest of 39 exactly (100 + 412 = 512). Two free: done.
    const uint32_t b = log.write(0, 0, 20 * 512);
    EXPECT_EQ(log.gc_runs(), 2u);
    ASSERT_EQ(log.trims().size(), 2u);
    EXPECT_EQ(log.trims()[0], 5u);
    EXPECT_EQ(log.trims()[1], 9u);
    EXPECT_EQ(log.gc_moves().size(), 512u);
    EXPECT_EQ(log.gc_moves().front().from, 5u * 512 + 412);  // segment 5's first valid block
    EXPECT_EQ(log.gc_moves().front().to, 39u * 512);
    EXPECT_EQ(log.valid(39), 512u);
    // The write itself lands at the head of the first reclaimed segment.
    EXPECT_EQ(b, 5u * 512);
    EXPECT_EQ(log.lookup(0, 5 * 512 + 412), 39u * 512);
    EXPECT_EQ(log.free_segments(), 1u);
}

TEST(GofsSegmentLog, AFullFileSystemIsAnError) {
    // 2 segments of 4 blocks, 7 blocks of files: format must leave a free segment.
    SegmentLog log({.segments = 2, .blocks_per_segment = 4, .sms = 1, .gc_threshold = 0.05});
    EXPECT_THROW(log.format(1, 7), SimError);
}

}  // namespace
}  // namespace zng::storage::gofs
