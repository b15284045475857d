// A bypassed store that finds its line in the read-only L2 leaves no stale copy there:
// the line is invalidated (bypass_hit: invalidate) or written in place (update).
#include <gtest/gtest.h>

#include "banked_l2_rig.hpp"

namespace zng::gpu::testing {
namespace {

// Read miss of line 0 at cycle 0: lookup 1 + fill 5 busy cycles in bank 0 (STT-MRAM),
// the fill at 1 + 100 = 101. The store to line 0 at 200 bypasses the L2: memory
// acknowledges it at 200 + 100 = 300. A read of line 0 at 400 follows.
TEST(BypassHit, InvalidateDropsTheLineSoTheNextReadFetchesIt) {
    BankedL2Rig rig(0, "write_bypass: true");  // bypass_hit: invalidate by default
    rig.read_at(0, 0);
    const uint64_t store = rig.access_at(200, 0, MemOp::Write);
    rig.sim.run();
    EXPECT_EQ(rig.done.at(store), 300u);
    EXPECT_EQ(rig.line(0), nullptr);
    // Busy: 1 (lookup) + 5 (fill) + 1 (the store's lookup; no array write) = 7.
    EXPECT_EQ(rig.stat("gpu.l2.bank0.busy_cycles"), 7);
    EXPECT_EQ(rig.stat("gpu.l2.bank0.bypass_invalidations"), 1);
    EXPECT_EQ(rig.memory->requests(MemOp::Write), 1u);
    rig.read_at(400, 0);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 2u);  // fetched again, with the store's data
}

TEST(BypassHit, UpdateWritesTheLineCleanAndStillSendsTheStore) {
    BankedL2Rig rig(0, "write_bypass: true, bypass_hit: update");
    rig.read_at(0, 0);
    const uint64_t store = rig.access_at(200, 0, MemOp::Write);
    rig.sim.run();
    EXPECT_EQ(rig.done.at(store), 300u);
    ASSERT_NE(rig.line(0), nullptr);
    EXPECT_FALSE(rig.line(0)->dirty);  // memory gets the store: nothing to write back
    // Busy: 1 (lookup) + 5 (fill) + 5 (the store's array write) = 11.
    EXPECT_EQ(rig.stat("gpu.l2.bank0.busy_cycles"), 11);
    EXPECT_EQ(rig.stat("gpu.l2.bank0.bypass_updates"), 1);
    EXPECT_EQ(rig.memory->requests(MemOp::Write), 1u);
    rig.read_at(400, 0);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);  // a hit
}

}  // namespace
}  // namespace zng::gpu::testing
