// The demand write path of a flash controller and package: posted writes in a queue
// apart from reads, stores to one page sent as one command sequence. Every clock runs
// at 800 MHz (1250 ps), so times are whole cycles plus tR / tPROG, summed by hand.
#include <gtest/gtest.h>

#include "tests/flash_model/flash_test_util.hpp"

namespace zng::flash {
namespace {

using namespace testing;

// Two dies, so that a read on die 1 does not wait for programs on die 0. Both queues
// hold 2: with one shared budget the two queued writes would refuse the read. No
// background programs (dirty_watermark 1) and no cache program: a write waits for the
// whole program of the eviction it needs.
// Writes to plane 0 of die 0 (channel 1): P0 and P1 fill its two registers; P2 and P3
// then need a register each and wait for programs (tPROG = 100 us), so from then on
// both sit in the write queue. A write is answered when decoded (4 cycles); a third one
// is refused; a 4 KiB read on die 1 at +10 us is accepted and costs what it costs on
// an idle controller: 4 decode + 3 command + tR + 519 port + 515 data cycles.
TEST(PostedWrites, AFullWriteQueueRefusesWritesOnly) {
    Rig rig(small_platform("  dirty_watermark: 1\n  cache_program: false\n",
                           std::string(kMesh1x2) + "  queue_depth: 2\n  write_queue_depth: 2\n", 2, 8, 2, 2));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    auto die0 = [&](uint32_t page) { return g.encode(FlashAddress{1, 0, 0, 0, 1, page}); };
    for (uint32_t p : {0u, 1u}) {
        req.issue(die0(p), 128, MemOp::Write);
        rig.sim.run();
    }
    const Tick start = rig.sim.now();
    req.issue(die0(2), 128, MemOp::Write);  // request 2
    req.issue(die0(3), 128, MemOp::Write);  // request 3
    const Tick probe_at = start + 10 * kMicrosecond;
    bool third_refused = false;
    uint32_t writes_queued = 0;
    Probe probe(rig.sim, probe_at, [&] {
        FlashController& c = rig.zng().backbone().controller(1);
        writes_queued = c.write_occupancy();
        MemRequest* r = rig.sim.requests().get();
        r->paddr = die0(4);
        r->size = 128;
        r->op = MemOp::Write;
        third_refused = !rig.zng().backbone().accept(r);
        rig.sim.requests().put(r);
        req.issue(g.encode(FlashAddress{1, 0, 1, 0, 1, 0}), 4096, MemOp::Read);  // request 4
    });
    rig.sim.run();
    ASSERT_EQ(req.completed, 5u);
    EXPECT_EQ(req.done_at[2] - start, 4 * kCycle);  // posted: controller_latency only
    EXPECT_EQ(req.done_at[3] - start, 4 * kCycle);
    EXPECT_EQ(writes_queued, 2u);
    EXPECT_TRUE(third_refused);
    EXPECT_EQ(req.done_at[4] - probe_at, 3 * kMicrosecond + (4 + 3 + 519 + 515) * kCycle);
    EXPECT_EQ(stat(rig, "controller1.write_refusals"), 1.0);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
}

// III-C: the registers are the write buffer and reads use the page buffer
// (reads_keep_pages false), so a read does not wait behind a write waiting for a
// register. Channel 1's package has two dies of one plane and two registers per plane,
// grouped per package, no background programs and no cache program. Writes A, B, C and D
// to die 1 fill the four registers; write E to die 0 then waits for A's program on die 1
// (tPROG = 100 us) and write F to die 0 behind it, the two taking both of the plane's
// plane_depth (2) write slots. A 4 KiB read of another page of die 0, issued 10 us later, has read slots
// of its own, goes ahead of E and F in the package and costs what it costs on an idle
// controller (as in the test above): 4 decode + 3 command + tR + 519 port + 515 data
// cycles.
TEST(PostedWrites, AReadDoesNotWaitBehindAWriteWaitingForARegister) {
    Rig rig(small_platform("  register_grouping: package\n  dirty_watermark: 1\n"
                           "  cache_program: false\n  reads_keep_pages: false\n",
                           kMesh1x2, 2, 1, 2, 2));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    auto page = [&](uint32_t die, uint32_t p) { return g.encode(FlashAddress{1, 0, die, 0, 1, p}); };
    for (uint32_t p : {0u, 1u, 2u, 3u}) {
        req.issue(page(1, p), 128, MemOp::Write);  // A, B, C, D
        rig.sim.run();
    }
    const Tick start = rig.sim.now();
    req.issue(page(0, 4), 128, MemOp::Write);  // E
    req.issue(page(0, 6), 128, MemOp::Write);  // F
    const Tick read_at = start + 10 * kMicrosecond;
    uint32_t evictions_then = 0;
    Probe probe(rig.sim, read_at, [&] {
        evictions_then = static_cast<uint32_t>(stat(rig, "evictions"));
        req.issue(page(0, 5), 4096, MemOp::Read);  // request 6
    });
    rig.sim.run();
    ASSERT_EQ(req.completed, 7u);
    EXPECT_EQ(evictions_then, 1u);  // A's program was under way when the read came
    EXPECT_EQ(req.done_at[6] - read_at, 3 * kMicrosecond + (4 + 3 + 519 + 515) * kCycle);
    EXPECT_LT(req.done_at[6], start + 100 * kMicrosecond);  // before A's program ends
    EXPECT_EQ(stat(rig, "programs"), 2.0);  // A's and B's
    EXPECT_EQ(rig.backend->in_flight(), 0u);
}

// 32 stores of 128 B to page Z of plane 0 (channel 1) queue behind two 4 KiB reads (X,
// Y) that hold the plane's two command slots. When X's data reaches the controller
// (cycle 4 + 3 + tR + 519 + 515 = tR + 1041), the first store is issued and takes the
// other 31 along: one command message of 32 x 128 = 4096 B (2 + 513 flits), one port
// transfer of 7 command/address cycles + 32 x 16 data cycles = 519, one register (a
// miss, no sense), and one acknowledgement (3 cycles). The write queue drains at
// tR + (1041 + 515 + 519 + 3) = tR + 2078 cycles.
// Network: 2 read commands (1 flit each), 1 write sequence (513 flits), 2 read data
// messages (513 each), 1 acknowledgement (1): 6 packets, 1542 flits.
// The write queue's statistics over the same run: with a queue of 32 the 32 stores fill
// it from their arrival (time 0) until they drain together, so it is full for tR + 2078
// cycles and holds 32 writes on average over that time; with the default 64 it is never
// full. Read just after the drain (t + 1 ps), the average is 32 x t / (t + 1).
TEST(CombinedWrites, StoresToOnePageAreOneCommandSequence) {
    for (const uint32_t depth : {64u, 32u}) {
        SCOPED_TRACE(depth);
        Rig rig(small_platform("  write_miss_sense: false\n",
                               std::string(kMesh1x2) + "  write_queue_depth: " + std::to_string(depth) + "\n"));
        Requester req(rig);
        const FlashGeometry& g = rig.zng().geometry();
        auto page = [&](uint32_t p) { return g.encode(FlashAddress{1, 0, 0, 0, 1, p}); };
        req.issue(page(0), 4096, MemOp::Read);
        req.issue(page(1), 4096, MemOp::Read);
        for (uint32_t i = 0; i < 32; ++i) req.issue(page(2) + i * 128, 128, MemOp::Write);
        const Tick drained = 3 * kMicrosecond + 2078 * kCycle;
        uint32_t before = 0, after = 99;
        double full_ps = -1, occupancy = -1;
        FlashController& c = rig.zng().backbone().controller(1);
        Probe p1(rig.sim, drained - 1, [&] { before = c.write_occupancy(); });
        Probe p2(rig.sim, drained + 1, [&] {
            after = c.write_occupancy();
            full_ps = stat(rig, "controller1.write_queue_full_ps");
            occupancy = stat(rig, "controller1.write_queue_occupancy");
        });
        rig.sim.run();
        ASSERT_EQ(req.completed, 34u);
        EXPECT_EQ(before, 32u);
        EXPECT_EQ(after, 0u);
        EXPECT_EQ(full_ps, depth == 32 ? static_cast<double>(drained) : 0.0);
        EXPECT_DOUBLE_EQ(occupancy, 32.0 * static_cast<double>(drained) / static_cast<double>(drained + 1));
        EXPECT_EQ(stat(rig, "controller1.combined_writes"), 31.0);
        EXPECT_EQ(stat(rig, "register_misses"), 3.0);
        EXPECT_EQ(stat(rig, "register_write_hits"), 0.0);
        EXPECT_EQ(stat(rig, "senses"), 2.0);
        EXPECT_EQ(stat(rig, "network.packets"), 6.0);
        EXPECT_EQ(stat(rig, "network.flits"), 1542.0);
        EXPECT_EQ(rig.backend->in_flight(), 0u);
    }
}

// Critical word first (ONFI: data output starts at the READ's column address; CHANGE
// READ COLUMN, 4 cycles, moves to another): a 4 KiB read of an idle plane that waits
// for its 128 B at offset 1024 gets them after 4 decode + 3 command cycles, tR, 7 + 16
// port cycles and 16 + 1 + 2 network cycles = tR + 49 cycles; the whole read ends after
// 4 + 3, tR, 7 + 16 + 4 + 3968 / 8 = 523 port cycles and 496 + 1 + 2 network cycles for
// the other 3968 B = tR + 1029 cycles (sent whole: tR + 4 + 3 + 519 + 515 = tR + 1041).
TEST(CriticalWordFirst, TheWaitedForLineLeavesAheadOfTheUnit) {
    for (bool first : {true, false}) {
        SCOPED_TRACE(first ? "first part named" : "whole read");
        Rig rig(small_platform("", kMesh1x2));
        Requester req(rig);
        const uint64_t page = rig.zng().geometry().encode(FlashAddress{1, 0, 0, 0, 1, 0});
        req.issue(page, 4096, MemOp::Read, 1024, first ? 128 : 0);
        rig.sim.run();
        ASSERT_EQ(req.completed, 1u);
        if (first) {
            ASSERT_EQ(req.first_at.size(), 1u);
            EXPECT_EQ(req.first_at[0], 3 * kMicrosecond + 49 * kCycle);
            EXPECT_EQ(req.first_piece_addr, page + 1024);
            EXPECT_EQ(req.done_at[0], 3 * kMicrosecond + 1029 * kCycle);
            EXPECT_EQ(stat(rig, "controller1.first_parts"), 1.0);
        } else {
            EXPECT_TRUE(req.first_at.empty());
            EXPECT_EQ(req.done_at[0], 3 * kMicrosecond + 1041 * kCycle);
        }
    }
}

}  // namespace
}  // namespace zng::flash
