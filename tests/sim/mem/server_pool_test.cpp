// The shared server-pool model: jobs hold one of N servers for their service time and
// wait in a FIFO of fixed depth when all are busy. Values computed by hand.
#include "sim/mem/server_pool.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "sim/core/errors.hpp"

namespace zng {
namespace {

TEST(ServerPool, QueuesBeyondTheServersAndCountsTheWait) {
    Simulator sim;
    std::vector<std::pair<int, Tick>> done;  // (job, completion tick)
    ServerPool<int> pool(sim, 2, 1, [&](int& j) { done.push_back({j, sim.now()}); });
    int room_calls = 0;
    pool.set_on_room([&] { ++room_calls; });
    const Tick service = 10 * kNanosecond;
    pool.submit(1, service);  // server 1
    pool.submit(2, service);  // server 2
    EXPECT_TRUE(pool.has_room());  // the one waiting slot is free
    pool.submit(3, service);       // waits
    EXPECT_FALSE(pool.has_room());
    EXPECT_EQ(pool.busy(), 2u);
    EXPECT_EQ(pool.waiting(), 1u);
    EXPECT_THROW(pool.submit(4, service), SimError);
    sim.run();
    // Jobs 1 and 2 end at 10 ns; job 3 starts on the first freed server then and ends
    // at 20 ns, having waited 10 ns.
    const std::vector<std::pair<int, Tick>> expected = {{1, 10'000}, {2, 10'000}, {3, 20'000}};
    EXPECT_EQ(done, expected);
    EXPECT_EQ(pool.jobs(), 3u);
    EXPECT_EQ(pool.wait_time(), 10'000u);
    EXPECT_EQ(pool.busy_time(), 30'000u);  // three services of 10 ns
    EXPECT_EQ(room_calls, 3);              // once per completion
    EXPECT_EQ(pool.busy(), 0u);
}

TEST(ServerPool, NeedsAServer) {
    Simulator sim;
    EXPECT_THROW(ServerPool<int>(sim, 0, 4, [](int&) {}), SimError);
}

}  // namespace
}  // namespace zng
