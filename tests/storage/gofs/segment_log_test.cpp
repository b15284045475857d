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

TEST(GofsSegmentLog, FormatLaysFilesAcrossSegmentsAndGcMovesTheirBlocksByOwner) {
    // 6 segments of 4 blocks, 1 SM; two files of 5 blocks take log blocks 0-9: segment 0
    // holds file 0's blocks 0-3, segment 1 file 0's block 4 and file 1's 0-2, segment 2
    // file 1's 3-4 (and two unused blocks). Segments 3, 4 and 5 are free.
    SegmentLog log({.segments = 6, .blocks_per_segment = 4, .sms = 1, .gc_threshold = 0.05});
    log.format(2, 5);
    EXPECT_EQ(log.lookup(0, 3), 3u);
    EXPECT_EQ(log.lookup(0, 4), 4u);
    EXPECT_EQ(log.lookup(1, 0), 5u);
    EXPECT_EQ(log.lookup(1, 4), 9u);
    EXPECT_EQ(log.valid(0), 4u);
    EXPECT_EQ(log.valid(1), 4u);
    EXPECT_EQ(log.valid(2), 2u);
    EXPECT_EQ(log.free_segments(), 3u);
    // Into segment 3 (12-15): file 0 block 4, file 1 blocks 0 and 3, file 0 block 4 again.
    EXPECT_EQ(log.write(0, 0, 4), 12u);
    EXPECT_EQ(log.write(0, 1, 0), 13u);
    EXPECT_EQ(log.write(0, 1, 3), 14u);
    EXPECT_EQ(log.write(0, 0, 4), 15u);
    // Into segment 4 (16-19), leaving one free segment: file 0 block 4 four times.
    for (uint32_t b = 16; b < 20; ++b) EXPECT_EQ(log.write(0, 0, 4), b);
    EXPECT_EQ(log.free_segments(), 1u);
    // The next write needs a segment, and GC must keep two free. Full segments: 0 (4
    // valid), 1 (2: file 1 blocks 1-2 at 6-7), 2 (1: file 1 block 4 at 9), 3 (2). GC takes
    // segment 2 into its own segment 5, then segment 1 (the first with fewest valid).
    EXPECT_EQ(log.write(0, 0, 0), 8u);  // at the head of reclaimed segment 2
    EXPECT_EQ(log.gc_runs(), 2u);
    ASSERT_EQ(log.trims().size(), 2u);
    EXPECT_EQ(log.trims()[0], 2u);
    EXPECT_EQ(log.trims()[1], 1u);
    ASSERT_EQ(log.gc_moves().size(), 3u);
    EXPECT_EQ(log.gc_moves()[0].from, 9u);
    EXPECT_EQ(log.gc_moves()[0].to, 20u);
    EXPECT_EQ(log.gc_moves()[1].from, 6u);
    EXPECT_EQ(log.gc_moves()[2].from, 7u);
    // The moved blocks are found under the file and block the format gave them.
    EXPECT_EQ(log.lookup(1, 4), 20u);
    EXPECT_EQ(log.lookup(1, 1), 21u);
    EXPECT_EQ(log.lookup(1, 2), 22u);
    EXPECT_EQ(log.valid(5), 3u);
}

TEST(GofsSegmentLog, AFullFileSystemIsAnError) {
    // 2 segments of 4 blocks, 7 blocks of files: format must leave a free segment.
    SegmentLog log({.segments = 2, .blocks_per_segment = 4, .sms = 1, .gc_threshold = 0.05});
    EXPECT_THROW(log.format(1, 7), SimError);
}

}  // namespace
}  // namespace zng::storage::gofs
