// run.memory_limit's budget for arrays allocated up front: charges add up, the one that
// would pass the limit is refused naming its array and the setting, and a refused charge
// leaves the sum as it was.
#include "sim/core/memory_budget.hpp"

#include <gtest/gtest.h>

#include "sim/core/errors.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/simulator.hpp"

namespace zng {
namespace {

TEST(MemoryBudget, ChargesAddUpToTheLimitAndTheOneBeyondIsRefusedByName) {
    MemoryBudget b;
    b.set_limit(1000, "cfg.yaml:3: key 'run.memory_limit'");
    EXPECT_EQ(b.reserve(10, 64, "queues"), 10u);  // 640 B
    EXPECT_EQ(b.reserve(45, 8, "rings"), 45u);    // 360 B: exactly 1000
    EXPECT_EQ(b.charged(), 1000u);
    try {
        b.reserve(1, 1, "segment table");
        FAIL() << "a charge past the limit was accepted";
    } catch (const SimError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("segment table"), std::string::npos) << what;
        EXPECT_NE(what.find("cfg.yaml:3: key 'run.memory_limit'"), std::string::npos) << what;
    }
    EXPECT_EQ(b.charged(), 1000u);
}

TEST(MemoryBudget, ACountTimesSizePastSixtyFourBitsIsRefusedNotWrapped) {
    MemoryBudget b;
    b.set_limit(1ull << 30, "limit");
    // 2^40 elements of 2^30 bytes: 2^70 bytes, which wraps to 0 in 64-bit arithmetic.
    EXPECT_THROW(b.reserve(size_t{1} << 40, size_t{1} << 30, "huge"), SimError);
    EXPECT_EQ(b.charged(), 0u);
}

TEST(MemoryBudget, NoLimitAcceptsEverything) {
    MemoryBudget b;
    EXPECT_EQ(b.reserve(size_t{1} << 20, 1 << 10, "a GiB"), size_t{1} << 20);
    EXPECT_EQ(b.charged(), uint64_t{1} << 30);
}

TEST(MemoryBudget, AChargedRingIsChargedItsPowerOfTwoCapacity) {
    MemoryBudget b;
    const RingQueue<uint64_t> q = RingQueue<uint64_t>::charged(b, 100, "queue");  // 128 slots
    EXPECT_EQ(q.capacity(), 128u);
    EXPECT_EQ(b.charged(), 128u * 8);
    b.set_limit(128 * 8 + 100 * 8, "limit");
    EXPECT_THROW(RingQueue<uint64_t>::charged(b, 100, "queue"), SimError);  // another 1 KiB
}

// A statistic costs its object, its name twice (itself and the index key), its
// description and unit, and 96 B of index; a histogram also its buckets.
TEST(MemoryBudget, StatisticsAreChargedAsTheyAreRegistered) {
    Simulator sim;
    MemoryBudget& b = sim.memory_budget();
    sim.stats().counter("a.b", "four", "ms");  // 3 x 2 + 4 + 2 + 96 = 108 B beside the Counter
    EXPECT_EQ(b.charged(), sizeof(Counter) + 108);
    const uint64_t before = b.charged();
    sim.stats().histogram("h", "d", "u", 10, 64);  // 64 buckets of 8 B, then 1 x 2 + 1 + 1 + 96
    EXPECT_EQ(b.charged() - before, 64 * 8 + sizeof(Histogram) + 100);
    b.set_limit(b.charged() + 50, "limit");
    EXPECT_THROW(sim.stats().counter("c", "d", "u"), SimError);
    EXPECT_EQ(sim.stats().find("c"), nullptr);
}

}  // namespace
}  // namespace zng
