#include "sim/core/cycle_calendar.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <tuple>
#include <type_traits>
#include <vector>

#include "sim/core/timed_queue.hpp"

namespace zng {
namespace {

// 1 GHz: edge n at tick 1000 n.
const ClockDomain kGHz("ghz", 1'000'000'000);

TEST(CycleCalendar, HandsOutInCycleThenPushOrderWithOneEvent) {
    Simulator sim;
    std::vector<std::pair<int, Tick>> out;
    CycleCalendar<int> cal(sim, kGHz, 10, [&](int& v) { out.emplace_back(v, sim.now()); });
    cal.push(1, 5);
    cal.push(2, 1);
    cal.push(3, 1);  // same cycle as 2: after 2
    cal.push(4, 3);
    cal.push(5, 10);  // the horizon itself is allowed
    EXPECT_EQ(cal.size(), 5u);
    EXPECT_EQ(sim.events().size(), 1u);  // one event stands for the whole queue
    sim.run();
    std::vector<std::pair<int, Tick>> want = {{2, 1000}, {3, 1000}, {4, 3000}, {1, 5000}, {5, 10000}};
    EXPECT_EQ(out, want);
    EXPECT_TRUE(cal.empty());
}

TEST(CycleCalendar, ItemsPushedWhileFiringFollowThoseAlreadyThere) {
    // At cycle 2, item 1 pushes 4 for cycle 2 (after 2 and 3, already there) and 5 for
    // cycle 3; 4 pushes 6 for cycle 2 again. Cycle 2 hands out 1 2 3 4 6, then 5.
    Simulator sim;
    std::vector<std::pair<int, Tick>> out;
    CycleCalendar<int>* self = nullptr;
    CycleCalendar<int> cal(sim, kGHz, 4, [&](int& v) {
        out.emplace_back(v, sim.now());
        if (v == 1) {
            self->push(4, 2);
            self->push(5, 3);
        }
        if (v == 4) self->push(6, 2);
    });
    self = &cal;
    cal.push(1, 2);
    cal.push(2, 2);
    cal.push(3, 2);
    sim.run();
    std::vector<std::pair<int, Tick>> want = {{1, 2000}, {2, 2000}, {3, 2000}, {4, 2000}, {6, 2000}, {5, 3000}};
    EXPECT_EQ(out, want);
}

TEST(CycleCalendar, WrapsAroundTheRing) {
    // Horizon 63: 64 buckets. Items 100 cycles apart land in reused buckets.
    Simulator sim;
    std::vector<std::pair<int, Tick>> out;
    CycleCalendar<int>* self = nullptr;
    CycleCalendar<int> cal(sim, kGHz, 63, [&](int& v) {
        out.emplace_back(v, sim.now());
        if (v < 3) self->push(v + 1, sim.now() / 1000 + 60);
    });
    self = &cal;
    cal.push(0, 50);
    sim.run();
    std::vector<std::pair<int, Tick>> want = {{0, 50000}, {1, 110000}, {2, 170000}, {3, 230000}};
    EXPECT_EQ(out, want);
}

TEST(CycleCalendar, RejectsItemsBeyondTheHorizonOrInThePast) {
    Simulator sim;
    CycleCalendar<int>* self = nullptr;
    bool beyond = false, past = false;
    CycleCalendar<int> cal(sim, kGHz, 8, [&](int&) {
        // At tick 5000 (cycle 5): cycles 5..13 are allowed.
        EXPECT_NO_THROW(self->push(0, 13));
        try {
            self->push(0, 14);
        } catch (const SimError&) {
            beyond = true;
        }
        try {
            self->push(0, 4);
        } catch (const SimError&) {
            past = true;
        }
    });
    self = &cal;
    EXPECT_THROW(cal.push(0, 9), SimError);  // at tick 0: cycles 0..8
    cal.push(0, 5);
    sim.events().run_until(5000);
    EXPECT_TRUE(beyond);
    EXPECT_TRUE(past);
}

TEST(CycleCalendar, HorizonCountsFromTheNextEdgeBetweenEdges) {
    // At tick 2500 the next edge is cycle 3: cycles 3..5 fit a horizon of 2.
    Simulator sim;
    std::vector<int> out;
    CycleCalendar<int> cal(sim, kGHz, 2, [&](int& v) { out.push_back(v); });
    struct Pusher : Event {
        CycleCalendar<int>& cal;
        bool threw = false;
        explicit Pusher(CycleCalendar<int>& c) : cal(c) {}
        void process() override {
            cal.push(1, 5);
            try {
                cal.push(2, 6);
            } catch (const SimError&) {
                threw = true;
            }
            cal.push(3, 3);
        }
    } pusher(cal);
    sim.schedule(pusher, 2500);
    sim.run();
    EXPECT_TRUE(pusher.threw);
    EXPECT_EQ(out, (std::vector<int>{3, 1}));
}

// Every firing of a run, in order: ('q', item) for the queue's items, ('o', n) for
// another component's event. A random mix of pushes (from the handler, at the current
// edge or later, and from the other event between edges) at 1.2 GHz, whose edges are
// not whole ticks apart.
template <class Queue>
std::vector<std::tuple<char, int, Tick>> mixed_run() {
    constexpr Cycle kHorizon = 9;
    Simulator sim;
    const ClockDomain clock("c", 1'200'000'000);
    std::mt19937 rng(5);
    std::vector<std::tuple<char, int, Tick>> log;
    std::unique_ptr<Queue> q;
    int next = 0;
    auto push = [&](Cycle ahead) {
        const Cycle c = clock.edge_cycle(sim.now()) + ahead;
        if constexpr (std::is_same_v<Queue, TimedQueue<int>>)
            q->push(next++, clock.cycle_to_tick(c));
        else
            q->push(next++, c);
    };
    auto handle = [&](int& v) {
        log.emplace_back('q', v, sim.now());
        if (next < 3000)
            for (uint32_t i = rng() % 3; i > 0; --i) push(rng() % (kHorizon + 1));
    };
    if constexpr (std::is_same_v<Queue, TimedQueue<int>>)
        q = std::make_unique<Queue>(sim, handle);
    else
        q = std::make_unique<Queue>(sim, clock, kHorizon, handle);
    struct Other : Event {
        std::function<void()> f;
        void process() override { f(); }
    } other;
    int fired = 0;
    other.f = [&] {
        log.emplace_back('o', fired++, sim.now());
        if (rng() % 2) push(rng() % (kHorizon + 1));
        // Half the time at one of the next edges, where it meets the queue's event.
        const Tick edge = clock.edge_after(sim.now(), rng() % 4);
        const Tick any = sim.now() + rng() % 5000;
        if (fired < 2000) sim.schedule(other, rng() % 2 ? edge : any);
    };
    sim.schedule(other, 0);
    for (int i = 0; i < 5; ++i) push(rng() % (kHorizon + 1));
    sim.run();
    return log;
}

TEST(CycleCalendar, InterleavesWithOtherEventsAsTimedQueueDoes) {
    auto calendar = mixed_run<CycleCalendar<int>>();
    auto heap = mixed_run<TimedQueue<int>>();
    EXPECT_GT(calendar.size(), 2000u);
    EXPECT_EQ(calendar, heap);
}

}  // namespace
}  // namespace zng
