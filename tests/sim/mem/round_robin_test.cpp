// Round-robin retry order: the requester after the one that went first last time goes
// first, and a pass visits every requester once.
#include <gtest/gtest.h>

#include <vector>

#include "sim/mem/round_robin.hpp"

namespace zng {
namespace {

// One pass over four requesters of which `waiting` are retried; returns the visit order
// and the requesters retried, in order.
struct Pass {
    std::vector<uint32_t> visited, retried;
};
Pass run_pass(RoundRobin& rr, std::vector<bool> waiting) {
    Pass p;
    rr.pass([&](uint32_t i) {
        p.visited.push_back(i);
        if (!waiting[i]) return false;
        p.retried.push_back(i);
        return true;
    });
    return p;
}

TEST(RoundRobin, TheTurnMovesPastTheFirstRequesterRetried) {
    RoundRobin rr(4);
    // Requesters 0, 1 and 2 wait: 0 goes first, so 1 has the next turn.
    Pass a = run_pass(rr, {true, true, true, false});
    EXPECT_EQ(a.visited, (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(a.retried, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(rr.next(), 1u);
    // The same three wait again: 1 goes first, 0 last.
    Pass b = run_pass(rr, {true, true, true, false});
    EXPECT_EQ(b.visited, (std::vector<uint32_t>{1, 2, 3, 0}));
    EXPECT_EQ(b.retried, (std::vector<uint32_t>{1, 2, 0}));
    EXPECT_EQ(rr.next(), 2u);
    // Only 0 waits: it is reached after 2 and 3, and the turn passes to 1.
    Pass c = run_pass(rr, {true, false, false, false});
    EXPECT_EQ(c.visited, (std::vector<uint32_t>{2, 3, 0, 1}));
    EXPECT_EQ(c.retried, (std::vector<uint32_t>{0}));
    EXPECT_EQ(rr.next(), 1u);
    // Nobody waits: the turn stays.
    Pass d = run_pass(rr, {false, false, false, false});
    EXPECT_TRUE(d.retried.empty());
    EXPECT_EQ(rr.next(), 1u);
}

TEST(RoundRobin, TheLastRequesterHandsTheTurnToTheFirst) {
    RoundRobin rr(3);
    run_pass(rr, {false, false, true});
    EXPECT_EQ(rr.next(), 0u);
}

}  // namespace
}  // namespace zng
