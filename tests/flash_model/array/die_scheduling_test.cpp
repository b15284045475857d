// How a die shares itself between operation kinds, computed by hand on small_platform
// (800 MHz clocks, tR 3 us, tPROG 100 us, no decoder search).
#include <gtest/gtest.h>

#include "tests/flash_model/flash_test_util.hpp"

namespace zng::flash {
namespace {

using namespace testing;

// Die 0 of channel 1's package with erased blocks on planes 0 and 2: a firmware program of
// plane 0 starts at cycle 1038 (decode, the command with its 4 KiB over one mesh hop, the
// I/O port) and runs 100 us; `program_second` submits one to plane 2.
struct TwoPrograms {
    Rig rig{small_platform("", kMesh1x2, /*io_ports=*/2, /*planes=*/8, /*channels=*/2, /*dies=*/2)};
    const FlashAddress first{1, 0, 0, 0, 5, 0}, second{1, 0, 0, 2, 5, 0};
    const Tick program_start = 1038 * kCycle;
    Tick programmed_first = 0, programmed_second = 0;

    TwoPrograms() {
        rig.zng().set_block_erased(first);
        rig.zng().set_block_erased(second);
        rig.zng().submit({FlashOp::Program, first, 0, [this] { programmed_first = rig.sim.now(); }});
    }
    void program_second() {
        rig.zng().submit({FlashOp::Program, second, 0, [this] { programmed_second = rig.sim.now(); }});
    }
};

// A read to plane 1 is accepted 50 us into plane 0's program and waits for the die. A
// program to plane 2 arriving 60 us in could overlap plane 0's (same kind), but the read
// has waited longer: the die turns to the read when plane 0's program ends, and plane 2
// programs after the read's tR.
//  - read: sensed at program_start + 100 us, a wait of exactly 50 us;
//  - plane 2's program: starts at program_start + 103 us, acknowledged 100 us and one
//    hop (3 cycles) later.
// Were plane 2 let in beside plane 0, the read would wait for both programs (~110 us).
TEST(DieScheduling, AProgramDoesNotJoinItsDieWhileAReadWaitsForIt) {
    TwoPrograms t;
    Requester req(t.rig);
    Probe read(t.rig.sim, t.program_start + 50 * kMicrosecond, [&] {
        req.issue(t.rig.zng().geometry().encode(FlashAddress{1, 0, 0, 1, 0, 0}), 128, MemOp::Read);
    });
    Probe program(t.rig.sim, t.program_start + 60 * kMicrosecond, [&] { t.program_second(); });
    t.rig.sim.run();
    ASSERT_EQ(req.completed, 1u);
    EXPECT_EQ(t.programmed_first, t.program_start + 100 * kMicrosecond + 3 * kCycle);
    EXPECT_EQ(t.programmed_second, t.program_start + 203 * kMicrosecond + 3 * kCycle);
    EXPECT_DOUBLE_EQ(stat(t.rig, "package1.read_wait"), 50'000.0);
    EXPECT_EQ(stat(t.rig, "package1.program_busy_ps"), static_cast<double>(200 * kMicrosecond));
    EXPECT_EQ(stat(t.rig, "package1.sense_busy_ps"), static_cast<double>(3 * kMicrosecond));
}

// Without a waiting read, a program arriving while its die programs joins it: two
// programs 60 us apart on planes 0 and 2 end 60 us apart, not 100 us.
TEST(DieScheduling, AProgramJoinsItsDiesProgramWhenNothingElseWaits) {
    TwoPrograms t;
    Probe program(t.rig.sim, t.program_start + 60 * kMicrosecond, [&] { t.program_second(); });
    t.rig.sim.run();
    EXPECT_EQ(t.programmed_first, t.program_start + 100 * kMicrosecond + 3 * kCycle);
    // Submitted 60 us in, it reaches the die 1038 cycles later, as the first one did.
    EXPECT_EQ(t.programmed_second, t.program_start + 160 * kMicrosecond + 1038 * kCycle + 3 * kCycle);
}

// A die that frees turns to the kind its other planes waited for before its own planes
// restart the kind that just ran. Plane 0 programs (page 0, from program_start) with a
// second program (page 1) queued behind it 10 us in; a read to plane 1 arrives 50 us in.
// When plane 0's first program ends at program_start + 100 us the read, held for 50 us,
// is sensed (tR 3 us), and only then does plane 0 program page 1:
//  - read: a wait of exactly 50 us;
//  - page 1: starts at program_start + 103 us, acknowledged 100 us and one hop later.
// Restarting the freed planes in plane order would program page 1 first and hold the read
// for another 100 us (a 150 us wait), and so on for every program queued on plane 0.
TEST(DieScheduling, AFreedDieServesTheWaitingKindBeforeRestartingItsOwn) {
    TwoPrograms t;
    Requester req(t.rig);
    const FlashAddress next_page{1, 0, 0, 0, 5, 1};
    Tick programmed_next = 0;
    Probe program(t.rig.sim, t.program_start + 10 * kMicrosecond, [&] {
        t.rig.zng().submit({FlashOp::Program, next_page, 0, [&] { programmed_next = t.rig.sim.now(); }});
    });
    Probe read(t.rig.sim, t.program_start + 50 * kMicrosecond, [&] {
        req.issue(t.rig.zng().geometry().encode(FlashAddress{1, 0, 0, 1, 0, 0}), 128, MemOp::Read);
    });
    t.rig.sim.run();
    ASSERT_EQ(req.completed, 1u);
    EXPECT_EQ(t.programmed_first, t.program_start + 100 * kMicrosecond + 3 * kCycle);
    EXPECT_DOUBLE_EQ(stat(t.rig, "package1.read_wait"), 50'000.0);
    EXPECT_EQ(programmed_next, t.program_start + 203 * kMicrosecond + 3 * kCycle);
    EXPECT_EQ(stat(t.rig, "package1.program_busy_ps"), static_cast<double>(200 * kMicrosecond));
}

}  // namespace
}  // namespace zng::flash
