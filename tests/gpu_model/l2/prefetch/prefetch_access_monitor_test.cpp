// The access monitor at its thresholds: waste = unused / evicted over a window; the
// unit halves when waste > high, grows by step when waste < low, and stays otherwise.
// Every expected unit is computed by hand from the window's counts.
#include <gtest/gtest.h>

#include <stdexcept>

#include "gpu_model/l2/prefetch/prefetch_access_monitor.hpp"

namespace zng::gpu {
namespace {

using Change = PrefetchAccessMonitor::Change;

// Feeds one window: `unused` lines prefetched and never accessed, the rest used ones.
Change window(PrefetchAccessMonitor& m, uint32_t unused) {
    Change last = Change::None;
    for (uint32_t i = 0; i < m.config().window; ++i) {
        Change c = i < unused ? m.on_evict(true, false) : m.on_evict(true, true);
        if (i + 1 < m.config().window) {
            EXPECT_EQ(c, Change::None) << "decided inside a window";
        }
        last = c;
    }
    return last;
}

TEST(PrefetchAccessMonitor, HalvesAboveHighGrowsBelowLowHoldsBetween) {
    PrefetchAccessMonitor m({.window = 20});  // 4 KB unit, bounds 1..4 KB, high 0.3, low 0.05
    EXPECT_EQ(m.unit(), 4096u);
    EXPECT_EQ(window(m, 7), Change::Halved);  // 7/20 = 0.35 > 0.3
    EXPECT_DOUBLE_EQ(m.last_waste(), 0.35);
    EXPECT_EQ(m.unit(), 2048u);
    EXPECT_EQ(window(m, 6), Change::None);  // 6/20 = 0.30: not above high
    EXPECT_EQ(m.unit(), 2048u);
    EXPECT_EQ(window(m, 1), Change::None);  // 1/20 = 0.05: not below low
    EXPECT_EQ(m.unit(), 2048u);
    EXPECT_EQ(window(m, 0), Change::Grown);  // 0 < 0.05: + 1 KB
    EXPECT_EQ(m.unit(), 3072u);
    EXPECT_EQ(window(m, 20), Change::Halved);  // 3 KB / 2 = 1.5 KB (12 lines of 128 B)
    EXPECT_EQ(m.unit(), 1536u);
    EXPECT_EQ(window(m, 20), Change::Halved);  // 768 B clamps to the 1 KB minimum
    EXPECT_EQ(m.unit(), 1024u);
    EXPECT_EQ(window(m, 20), Change::None);  // already at the minimum
    EXPECT_EQ(m.windows(), 7u);
    EXPECT_EQ(m.total_evicted(), 140u);
    EXPECT_EQ(m.total_unused(), 7u + 6 + 1 + 0 + 20 + 20 + 20);
}

TEST(PrefetchAccessMonitor, GrowthStopsAtTheMaximum) {
    PrefetchAccessMonitor m({.initial = 2048, .window = 4});
    EXPECT_EQ(window(m, 0), Change::Grown);
    EXPECT_EQ(window(m, 0), Change::Grown);
    EXPECT_EQ(m.unit(), 4096u);
    EXPECT_EQ(window(m, 0), Change::None);
    EXPECT_EQ(m.unit(), 4096u);
}

// Demand-filled lines (not prefetched) never count as unused, accessed or not.
TEST(PrefetchAccessMonitor, OnlyPrefetchedUnaccessedLinesAreWaste) {
    PrefetchAccessMonitor m({.window = 4});
    m.on_evict(false, false);
    m.on_evict(false, true);
    m.on_evict(true, true);
    EXPECT_EQ(m.on_evict(true, false), Change::None);  // 1/4 = 0.25 lies between low and high
    EXPECT_DOUBLE_EQ(m.last_waste(), 0.25);
    EXPECT_EQ(m.total_unused(), 1u);
}

TEST(PrefetchAccessMonitor, ImpossibleSettingsAreRejected) {
    EXPECT_THROW(PrefetchAccessMonitor({.min = 64}), std::invalid_argument);  // below a 128 B line
    EXPECT_THROW(PrefetchAccessMonitor({.initial = 8192}), std::invalid_argument);
    EXPECT_THROW(PrefetchAccessMonitor({.high = 0.1, .low = 0.2}), std::invalid_argument);
    EXPECT_THROW(PrefetchAccessMonitor({.window = 0}), std::invalid_argument);
}

}  // namespace
}  // namespace zng::gpu
