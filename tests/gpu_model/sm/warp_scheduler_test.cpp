// Warp scheduler policies: which candidate greedy-then-oldest and loose round-robin pick,
// worked out by hand, and GTO against a direct search over the candidates' ages.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpu_model/sm/warp_scheduler.hpp"

namespace zng::gpu::testing {
namespace {

WarpMask mask(std::initializer_list<uint32_t> slots) {
    WarpMask m;
    for (uint32_t s : slots) m.set(s);
    return m;
}

TEST(GtoScheduler, OldestCandidateUnlessTheLastIssuerCanGoOn) {
    GtoScheduler g(8);
    // Ages: slot 0 -> 10, 1 -> 5, 2 -> 7, 3 -> 5 (a tie with slot 1: the lower slot is older).
    g.warp_started(0, 10);
    g.warp_started(1, 5);
    g.warp_started(2, 7);
    g.warp_started(3, 5);
    EXPECT_EQ(g.pick(mask({0, 1, 2, 3})), 1u);
    EXPECT_EQ(g.pick(mask({0, 2, 3})), 3u);
    EXPECT_EQ(g.pick(mask({0, 2})), 2u);
    // Greedy: the warp that issued last keeps the scheduler while it is a candidate.
    g.issued(0);
    EXPECT_EQ(g.pick(mask({0, 1})), 0u);
    EXPECT_EQ(g.pick(mask({1, 2})), 1u);
    // Slot 1 gets a new warp, the youngest: slot 3 (age 5) is now the oldest.
    g.warp_started(1, 20);
    g.issued(2);
    EXPECT_EQ(g.pick(mask({1, 3})), 3u);
    EXPECT_EQ(g.pick(mask({1})), 1u);
    EXPECT_EQ(g.pick(WarpMask{}), WarpMask::kNone);
}

TEST(GtoScheduler, PicksAsADirectSearchOverTheCandidatesAges) {
    // Random starts (ages from a growing counter with repeats), issues and candidate
    // sets over 40 slots; the reference takes the last issuer if it is a candidate,
    // else the candidate with the smallest age, the lowest slot among equals.
    std::mt19937_64 rng(7);
    GtoScheduler g(40);
    std::vector<uint64_t> age(40, 0);
    std::vector<bool> started(40, false);
    uint64_t next_age = 0;
    uint32_t last = WarpMask::kNone;
    for (uint32_t s = 0; s < 40; ++s) {
        age[s] = next_age += rng() % 2;
        started[s] = true;
        g.warp_started(s, age[s]);
    }
    for (int step = 0; step < 20000; ++step) {
        if (rng() % 8 == 0) {
            const uint32_t s = static_cast<uint32_t>(rng() % 40);
            age[s] = next_age += rng() % 2;
            g.warp_started(s, age[s]);
        }
        WarpMask cand;
        for (uint32_t s = 0; s < 40; ++s)
            if (rng() % 3 == 0) cand.set(s);
        uint32_t want = WarpMask::kNone;
        if (last != WarpMask::kNone && cand.test(last)) {
            want = last;
        } else {
            for (uint32_t s = 0; s < 40; ++s)
                if (cand.test(s) && (want == WarpMask::kNone || age[s] < age[want])) want = s;
        }
        ASSERT_EQ(g.pick(cand), want) << "step " << step;
        if (want != WarpMask::kNone && rng() % 2) {
            g.issued(want);
            last = want;
        }
    }
}

TEST(LrrScheduler, FirstCandidateAfterTheLastIssuerWrappingAround) {
    LrrScheduler l;
    EXPECT_EQ(l.pick(mask({3, 5})), 3u);
    l.issued(3);
    EXPECT_EQ(l.pick(mask({3, 5})), 5u);
    l.issued(5);
    EXPECT_EQ(l.pick(mask({3, 5})), 3u);
    EXPECT_EQ(l.pick(mask({6})), 6u);
}

}  // namespace
}  // namespace zng::gpu::testing
