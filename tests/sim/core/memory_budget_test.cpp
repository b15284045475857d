// run.memory_limit's budget for arrays allocated up front: charges add up, the one that
// would pass the limit is refused naming its array and the setting, and a refused charge
// leaves the sum as it was.
#include "sim/core/memory_budget.hpp"

#include <gtest/gtest.h>

#include "sim/core/errors.hpp"
#include "sim/core/ring_queue.hpp"

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

}  // namespace
}  // namespace zng
