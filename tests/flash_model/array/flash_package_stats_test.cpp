// A package's array time by operation and its demand reads' waits, computed by hand on
// small_platform (800 MHz clocks, tR 3 us, tPROG 100 us, no decoder search).
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/flash_model/flash_test_util.hpp"

namespace zng::flash {
namespace {

using namespace testing;

// A firmware program on die 0 of channel 1's package starts at cycle 4 + 515 + 519 =
// 1038 (decode, the command with its 4 KiB over one mesh hop, the I/O port) and runs
// 100 us. Two demand reads are accepted 50 us into it:
//  - one to plane 1 of the same die: it reaches the package 4 + 3 cycles later and
//    waits for the program (a die senses nothing while it programs), so its sense
//    starts at the program's end: a wait of exactly 50 us, all of it programming;
//  - one to die 1: its die is idle, so its sense starts when its command arrives, one
//    cycle behind the first one's (the controller sends a command per cycle): 8 cycles.
TEST(FlashPackageStats, ReadsWaitingForTheirDiesProgramAreCountedApart) {
    Rig rig(small_platform("", kMesh1x2, /*io_ports=*/2, /*planes=*/8, /*channels=*/2, /*dies=*/2));
    auto& be = rig.zng();
    const FlashAddress blk{1, 0, 0, 0, 5, 0};
    be.set_block_erased(blk);
    Tick programmed = 0;
    be.submit({FlashOp::Program, blk, 0, [&] { programmed = rig.sim.now(); }});
    Requester req(rig);
    const Tick program_start = 1038 * kCycle;
    const Tick accept = program_start + 50 * kMicrosecond;
    Probe issue(rig.sim, accept, [&] {
        req.issue(be.geometry().encode(FlashAddress{1, 0, 0, 1, 0, 0}), 128, MemOp::Read);
        req.issue(be.geometry().encode(FlashAddress{1, 0, 1, 0, 0, 0}), 128, MemOp::Read);
    });
    rig.sim.run();
    ASSERT_EQ(req.completed, 2u);
    ASSERT_EQ(programmed, program_start + 100 * kMicrosecond + 3 * kCycle);  // + the acknowledgement's hop

    const std::string pkg = "package1.";
    EXPECT_EQ(stat(rig, pkg + "program_busy_ps"), static_cast<double>(100 * kMicrosecond));
    EXPECT_EQ(stat(rig, pkg + "sense_busy_ps"), static_cast<double>(2 * 3 * kMicrosecond));
    EXPECT_EQ(stat(rig, pkg + "erase_busy_ps"), 0.0);
    const double same_die_ns = 50'000.0, other_die_ns = 8 * 1.25;
    EXPECT_DOUBLE_EQ(stat(rig, pkg + "read_wait"), (same_die_ns + other_die_ns) / 2);
    EXPECT_EQ(stat(rig, pkg + "read_wait_programming_ps"), static_cast<double>(50 * kMicrosecond));
    EXPECT_DOUBLE_EQ(stat(rig, "read_wait_programming_share"), same_die_ns / (same_die_ns + other_die_ns));
    // Channel 0's package did nothing.
    EXPECT_EQ(stat(rig, "package0.sense_busy_ps"), 0.0);
    EXPECT_EQ(stat(rig, "package0.read_wait_programming_ps"), 0.0);
}

// Eight erases, one per plane of a die, overlap (multi-plane): each plane's time counts,
// 8 x tBERS = 8 ms, but the die erases for one tBERS and a little (the commands reach it
// a few cycles apart). A read of that die accepted 500 us in waits for the rest of the
// erase, all of it counted as its die's programming or erasing, once, not per plane.
TEST(FlashPackageStats, PlaneTimeSumsOverPlanesWhileTheDieClockCountsOnce) {
    Rig rig(small_platform("", kMesh1x2, /*io_ports=*/2));
    auto& be = rig.zng();
    Tick last_ack = 0;
    for (uint32_t p = 0; p < 8; ++p)
        be.submit({FlashOp::Erase, FlashAddress{1, 0, 0, p, 5, 0}, 0,
                   [&] { last_ack = std::max(last_ack, rig.sim.now()); }});
    Requester req(rig);
    const Tick accept = 500 * kMicrosecond;
    Probe issue(rig.sim, accept,
                [&] { req.issue(be.geometry().encode(FlashAddress{1, 0, 0, 3, 0, 0}), 128, MemOp::Read); });
    rig.sim.run();
    ASSERT_EQ(req.completed, 1u);
    EXPECT_EQ(stat(rig, "package1.erase_busy_ps"), static_cast<double>(8 * kMillisecond));
    EXPECT_EQ(stat(rig, "package1.sense_busy_ps"), static_cast<double>(3 * kMicrosecond));
    // The read's sense starts when the die's last erase ends, an acknowledgement's hop
    // (3 cycles) before that erase's completion.
    const Tick die_free = last_ack - 3 * kCycle;
    EXPECT_DOUBLE_EQ(stat(rig, "package1.read_wait"), static_cast<double>(die_free - accept) / 1000.0);
    EXPECT_EQ(stat(rig, "package1.read_wait_programming_ps"), static_cast<double>(die_free - accept));
    // Once: the erases began within 100 cycles of each other and of t = 0.
    EXPECT_GT(die_free, kMillisecond);
    EXPECT_LT(die_free, kMillisecond + 100 * kCycle);
    EXPECT_DOUBLE_EQ(stat(rig, "read_wait_programming_share"), 1.0);
}

}  // namespace
}  // namespace zng::flash
