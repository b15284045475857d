// Unit-granular fills: a demand read miss and the prefetch of its window are one memory
// transaction, whose lines are written by their owner banks.
#include <gtest/gtest.h>

#include "banked_l2_rig.hpp"

namespace zng::gpu::testing {
namespace {

TEST(UnitFetch, OnePageIsOneMemoryRequestAndItsLinesFillTheirOwnBanks) {
    BankedL2Rig rig(4096, "prefetch: fixed-4KB");
    // Demand miss of line 0 (bank 0) at cycle 0: lookup 1 cycle, so the unit leaves at
    // 1 and returns at 1 + 100 = 101. A miss of line 5 (bank 1) at 10 finds the unit in
    // flight and waits on it: no memory request of its own.
    const uint64_t a = rig.read_at(0, 0);
    const uint64_t b = rig.read_at(10, 5 * 128);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.memory->requests(MemOp::Prefetch), 0u);
    EXPECT_EQ(rig.memory->medium_bytes_read(), 4096u);  // the whole 4 KB window, once
    // Bank 0 writes line 0 first at 101 and answers it at once. Bank 1 writes its lines
    // in line order 1, 5, ...: line 1 holds it 101..106, line 5 is written at 106.
    EXPECT_EQ(rig.done.at(a), 101u);
    EXPECT_EQ(rig.done.at(b), 106u);
    // 32 lines valid, the 31 other than the demand line marked prefetched.
    uint32_t valid = 0, prefetched = 0;
    for (uint64_t l = 0; l < 32; ++l)
        if (const LineMarks* m = rig.marks(l)) {
            ++valid;
            prefetched += m->prefetched();
        }
    EXPECT_EQ(valid, 32u);
    EXPECT_EQ(prefetched, 31u);
    EXPECT_FALSE(rig.marks(0)->prefetched());
    // Each bank owns 8 lines: 8 array writes x 5 cycles = 40 busy cycles, plus 1 for the
    // lookup of the demand miss (banks 0 and 1).
    EXPECT_EQ(rig.stat("gpu.l2.bank0.busy_cycles"), 41);
    EXPECT_EQ(rig.stat("gpu.l2.bank1.busy_cycles"), 41);
    EXPECT_EQ(rig.stat("gpu.l2.bank2.busy_cycles"), 40);
    EXPECT_EQ(rig.stat("gpu.l2.bank3.busy_cycles"), 40);
    EXPECT_EQ(rig.stat("gpu.l2.policy.unit_fetches"), 1);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 31);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_fills"), 31);
    EXPECT_EQ(rig.stat("gpu.l2.unit_merges"), 1);
    EXPECT_TRUE(rig.l2->idle());
    EXPECT_EQ(rig.sim.requests().live(), 0u);
}

TEST(UnitFetch, LinesAlreadyPresentAreNeitherFetchedAgainNorOverwritten) {
    BankedL2Rig rig(4096, "prefetch: fixed-4KB");
    // A whole-line store allocates line 7 (bank 3) dirty without a fetch.
    rig.access_at(0, 7 * 128, MemOp::Write);
    rig.sim.run();
    // The miss of line 0 fetches the window 0..31 as one transaction, but prefetches
    // only the 30 lines other than 0 and 7: line 7 keeps the store's data.
    rig.read_at(20, 0);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 30);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_fills"), 30);
    ASSERT_NE(rig.line(7), nullptr);
    EXPECT_TRUE(rig.line(7)->dirty);
    EXPECT_FALSE(rig.marks(7)->prefetched());
    // A second miss to the same page finds every line present: no request at all.
    rig.read_at(400, 9 * 128);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.unit_fetches"), 1);
}

TEST(UnitFetch, TheReadMovesOnlyTheSpanOfLinesTheL2Lacks) {
    BankedL2Rig rig(4096, "prefetch: fixed-4KB");
    // Whole-line stores allocate lines 0-3, 28-31 and 12 without a fetch.
    for (uint64_t l : {0, 1, 2, 3, 12, 28, 29, 30, 31}) rig.access_at(0, l * 128, MemOp::Write);
    rig.sim.run();
    // The miss of line 10 prefetches the 22 lines of 4..27 other than 10 and 12. The read
    // starts at line 4 and ends with line 27: 24 lines, 3072 B, line 12 moved but kept.
    rig.read_at(100, 10 * 128);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.memory->medium_bytes_read(), 24u * 128u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 22);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_fills"), 22);
    EXPECT_TRUE(rig.line(12)->dirty);
    EXPECT_FALSE(rig.marks(12)->prefetched());
    EXPECT_TRUE(rig.marks(27)->prefetched());
    EXPECT_TRUE(rig.l2->idle());
    EXPECT_EQ(rig.sim.requests().live(), 0u);
}

TEST(UnitFetch, BackEndWithoutMultiLineReadsGetsLineFetches) {
    BankedL2Rig rig(0, "prefetch: fixed-4KB");  // the back end serves one line per request
    rig.read_at(0, 0);
    rig.sim.run();
    // The demand line as a Read, the 31 others as line prefetches.
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.memory->requests(MemOp::Prefetch), 31u);
    EXPECT_EQ(rig.memory->medium_bytes_read(), 32u * 128u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.unit_fetches"), 0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_fills"), 31);
}

}  // namespace
}  // namespace zng::gpu::testing
