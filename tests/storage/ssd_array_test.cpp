// SSD arrays: RAID0 splits a request at stripe boundaries onto the right SSDs and
// completes it with its last piece; direct placement sends it whole to its SSD.
#include <gtest/gtest.h>

#include "tests/storage/storage_rig.hpp"

namespace zng::storage::test {
namespace {

SsdArraySettings raid0(uint64_t stripe) {
    SsdArraySettings a;
    a.placement = Placement::Raid0;
    a.stripe_bytes = stripe;
    return a;
}

TEST(SsdArray, Raid0SplitsAtStripeBoundariesOntoTheRightSsds) {
    StorageRig rig(topology(4), nvme(1, 8), fast_device(), raid0(8192));
    // 24 KiB at array byte 12 KiB, 8 KiB stripes over 4 SSDs (stripe k on SSD k mod 4
    // at (k div 4) x 8 KiB):
    //   [12K,16K): stripe 1 -> SSD 1 at 4 KiB, 4 KiB
    //   [16K,24K): stripe 2 -> SSD 2 at 0, 8 KiB
    //   [24K,32K): stripe 3 -> SSD 3 at 0, 8 KiB
    //   [32K,36K): stripe 4 -> SSD 0 at 8 KiB, 4 KiB
    std::vector<SsdArray::Piece> pieces;
    rig.array.split(0, 12288, 24576, [&](const SsdArray::Piece& p) { pieces.push_back(p); });
    ASSERT_EQ(pieces.size(), 4u);
    const SsdArray::Piece want[] = {{1, 4096, 4096}, {2, 0, 8192}, {3, 0, 8192}, {0, 8192, 4096}};
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(pieces[i].ssd, want[i].ssd) << i;
        EXPECT_EQ(pieces[i].offset, want[i].offset) << i;
        EXPECT_EQ(pieces[i].bytes, want[i].bytes) << i;
    }
    // Submitted: one command per piece, each SSD reading its bytes; one completion.
    int completions = 0;
    Tick done = 0;
    IoRequest r = read_4k(12288 / 512, [&](IoRequest& io) {
        ++completions;
        done = io.completed;
        EXPECT_EQ(io.bytes, 24576u);
    });
    r.bytes = 24576;
    rig.array.submit(std::move(r));
    rig.sim.run();
    EXPECT_EQ(completions, 1);
    EXPECT_EQ(rig.ssd(0).bytes_read(), 4096u);
    EXPECT_EQ(rig.ssd(1).bytes_read(), 4096u);
    EXPECT_EQ(rig.ssd(2).bytes_read(), 8192u);
    EXPECT_EQ(rig.ssd(3).bytes_read(), 8192u);
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(rig.ssd(i).commands(), 1u);
    // All four pieces are ready at 11.5 us (fetched at 1.5 us, 10 us device) and take
    // the GPU link (12.8 GB/s: 320 ns per 4 KiB) in submission order. Each arrives there
    // cut-through after its SSD link (3.2 GB/s: 1.28 us per 4 KiB) + 200 + 100 ns:
    //   SSD 1, 4 KiB: last byte at 13.08 us; link from 12.76 to 13.08 us
    //   SSD 2, 8 KiB: last byte at 14.36 us; link from 13.72 to 14.36 us
    //   SSD 3, 8 KiB: last byte at 14.36 us; link busy: 14.36 to 15.00 us
    //   SSD 0, 4 KiB: last byte at 13.08 us; link busy: 15.00 to 15.32 us
    // The request completes with its last piece: 15.32 + 0.3 link latency + 0.6 us
    // completion = 16.22 us.
    EXPECT_EQ(done, 16220 * kNanosecond);
}

TEST(SsdArray, DirectPlacementSendsTheRequestWholeToItsSsd) {
    StorageRig rig(topology(3), nvme(1, 8), fast_device());
    IoRequest r = read_4k(64, nullptr);
    r.ssd = 2;
    r.bytes = 16384;
    rig.array.submit(std::move(r));
    rig.sim.run();
    EXPECT_EQ(rig.ssd(0).commands() + rig.ssd(1).commands(), 0u);
    EXPECT_EQ(rig.ssd(2).commands(), 1u);
    EXPECT_EQ(rig.ssd(2).bytes_read(), 16384u);
}

TEST(SsdArray, CanSubmitCountsEveryPieceAgainstItsSsdsQueue) {
    StorageRig rig(topology(2), nvme(1, 2), fast_device(), raid0(4096));
    // 16 KiB over 4 KiB stripes on 2 SSDs: 2 pieces on each, exactly a depth of 2.
    IoRequest big = read_4k(0, nullptr);
    big.bytes = 16384;
    EXPECT_TRUE(rig.array.can_submit(big));
    rig.array.submit(big);
    EXPECT_FALSE(rig.array.can_submit(read_4k(0, nullptr)));
    int rooms = 0;
    rig.array.set_on_room([&] { ++rooms; });
    rig.sim.run();
    EXPECT_EQ(rooms, 4);  // one per completed piece
    EXPECT_TRUE(rig.array.can_submit(big));
}

}  // namespace
}  // namespace zng::storage::test
