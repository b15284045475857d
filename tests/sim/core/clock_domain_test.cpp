#include "sim/core/clock_domain.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "sim/core/edge_clock.hpp"
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

// The 64-bit fast paths against the 128-bit reference formulas, on the frequencies of
// the shipped configs, odd ones (prime, 1 Hz, 1 THz), random arguments, and arguments
// on both sides of where the fast path hands over to the exact one.
TEST(ClockDomain, FastConversionsMatchTheExactFormulas) {
    const uint64_t freqs[] = {1,           7,           1'000'000'000, 1'200'000'000, 800'000'000,
                              1'400'000'000, 333'333'333, 999'999'937,  kSecond,       2'133'000'000};
    std::mt19937_64 rng(11);
    for (uint64_t f : freqs) {
        ClockDomain c("f", f);
        std::vector<uint64_t> args = {0, 1, 2, 832, 833, 1000, kSecond, kSecond + 1};
        for (int i = 0; i < 2000; ++i) args.push_back(rng() >> (rng() % 64));
        for (uint64_t shift : {40u, 50u, 60u, 63u}) args.push_back((1ull << shift) - 1);
        for (uint64_t a : args) {
            // cycle_to_tick is only meaningful while the tick fits in 64 bits.
            if (a <= (~0ull / kSecond) * f) {
                ASSERT_EQ(c.cycle_to_tick(a), c.exact_cycle_to_tick(a)) << "f=" << f << " n=" << a;
            }
            ASSERT_EQ(c.tick_to_cycle(a), c.exact_tick_to_cycle(a)) << "f=" << f << " t=" << a;
        }
    }
    // Around the hand-over at 1.2 GHz (2500/3): n * 2500 overflows above 2^64/2500.
    ClockDomain gpu("gpu", 1'200'000'000);
    const uint64_t edge = ~0ull / 2500;
    for (uint64_t n = edge - 3; n <= edge + 3; ++n) EXPECT_EQ(gpu.cycle_to_tick(n), gpu.exact_cycle_to_tick(n)) << n;
    const uint64_t tedge = ~0ull / 3 - 1;
    for (uint64_t t = tedge - 3; t <= tedge + 3; ++t) EXPECT_EQ(gpu.tick_to_cycle(t), gpu.exact_tick_to_cycle(t)) << t;
    // And by hand: cycle 3 of 1.2 GHz starts at 2500 ps; tick 2499 is still cycle 2.
    EXPECT_EQ(gpu.cycle_to_tick(3), 2500u);
    EXPECT_EQ(gpu.tick_to_cycle(2499), 2u);
}

TEST(ClockDomain, EdgeCycleIsTheFirstEdgeAtOrAfterATick) {
    // 1.2 GHz: edges at floor(n x 2500 / 3) ps = 0, 833, 1666, 2500, 3333.
    ClockDomain gpu("gpu", 1'200'000'000);
    EXPECT_EQ(gpu.edge_cycle(0), 0u);
    EXPECT_EQ(gpu.edge_cycle(1), 1u);     // between edges 0 and 1: the next one
    EXPECT_EQ(gpu.edge_cycle(833), 1u);   // on edge 1
    EXPECT_EQ(gpu.edge_cycle(834), 2u);
    EXPECT_EQ(gpu.edge_cycle(2500), 3u);  // on edge 3
    EXPECT_EQ(gpu.next_edge(1667), 2500u);
    EXPECT_EQ(gpu.edge_after(834, 2), 3333u);  // edge 2 + 2 cycles = edge 4
}

TEST(ClockDomain, EdgeCycleMatchesTheExactFormulaAndItsDefinition) {
    // edge_cycle(t) is the smallest n with cycle_to_tick(n) >= t: the cycle in progress
    // (tick_to_cycle), or the next one when t is not its edge. The one-division form must
    // agree with that definition and with the 128-bit ceil(t f / 1e12), on both sides of
    // the hand-over to 128 bits (at 1.2 GHz, 2500/3: t * 3 + 2499 overflows above
    // (2^64 - 2500) / 3).
    const uint64_t freqs[] = {1, 7, 1'000'000'000, 1'200'000'000, 800'000'000, 333'333'333, 999'999'937, kSecond};
    std::mt19937_64 rng(17);
    for (uint64_t f : freqs) {
        ClockDomain c("f", f);
        std::vector<uint64_t> args = {0, 1, 2, 832, 833, 834, 1666, 1667, 2500, kSecond, kSecond + 1};
        for (int i = 0; i < 2000; ++i) args.push_back(rng() >> (rng() % 64));
        for (uint64_t a : args) {
            ASSERT_EQ(c.edge_cycle(a), c.exact_edge_cycle(a)) << "f=" << f << " t=" << a;
            const Cycle in_progress = c.tick_to_cycle(a);
            if (in_progress + 1 <= (~0ull / kSecond) * f) {
                ASSERT_EQ(c.edge_cycle(a), c.cycle_to_tick(in_progress) == a ? in_progress : in_progress + 1)
                    << "f=" << f << " t=" << a;
            }
        }
    }
    ClockDomain gpu("gpu", 1'200'000'000);
    const uint64_t tedge = (~0ull - 2499) / 3;
    for (uint64_t t = tedge - 3; t <= tedge + 3; ++t) EXPECT_EQ(gpu.edge_cycle(t), gpu.exact_edge_cycle(t)) << t;
}

TEST(EdgeClock, MemoisedAnswersEqualTheClockDomains) {
    ClockDomain gpu("gpu", 1'200'000'000);
    EdgeClock edge(gpu);
    // Same values as above, each asked twice (the second answer comes from the memo),
    // and in an order that leaves and returns to a tick.
    for (int twice = 0; twice < 2; ++twice) {
        EXPECT_EQ(edge.edge_cycle(834), 2u);
        EXPECT_EQ(edge.edge_after(834, 2), 3333u);
        EXPECT_EQ(edge.next_edge(1667), 2500u);
        EXPECT_EQ(edge.next_edge(833), 833u);
    }
    std::mt19937_64 rng(3);
    for (int i = 0; i < 10000; ++i) {
        const Tick t = rng() % 1'000'000'000;
        const Cycle n = rng() % 100;
        EXPECT_EQ(edge.edge_after(t, n), gpu.edge_after(t, n));
    }
}

TEST(EdgeClock, ClocksOfOneDomainShareItsMemoAndStayExact) {
    // Components of a domain interleave their questions at various ticks; whichever
    // asked last, every answer equals the domain's own arithmetic.
    ClockDomain gpu("gpu", 1'200'000'000);
    EdgeClock a(gpu), b(gpu);
    std::mt19937_64 rng(9);
    for (int i = 0; i < 10000; ++i) {
        const Tick t = rng() % 3 == 0 ? gpu.cycle_to_tick(rng() % 1000) : rng() % 1'000'000;
        EdgeClock& e = rng() % 2 ? a : b;
        EXPECT_EQ(e.edge_cycle(t), gpu.edge_cycle(t)) << t;
        EXPECT_EQ(gpu.remembered_edge_cycle(t), gpu.edge_cycle(t)) << t;
    }
}

TEST(OwnedClock, OutlivesTheComponentThatReferencesIt) {
    // A component keeps a reference to the domain of its own base: it must be the
    // OwnedClock's member, not a temporary.
    struct Owner : OwnedClock {
        Owner() : OwnedClock(ClockDomain("own", 500'000'000)), clock_ref(own_clock) {}
        const ClockDomain& clock_ref;
    };
    Owner o;
    EXPECT_EQ(&o.clock_ref, &o.own_clock);
    EXPECT_EQ(o.clock_ref.cycle_to_tick(3), 6000u);  // 3 cycles x 2000 ps
}

TEST(ClockDomain, RejectsZeroFrequency) { EXPECT_THROW(ClockDomain("x", 0), ConfigError); }

}  // namespace
}  // namespace zng
