// The zng L2 policy on a lone L2 bank of 4 sets x 2 ways (8 lines of 128 B): the tag
// array's prefetch and accessed bits through fill, access and eviction, what the
// policy reads from them (accuracy, waste), the predictor gating prefetches, and the
// write redirection into pinned lines. Expected counts follow line by line from the
// set mapping (line n -> set n % 4) and LRU, as spelled out in each test.
#include <gtest/gtest.h>

#include "l2_rig.hpp"

namespace zng::gpu {
namespace {

using testing::L2Rig;

TEST(ZngL2Policy, TagBitsAreSetOnFillAndAccessAndReadOnEviction) {
    L2Rig rig(4, 2, "type: zng\nprefetch: fixed-1KB\n");
    // Miss on line 0: the 1 KB window is lines 0..7, so lines 1..7 are prefetched.
    rig.access(0, MemOp::Read);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 7.0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_fills"), 7.0);
    ASSERT_NE(rig.line(0), nullptr);
    EXPECT_FALSE(rig.marks(0)->prefetched());  // the demand fill
    EXPECT_TRUE(rig.marks(0)->accessed());
    for (uint64_t l = 1; l < 8; ++l) {
        ASSERT_NE(rig.line(l * 128), nullptr) << l;
        EXPECT_TRUE(rig.marks(l * 128)->prefetched()) << l;
        EXPECT_FALSE(rig.marks(l * 128)->accessed()) << l;
    }
    rig.access(5 * 128, MemOp::Read);  // a hit on a prefetched line: now accessed and counted used
    EXPECT_TRUE(rig.marks(5 * 128)->accessed());
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_used"), 1.0);
    rig.access(5 * 128 + 32, MemOp::Read);  // used once, counted once
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_used"), 1.0);
    // Miss on line 16 (window 16..23): its fill and 7 prefetches replace all 8 old lines.
    // Evicted: line 0 (demand), line 5 (prefetched, used), 6 prefetched unused.
    rig.access(16 * 128, MemOp::Read);
    for (uint64_t l = 0; l < 8; ++l) EXPECT_EQ(rig.line(l * 128), nullptr) << l;
    EXPECT_EQ(rig.policy().monitor().total_evicted(), 8u);
    EXPECT_EQ(rig.policy().monitor().total_unused(), 6u);
    EXPECT_DOUBLE_EQ(rig.stat("gpu.l2.policy.waste_ratio"), 6.0 / 8.0);
    // A new fill starts with clear bits: line 16 is a demand fill, line 17 a prefetch.
    EXPECT_FALSE(rig.marks(16 * 128)->prefetched());
    EXPECT_TRUE(rig.marks(17 * 128)->prefetched());
    EXPECT_FALSE(rig.marks(17 * 128)->accessed());
    // 14 prefetched lines filled, 1 used.
    EXPECT_DOUBLE_EQ(rig.stat("gpu.l2.policy.accuracy"), 1.0 / 14.0);
}

// predict-4KB: the page is prefetched only once the PC's counter exceeds 12. Warp 0 of
// PC 0x40 reads line after line of page 1 (64 sets x 4 ways hold the whole page). Each
// access trains the predictor before its miss is tested: access 1 records the page,
// accesses 2..13 raise the counter to 12 (no prefetch), access 14 raises it to 13 and
// its miss prefetches the 18 lines of the page not yet present or in flight.
TEST(ZngL2Policy, PredictorGatesThePagePrefetch) {
    L2Rig rig(64, 4, "type: zng\nprefetch: predict-4KB\n");
    const uint64_t page = 4096;
    for (uint64_t i = 0; i < 13; ++i) rig.access(page + i * 128, MemOp::Read, 0x40, 0);
    EXPECT_EQ(rig.policy().predictor().counter(0x40), 12u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 0.0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.predictor_checks"), 13.0);
    rig.access(page + 13 * 128, MemOp::Read, 0x40, 0);  // counter 13 > 12: prefetch the rest of page 1
    EXPECT_EQ(rig.stat("gpu.l2.policy.predictor_triggers"), 1.0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 32.0 - 14.0);  // lines 14..31
    EXPECT_EQ(rig.stat("gpu.l2.bank0.prefetch_drops"), 0.0);
    rig.access(page + 20 * 128, MemOp::Read, 0x40, 0);
    EXPECT_EQ(rig.stat("gpu.l2.hits"), 1.0);
}

TEST(ZngL2Policy, NoneNeverPrefetches) {
    L2Rig rig(64, 4, "type: zng\nprefetch: none\n");
    for (uint64_t i = 0; i < 32; ++i) rig.access(i * 128, MemOp::Read, 0x40, 0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 0.0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_unit"), 0.0);
}

// A fake flash side whose thrashing can be switched by the test.
struct FakeFlash final : WriteRedirectionSource {
    bool thrashing = false;
    bool redirect_write(uint64_t) const override { return thrashing; }
    bool redirect_active() const override { return thrashing; }
};

// Stores bypass the read-only L2 while the flash side is calm; while it thrashes they
// stay in the L2 as dirty lines, pinned up to pin_share of the 8 lines = 2. Lines 0, 4,
// 8, ... all map to set 0 (2 ways); each step below names the victim LRU picks among
// the ways pinning leaves it.
TEST(ZngL2Policy, ThrashingPinsRedirectedStoresAndCalmReleasesThem) {
    L2Rig rig(4, 2, "type: zng\nwrite_bypass: true\npin_share: 0.25\n");
    FakeFlash flash;
    rig.policy().set_redirection_source(&flash);
    EXPECT_EQ(rig.policy().pin_limit(), 2u);
    auto at = [](uint64_t line) { return line * 128; };
    rig.access(at(0), MemOp::Write);  // calm: straight to memory
    EXPECT_EQ(rig.line(at(0)), nullptr);
    EXPECT_EQ(rig.memory->requests(MemOp::Write), 1u);

    flash.thrashing = true;
    rig.access(at(4), MemOp::Write);  // kept and pinned
    ASSERT_NE(rig.line(at(4)), nullptr);
    EXPECT_TRUE(rig.line(at(4))->dirty);
    EXPECT_TRUE(rig.marks(at(4))->pinned());
    rig.access(at(8), MemOp::Read);   // set 0 = {4*, 8}
    rig.access(at(12), MemOp::Read);  // 4 is older but pinned: 8 goes
    EXPECT_NE(rig.line(at(4)), nullptr);
    EXPECT_EQ(rig.line(at(8)), nullptr);
    rig.access(at(16), MemOp::Write);  // 12 goes; set 0 = {4*, 16*}, the share is full
    EXPECT_TRUE(rig.marks(at(16))->pinned());
    EXPECT_EQ(rig.policy().pinned_lines(), 2u);
    rig.access(at(20), MemOp::Read);  // only pinned lines left: the LRU one (4) goes, written back
    EXPECT_EQ(rig.line(at(4)), nullptr);
    EXPECT_EQ(rig.memory->requests(MemOp::Writeback), 1u);
    EXPECT_EQ(rig.policy().pinned_lines(), 1u);
    rig.access(at(24), MemOp::Write);  // room again: pinned, 20 goes
    EXPECT_TRUE(rig.marks(at(24))->pinned());
    rig.access(at(1), MemOp::Write);  // share full: this store bypasses
    EXPECT_EQ(rig.line(at(1)), nullptr);
    EXPECT_EQ(rig.memory->requests(MemOp::Write), 2u);

    flash.thrashing = false;  // calm: pinned lines are ordinary LRU lines again
    EXPECT_FALSE(rig.policy().pins_protected());
    rig.access(at(28), MemOp::Read);  // set 0 = {16*, 24*}: 16 is LRU and goes, written back
    EXPECT_EQ(rig.line(at(16)), nullptr);
    EXPECT_EQ(rig.memory->requests(MemOp::Writeback), 2u);
    EXPECT_EQ(rig.policy().pinned_lines(), 1u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.pins"), 3.0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.pinned_evictions"), 2.0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.writes_redirected"), 3.0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.writes_bypassed"), 2.0);
}

TEST(ZngL2Policy, BadSettingsNameTheKey) {
    for (const char* yaml : {"type: zng\nthreshold: 15\n", "type: zng\nunit_max: 8KiB\n",
                             "type: zng\nwaste_low: 0.5\nwaste_high: 0.3\n", "type: zng\nprefetch: always\n"}) {
        try {
            L2Rig rig(4, 2, yaml);
            ADD_FAILURE() << "accepted: " << yaml;
        } catch (const ConfigError& e) {
            EXPECT_NE(std::string(e.what()).find("policy.yaml:"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("gpu.l2.policy."), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace zng::gpu
