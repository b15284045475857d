// The SM's queue of sleeping warps: which warps wake at a cycle and the earliest pending
// cycle, by hand across the ring's window and its wrap, and against a plain min-heap.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "gpu_model/sm/wake_queue.hpp"

namespace zng::gpu::testing {
namespace {

std::vector<uint32_t> wake(WakeQueue& q, Cycle cycle) {
    std::vector<uint32_t> out;
    q.wake_due(cycle, [&](uint32_t s) { out.push_back(s); });
    std::sort(out.begin(), out.end());
    return out;
}

TEST(WakeQueue, NearAndFarSleepsWakeAtTheirCycles) {
    constexpr Cycle kW = WakeQueue::kWindow;
    WakeQueue q(8);
    EXPECT_TRUE(q.empty());
    q.wake_due(100, [](uint32_t) {});  // the ring now covers cycles 101 .. 100 + kW
    q.add(104, 1);
    q.add(104, 2);
    q.add(130, 3);
    q.add(100 + kW + 10, 4);  // beyond the window: the heap
    q.add(100 + kW, 5);       // the window's last cycle, in the bucket before 101's
    EXPECT_EQ(q.earliest(), 104u);
    EXPECT_EQ(wake(q, 103), std::vector<uint32_t>{});
    EXPECT_EQ(wake(q, 104), (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(q.earliest(), 130u);
    // A jump past several cycles wakes everything due in between.
    EXPECT_EQ(wake(q, 140), std::vector<uint32_t>{3});
    EXPECT_EQ(q.earliest(), 100 + kW);
    // The ring wraps: cycle 100 + kW + 6 (the bucket of cycle 106) is within 141 .. 140 + kW.
    q.add(100 + kW + 6, 6);
    EXPECT_EQ(q.earliest(), 100 + kW);
    EXPECT_EQ(wake(q, 100 + kW + 5), std::vector<uint32_t>{5});
    EXPECT_EQ(q.earliest(), 100 + kW + 6);
    EXPECT_EQ(wake(q, 100 + kW + 6), std::vector<uint32_t>{6});
    EXPECT_EQ(q.earliest(), 100 + kW + 10);
    EXPECT_EQ(wake(q, 10 * kW), std::vector<uint32_t>{4});
    EXPECT_TRUE(q.empty());
}

TEST(WakeQueue, ASleepForACycleAlreadyDrainedIsReportedAndWokenAsItIs) {
    // A phase of zero duration sleeps until the cycle being ticked: the SM ticks that
    // cycle again, so the queue must report it, not the next one.
    WakeQueue q(8);
    q.wake_due(50, [](uint32_t) {});
    q.add(50, 7);
    EXPECT_EQ(q.earliest(), 50u);
    EXPECT_EQ(wake(q, 50), std::vector<uint32_t>{7});
    EXPECT_TRUE(q.empty());
}

TEST(WakeQueue, WakesTheSameWarpsAsAHeap) {
    // Random sleeps, most of 1-100 cycles, some up to three windows long, some for the
    // current cycle, from a cycle that advances by 0-80 between ticks and sometimes by
    // up to two windows; every tick wakes the same set as a min-heap of (cycle, slot),
    // and the earliest pending cycle agrees.
    std::mt19937_64 rng(11);
    WakeQueue q(1 << 17);  // a slot per sleep: each sleeps once
    std::vector<std::pair<Cycle, uint32_t>> heap;
    Cycle now = 0;
    uint32_t next_slot = 0;
    for (int step = 0; step < 40000; ++step) {
        std::vector<uint32_t> want;
        while (!heap.empty() && heap.front().first <= now) {
            want.push_back(heap.front().second);
            std::pop_heap(heap.begin(), heap.end(), std::greater<>());
            heap.pop_back();
        }
        std::sort(want.begin(), want.end());
        ASSERT_EQ(wake(q, now), want) << "cycle " << now;
        for (int n = static_cast<int>(rng() % 4); n > 0; --n) {
            const uint64_t kind = rng() % 8;
            const Cycle sleep = kind == 0 ? 0 : kind == 1 ? 1 + rng() % (3 * WakeQueue::kWindow) : 1 + rng() % 100;
            const Cycle until = now + sleep;
            q.add(until, next_slot);
            heap.emplace_back(until, next_slot++);
            std::push_heap(heap.begin(), heap.end(), std::greater<>());
        }
        ASSERT_EQ(q.empty(), heap.empty());
        if (!heap.empty()) {
            ASSERT_EQ(q.earliest(), heap.front().first) << "cycle " << now;
        }
        now += rng() % 16 == 0 ? rng() % (2 * WakeQueue::kWindow) : rng() % 81;
    }
}

}  // namespace
}  // namespace zng::gpu::testing
