#include "sim/core/clock_domain.hpp"

#include <gtest/gtest.h>

#include "sim/core/errors.hpp"

namespace zng {
namespace {

TEST(ClockDomain, IntegralPeriod) {
    ClockDomain c("1GHz", 1'000'000'000);
    EXPECT_EQ(c.cycle_to_tick(0), 0u);
    EXPECT_EQ(c.cycle_to_tick(7), 7000u);
    EXPECT_EQ(c.tick_to_cycle(6999), 6u);
    EXPECT_EQ(c.tick_to_cycle(7000), 7u);
    EXPECT_EQ(c.next_edge(7000), 7000u);
    EXPECT_EQ(c.next_edge(7001), 8000u);
    EXPECT_EQ(c.edge_after(7001, 2), 10000u);
}

TEST(ClockDomain, NonIntegralPeriodDoesNotDrift) {
    // 1.2 GHz: period 833.333... ps. Cycle n starts at floor(n * 1e12 / 1.2e9) ps.
    ClockDomain gpu("gpu", 1'200'000'000);
    EXPECT_EQ(gpu.cycle_to_tick(1), 833u);
    EXPECT_EQ(gpu.cycle_to_tick(2), 1666u);
    EXPECT_EQ(gpu.cycle_to_tick(3), 2500u);
    // 1.2e9 cycles are exactly one second: no accumulated rounding error.
    EXPECT_EQ(gpu.cycle_to_tick(1'200'000'000ull), kSecond);
    // A rounded-down edge belongs to its own cycle (floor(t*f) would say cycle 0 at 833).
    EXPECT_EQ(gpu.tick_to_cycle(833), 1u);
    EXPECT_EQ(gpu.tick_to_cycle(832), 0u);
    EXPECT_EQ(gpu.next_edge(834), 1666u);
    for (Cycle n = 0; n < 5000; ++n) {
        EXPECT_EQ(gpu.tick_to_cycle(gpu.cycle_to_tick(n)), n);
        if (n) {
            EXPECT_EQ(gpu.tick_to_cycle(gpu.cycle_to_tick(n) - 1), n - 1);
        }
    }
}

TEST(ClockDomain, CrossDomainConversion1200MHzVs800MTs) {
    // A 800 MT/s flash interface and the 1.2 GHz GPU: 2 interface transfers take
    // 2500 ps = exactly 3 GPU cycles; 4096 transfers (a 4 KiB page on a 1 B bus)
    // take 5.12 us = 6144 GPU cycles.
    ClockDomain gpu("gpu", 1'200'000'000);
    ClockDomain onfi("onfi", 800'000'000);
    EXPECT_EQ(onfi.cycle_to_tick(2), 2500u);
    EXPECT_EQ(gpu.tick_to_cycle(onfi.cycle_to_tick(2)), 3u);
    EXPECT_EQ(onfi.cycle_to_tick(4096), 5'120'000u);
    EXPECT_EQ(gpu.tick_to_cycle(onfi.cycle_to_tick(4096)), 6144u);
    // One interface transfer (1250 ps) ends in GPU cycle 1 (833..1665) and the GPU
    // sees it at the next GPU edge, 1666 ps.
    EXPECT_EQ(gpu.tick_to_cycle(onfi.cycle_to_tick(1)), 1u);
    EXPECT_EQ(gpu.next_edge(onfi.cycle_to_tick(1)), 1666u);
}

TEST(ClockDomain, RejectsZeroFrequency) { EXPECT_THROW(ClockDomain("x", 0), ConfigError); }

}  // namespace
}  // namespace zng
