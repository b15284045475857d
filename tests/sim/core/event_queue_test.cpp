#include "sim/core/event_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/timed_queue.hpp"

namespace zng {
namespace {

// An event that appends its id and the tick it fired at to a shared log.
struct LogEvent : Event {
    LogEvent(EventQueue& q, std::vector<std::pair<int, Tick>>& log, int id) : q(q), log(log), id(id) {}
    void process() override { log.emplace_back(id, q.now()); }
    EventQueue& q;
    std::vector<std::pair<int, Tick>>& log;
    int id;
};

TEST(EventQueue, FiresInTickOrder) {
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    LogEvent a(q, log, 1), b(q, log, 2), c(q, log, 3);
    q.schedule(a, 300);
    q.schedule(b, 100);
    q.schedule(c, 200);
    while (q.step()) {}
    ASSERT_EQ(log.size(), 3u);
    EXPECT_EQ(log[0], std::make_pair(2, Tick{100}));
    EXPECT_EQ(log[1], std::make_pair(3, Tick{200}));
    EXPECT_EQ(log[2], std::make_pair(1, Tick{300}));
}

TEST(EventQueue, SameTickFiresInInsertionOrder) {
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    std::vector<std::unique_ptr<LogEvent>> evs;
    // 50 events at the same tick, scheduled in a shuffled id order: they must fire in
    // exactly the order they were scheduled.
    std::vector<int> order(50);
    for (int i = 0; i < 50; ++i) order[i] = i;
    std::mt19937 rng(7);
    std::shuffle(order.begin(), order.end(), rng);
    for (int i = 0; i < 50; ++i) evs.push_back(std::make_unique<LogEvent>(q, log, i));
    for (int id : order) q.schedule(*evs[id], 1000);
    while (q.step()) {}
    ASSERT_EQ(log.size(), 50u);
    for (int i = 0; i < 50; ++i) EXPECT_EQ(log[i].first, order[i]);
}

TEST(EventQueue, RescheduleMovesAndDescheduleCancels) {
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    LogEvent a(q, log, 1), b(q, log, 2);
    q.schedule(a, 100);
    q.schedule(b, 200);
    q.schedule(a, 300);  // moved: fires once, at 300
    q.deschedule(b);
    EXPECT_EQ(q.size(), 1u);
    while (q.step()) {}
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0], std::make_pair(1, Tick{300}));
    EXPECT_FALSE(a.scheduled());
}

TEST(EventQueue, PastSchedulingIsAnError) {
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    LogEvent a(q, log, 1), b(q, log, 2);
    q.schedule(a, 500);
    q.step();
    EXPECT_THROW(q.schedule(b, 499), SimError);
}

TEST(EventQueue, DeterministicUnderRandomLoad) {
    // Two identical pseudo-random schedules produce identical firing sequences,
    // including events that reschedule themselves while firing.
    auto run = [] {
        EventQueue q;
        std::vector<std::pair<int, Tick>> log;
        struct Self : Event {
            EventQueue& q;
            std::vector<std::pair<int, Tick>>& log;
            int id;
            std::mt19937_64& rng;
            int left = 20;
            Self(EventQueue& q, std::vector<std::pair<int, Tick>>& l, int id, std::mt19937_64& r)
                : q(q), log(l), id(id), rng(r) {}
            void process() override {
                log.emplace_back(id, q.now());
                if (--left > 0) q.schedule(*this, q.now() + rng() % 5);
            }
        };
        std::mt19937_64 rng(42);
        std::vector<std::unique_ptr<Self>> evs;
        for (int i = 0; i < 100; ++i) {
            evs.push_back(std::make_unique<Self>(q, log, i, rng));
            q.schedule(*evs.back(), rng() % 10);
        }
        while (q.step()) {}
        return log;
    };
    auto a = run();
    auto b = run();
    EXPECT_EQ(a.size(), 2000u);
    EXPECT_EQ(a, b);
    for (size_t i = 1; i < a.size(); ++i) EXPECT_LE(a[i - 1].second, a[i].second);
}

TEST(EventQueue, MatchesAReferenceOrderUnderMovesAndCancels) {
    // 300 events, randomly scheduled, moved earlier or later, cancelled and rescheduled
    // while others fire: the firing order must be (tick, last scheduling order), as a
    // plain sorted list of the live schedulings says.
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    std::vector<std::unique_ptr<LogEvent>> evs;
    for (int i = 0; i < 300; ++i) evs.push_back(std::make_unique<LogEvent>(q, log, i));
    std::vector<std::pair<Tick, uint64_t>> ref(300, {0, 0});  // (tick, order); order 0 = not scheduled
    uint64_t order = 0;
    std::mt19937_64 rng(5);
    std::vector<std::pair<int, Tick>> want;
    for (int round = 0; round < 40; ++round) {
        for (int k = 0; k < 60; ++k) {
            int id = static_cast<int>(rng() % 300);
            if (rng() % 5 == 0) {
                q.deschedule(*evs[id]);
                ref[id].second = 0;
            } else {
                Tick t = q.now() + rng() % 50;
                q.schedule(*evs[id], t);
                ref[id] = {t, ++order};
            }
        }
        // Fire the 30 earliest live events (or all, if fewer), checking each against ref.
        for (int k = 0; k < 30 && !q.empty(); ++k) {
            int best = -1;
            for (int i = 0; i < 300; ++i)
                if (ref[i].second && (best < 0 || ref[i] < ref[best])) best = i;
            want.emplace_back(best, ref[best].first);
            ref[best].second = 0;
            ASSERT_TRUE(q.step());
        }
    }
    EXPECT_EQ(log, want);
    EXPECT_GT(log.size(), 1000u);
}

// An event that logs its id and tick, then runs an optional action (to schedule others
// while firing).
struct ActEvent : Event {
    ActEvent(EventQueue& q, std::vector<std::pair<int, Tick>>& log, int id) : q(q), log(log), id(id) {}
    void process() override {
        log.emplace_back(id, q.now());
        if (act) act();
    }
    EventQueue& q;
    std::vector<std::pair<int, Tick>>& log;
    int id;
    std::function<void()> act;
};

TEST(EventQueue, EventsScheduledForTheCurrentTickFireAfterThoseScheduledEarlier) {
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    ActEvent a(q, log, 1), b(q, log, 2), c(q, log, 3), d(q, log, 4), e(q, log, 5), f(q, log, 6);
    // Sequence numbers: a@100 is 1st, b@100 2nd, c@50 3rd. c fires at 50 and schedules
    // d@100 (4th); at 100, a fires first and schedules e@100 (5th) and f@100 (6th), which
    // join the tick after b and d: 50:c, then 100: a, b, d, e, f.
    c.act = [&] { q.schedule(d, 100); };
    a.act = [&] {
        q.schedule(e, 100);
        q.schedule(f, q.now());
    };
    q.schedule(a, 100);
    q.schedule(b, 100);
    q.schedule(c, 50);
    while (q.step()) {}
    std::vector<std::pair<int, Tick>> want = {{3, 50}, {1, 100}, {2, 100}, {4, 100}, {5, 100}, {6, 100}};
    EXPECT_EQ(log, want);
}

TEST(EventQueue, ReschedulingToTheSameTickMovesAnEventBehindTheOthers) {
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    ActEvent a(q, log, 1), b(q, log, 2), c(q, log, 3), d(q, log, 4);
    q.schedule(a, 100);  // seq 1
    q.schedule(b, 100);  // seq 2
    q.schedule(c, 100);  // seq 3
    q.schedule(d, 200);  // seq 4
    q.schedule(a, 100);  // seq 5: same tick, now after c
    q.schedule(b, 300);  // later tick
    q.schedule(d, 100);  // seq 7: earlier tick, after a
    q.schedule(b, 100);  // seq 8: back to 100, last
    EXPECT_EQ(q.size(), 4u);
    // At 100 by sequence: c (3), a (5), d (7), b (8); nothing is left at 200 or 300.
    while (q.step()) {}
    std::vector<std::pair<int, Tick>> want = {{3, 100}, {1, 100}, {4, 100}, {2, 100}};
    EXPECT_EQ(log, want);
    EXPECT_EQ(q.now(), 100u);
}

TEST(EventQueue, DescheduledEventsLeaveNoTickBehind) {
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    ActEvent a(q, log, 1), b(q, log, 2), c(q, log, 3);
    q.schedule(a, 100);
    q.schedule(b, 100);
    q.schedule(c, 400);
    q.deschedule(a);
    q.deschedule(b);
    // Every event of tick 100 is cancelled: the next tick is 400.
    EXPECT_EQ(q.next_tick(), 400u);
    EXPECT_EQ(q.size(), 1u);
    q.schedule(a, 250);  // a new entry; the cancelled one at 100 stays dead
    q.schedule(b, 400);  // after c at 400
    while (q.step()) {}
    std::vector<std::pair<int, Tick>> want = {{1, 250}, {3, 400}, {2, 400}};
    EXPECT_EQ(log, want);
    EXPECT_EQ(q.next_tick(), kMaxTick);
}

TEST(EventQueue, ManyDistinctTicksFireInTickOrder) {
    // 1000 events at ticks 999*10, 998*10, ..., 0 (all distinct), scheduled latest
    // first: they fire at 0, 10, ..., 9990, event 999 first and event 0 last.
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    std::vector<std::unique_ptr<LogEvent>> evs;
    for (int i = 0; i < 1000; ++i) {
        evs.push_back(std::make_unique<LogEvent>(q, log, i));
        q.schedule(*evs.back(), Tick(999 - i) * 10);
    }
    while (q.step()) {}
    ASSERT_EQ(log.size(), 1000u);
    for (int k = 0; k < 1000; ++k) EXPECT_EQ(log[k], std::make_pair(999 - k, Tick(k) * 10));
}

TEST(EventQueue, TicksInsertedAmidManyPendingOnesFireInTickThenScheduleOrder) {
    // 300 events at pseudo-random ticks in [0, 2000) (so about 280 distinct ticks, many
    // of them landing between pending ones far from the earliest end, and some shared),
    // scheduled in random order. Reference: a stable sort by tick of the scheduling
    // order, i.e. (tick, sequence).
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    std::vector<std::unique_ptr<LogEvent>> evs;
    std::vector<std::pair<int, Tick>> want;
    std::mt19937 rng(11);
    for (int i = 0; i < 300; ++i) {
        const Tick t = rng() % 2000;
        evs.push_back(std::make_unique<LogEvent>(q, log, i));
        q.schedule(*evs.back(), t);
        want.emplace_back(i, t);
    }
    std::stable_sort(want.begin(), want.end(), [](auto& a, auto& b) { return a.second < b.second; });
    while (q.step()) {}
    EXPECT_EQ(log, want);
}

TEST(EventQueue, SchedulingsAlternatingBetweenPendingTicksJoinTheirOwnBuckets) {
    // Schedulings that alternate between pending ticks (found by the tick memo, not the
    // last answer) still fire by tick, then in scheduling order: b, d at 100; a, c, f at
    // 200; e at 300. Then, with 100 and 200 retired, g at 300 joins e's bucket, h opens
    // 400 and i joins 300 again: g, i at 300, h at 400.
    EventQueue q;
    std::vector<std::pair<int, Tick>> log;
    LogEvent a(q, log, 1), b(q, log, 2), c(q, log, 3), d(q, log, 4), e(q, log, 5), f(q, log, 6);
    LogEvent g(q, log, 7), h(q, log, 8), i(q, log, 9);
    q.schedule(a, 200);
    q.schedule(b, 100);
    q.schedule(c, 200);
    q.schedule(d, 100);
    q.schedule(e, 300);
    q.schedule(f, 200);
    for (int n = 0; n < 5; ++n) ASSERT_TRUE(q.step());
    q.schedule(g, 300);
    q.schedule(h, 400);
    q.schedule(i, 300);
    while (q.step()) {}
    const std::vector<std::pair<int, Tick>> want{{2, 100}, {4, 100}, {1, 200}, {3, 200}, {6, 200},
                                                 {5, 300}, {7, 300}, {9, 300}, {8, 400}};
    EXPECT_EQ(log, want);
}

TEST(TimedQueue, ReleasesItemsInReadyOrderWithOneEvent) {
    Simulator sim;
    std::vector<std::pair<int, Tick>> out;
    TimedQueue<int> tq(sim, [&](int& v) { out.emplace_back(v, sim.now()); });
    tq.push(1, 500);
    tq.push(2, 100);
    tq.push(3, 100);  // same tick as 2: after 2
    tq.push(4, 300);
    // One event stands for the whole queue.
    EXPECT_EQ(sim.events().size(), 1u);
    sim.run();
    std::vector<std::pair<int, Tick>> want = {{2, 100}, {3, 100}, {4, 300}, {1, 500}};
    EXPECT_EQ(out, want);
}

TEST(TimedQueue, ItemsPushedOutOfReadyOrderInterleaveByTickThenPushOrder) {
    // Pushes 1..3 arrive in ready order (the FIFO path), 4 and 5 readier than the last
    // (the heap path). Release order is (ready, push order) over all five:
    // 4@100 (pushed 4th), then at 200: 1 (pushed 1st) before 5 (pushed 5th), then 2@300,
    // 3@300; 6 is pushed while 2 is handled, ready at 300 too, so it follows 3.
    Simulator sim;
    std::vector<std::pair<int, Tick>> out;
    TimedQueue<int>* self = nullptr;
    TimedQueue<int> tq(sim, [&](int& v) {
        out.emplace_back(v, sim.now());
        if (v == 2) self->push(6, 300);
    });
    self = &tq;
    tq.push(1, 200);
    tq.push(2, 300);
    tq.push(3, 300);
    tq.push(4, 100);
    tq.push(5, 200);
    EXPECT_EQ(tq.size(), 5u);
    EXPECT_EQ(tq.next_ready(), Tick{100});
    sim.run();
    std::vector<std::pair<int, Tick>> want = {{4, 100}, {1, 200}, {5, 200}, {2, 300}, {3, 300}, {6, 300}};
    EXPECT_EQ(out, want);
    EXPECT_TRUE(tq.empty());
}

TEST(TimedQueue, MatchesOneHeapOnRandomPushes) {
    // Reference: a stable sort of every item by ready tick (ties in push order) is the
    // release order of a single (ready, sequence) heap. Items are pushed from the
    // handler at now + a random delay, so the two paths mix throughout.
    Simulator sim;
    std::mt19937 rng(7);
    std::vector<std::pair<int, Tick>> out, pushed;
    TimedQueue<int>* self = nullptr;
    int next = 0;
    auto push = [&](Tick ready) {
        pushed.emplace_back(next, ready);
        self->push(next++, ready);
    };
    TimedQueue<int> tq(sim, [&](int& v) {
        out.emplace_back(v, sim.now());
        if (next < 2000) push(sim.now() + rng() % 4 * 10);
    });
    self = &tq;
    for (int i = 0; i < 50; ++i) push(rng() % 20 * 10);
    sim.run();
    ASSERT_EQ(out.size(), 2000u);
    std::vector<std::pair<int, Tick>> want = pushed;
    std::stable_sort(want.begin(), want.end(), [](auto& a, auto& b) { return a.second < b.second; });
    // Released items pushed at the tick they fire join behind their tick's earlier
    // items, which a stable sort by ready tick also puts after them.
    EXPECT_EQ(out, want);
}

}  // namespace
}  // namespace zng
