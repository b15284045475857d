// The predictor counter walks a hand-made PC/page sequence; each expected value is
// counted by hand from the rules of paper IV-B: a tracked warp touching its recorded
// page again adds one, touching another page subtracts one (and records the new page),
// the counter saturates at 0 and 15, and a miss prefetches when it exceeds 12.
#include <gtest/gtest.h>

#include <stdexcept>

#include "gpu_model/l2/prefetch/pc_page_predictor.hpp"

namespace zng::gpu {
namespace {

constexpr uint64_t kPage = 4096;

TEST(PcPagePredictor, CounterWalksAndCrossesTheThresholdExactlyOnce) {
    PcPagePredictor p({});  // 512 entries, 5 warps, 4 bits, threshold 12
    const uint64_t pc = 0x4a0;
    p.observe(pc, 3, 7 * kPage);  // warp 3 records page 7: no re-access yet
    EXPECT_EQ(p.counter(pc), 0u);
    for (uint32_t i = 1; i <= 12; ++i) {
        p.observe(pc, 3, 7 * kPage + 128 * i);  // same page, other lines
        EXPECT_EQ(p.counter(pc), i);
        EXPECT_FALSE(p.predicts_locality(pc)) << "counter " << i << " does not exceed 12";
    }
    p.observe(pc, 3, 7 * kPage + 64);  // 13th re-access
    EXPECT_EQ(p.counter(pc), 13u);
    EXPECT_TRUE(p.predicts_locality(pc));
    p.observe(pc, 3, 9 * kPage);  // warp 3 moves on: 13 - 1
    EXPECT_EQ(p.counter(pc), 12u);
    EXPECT_FALSE(p.predicts_locality(pc));
    p.observe(pc, 3, 9 * kPage + 128);  // page 9 is now the recorded one: back to 13
    EXPECT_EQ(p.counter(pc), 13u);
    EXPECT_TRUE(p.predicts_locality(pc));
}

TEST(PcPagePredictor, CounterSaturatesAtBothEnds) {
    PcPagePredictor p({});
    const uint64_t pc = 0x10;
    p.observe(pc, 0, 0);
    for (int i = 0; i < 40; ++i) p.observe(pc, 0, 0);
    EXPECT_EQ(p.counter(pc), 15u);  // 4-bit counter
    for (int i = 1; i <= 40; ++i) p.observe(pc, 0, static_cast<uint64_t>(i) * kPage);  // a new page every time
    EXPECT_EQ(p.counter(pc), 0u);
}

// Five warps are tracked per entry; a sixth warp neither trains nor untrains it.
TEST(PcPagePredictor, OnlyRepresentativeWarpsCount) {
    PcPagePredictor p({});
    const uint64_t pc = 0x200;
    for (uint32_t w = 0; w < 5; ++w) p.observe(pc, w, w * kPage);  // five warps recorded
    for (uint32_t w = 0; w < 5; ++w) p.observe(pc, w, w * kPage);  // each re-accesses: +5
    EXPECT_EQ(p.counter(pc), 5u);
    for (int i = 0; i < 10; ++i) p.observe(pc, 7, static_cast<uint64_t>(i) * kPage);  // warp 7: ignored
    EXPECT_EQ(p.counter(pc), 5u);
    p.observe(pc, 2, 100 * kPage);  // warp 2 moves: -1
    EXPECT_EQ(p.counter(pc), 4u);
}

// Two PCs on one direct-mapped entry: the newcomer takes it over with a fresh counter.
TEST(PcPagePredictor, AliasingPcTakesTheEntryOver) {
    PcPagePredictor p({.entries = 1});
    p.observe(0x100, 0, 0);
    p.observe(0x100, 0, 0);
    p.observe(0x100, 0, 0);
    EXPECT_EQ(p.counter(0x100), 2u);
    p.observe(0x900, 0, 0);
    EXPECT_EQ(p.counter(0x100), 0u);
    EXPECT_EQ(p.counter(0x900), 0u);
    EXPECT_EQ(p.replacements(), 1u);
}

TEST(PcPagePredictor, ImpossibleSettingsAreRejected) {
    EXPECT_THROW(PcPagePredictor({.threshold = 15}), std::invalid_argument);  // 4 bits never exceed 15
    EXPECT_THROW(PcPagePredictor({.warps = 0}), std::invalid_argument);
    EXPECT_THROW(PcPagePredictor({.entries = 0}), std::invalid_argument);
    EXPECT_THROW(PcPagePredictor({.page_bytes = 3000}), std::invalid_argument);
}

}  // namespace
}  // namespace zng::gpu
