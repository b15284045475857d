// The L1's refused accesses: an access the L1 cannot take now is refused, counted once
// per offer, and taken once the reason is gone (an MSHR freed, room in the miss
// queue). A refusal whose reason still holds is answered without a lookup, which must
// never refuse an access that a lookup would take.
#include <gtest/gtest.h>

#include <vector>

#include "l1_rig.hpp"

namespace zng::gpu {
namespace {

using testing::L1Rig;

TEST(L1Refusal, AFullMshrTableRefusesEveryOfferUntilAFillFreesAnEntry) {
    L1Config cfg;
    cfg.mshr_entries = 1;
    L1Rig rig(cfg);
    // Line 0 misses and takes the only MSHR; line 1 (paddr 128) finds none free.
    MemRequest* a = rig.load(0);
    MemRequest* b = rig.load(128);
    EXPECT_TRUE(rig.l1.access(a));
    EXPECT_FALSE(rig.l1.access(b));
    // Offered twice more with nothing changed: refused each time, each offer counted
    // (1 + 2 = 3 refusals).
    EXPECT_FALSE(rig.l1.access(b));
    EXPECT_FALSE(rig.l1.access(b));
    EXPECT_EQ(rig.fails(), 3.0);
    rig.client.waiting.push_back(b);
    // When a's fill leaves for the memory (cycle 1) the L1 may take an access again, but
    // b's reason holds (no MSHR is free): the offer the client would make is counted as
    // refusal 4 without calling it. The fill of line 0 (cycle 11) frees the MSHR: the
    // client is unblocked (the only time), offers b, and b is taken (one more miss);
    // both loads complete.
    rig.sim.run();
    EXPECT_EQ(rig.client.unblocks, 1u);
    EXPECT_TRUE(rig.client.waiting.empty());
    EXPECT_EQ(rig.fails(), 4.0);
    EXPECT_EQ(rig.sim.stats().value("l1.misses"), 2.0);
    EXPECT_EQ(rig.client.completed, (std::vector<uint64_t>{0, 128}));
}

TEST(L1Refusal, AnAccessRefusedOnAFullMergeIsTakenOnceItsLineIsFilled) {
    L1Config cfg;
    cfg.mshr_merge = 1;
    L1Rig rig(cfg);
    // Two loads of line 0: the first misses, the second cannot merge (one waiter per
    // MSHR) and is refused.
    MemRequest* a = rig.load(0);
    MemRequest* b = rig.load(0);
    EXPECT_TRUE(rig.l1.access(a));
    EXPECT_FALSE(rig.l1.access(b));
    EXPECT_FALSE(rig.l1.access(b));
    EXPECT_EQ(rig.fails(), 2.0);
    rig.client.waiting.push_back(b);
    // Offered again when a's fill leaves for the memory, the MSHR still full: refusal
    // 3. After the fill, b hits the line just installed: 1 miss, 1 hit.
    rig.sim.run();
    EXPECT_TRUE(rig.client.waiting.empty());
    EXPECT_EQ(rig.sim.stats().value("l1.misses"), 1.0);
    EXPECT_EQ(rig.sim.stats().value("l1.hits"), 1.0);
    EXPECT_EQ(rig.fails(), 3.0);
}

TEST(L1Refusal, AnAccessRefusedOnAFullMissQueueIsTakenWhenTheQueueDrains) {
    L1Config cfg;
    cfg.miss_queue = 1;
    // The memory holds one request at a time, so the second fill waits in the L1's
    // miss queue until the first is answered.
    L1Rig rig(cfg, 1);
    MemRequest* a = rig.load(0);
    MemRequest* b = rig.load(128);
    MemRequest* c = rig.load(256);
    rig.client.offer(a);
    rig.client.offer(b);
    rig.client.offer(c);
    // a's fill holds the miss queue's one slot while its lookup runs (until cycle 1), so
    // b is refused (1) and c waits behind it.
    EXPECT_EQ(rig.fails(), 1.0);
    ASSERT_EQ(rig.client.waiting.size(), 2u);
    rig.sim.run();
    // Cycle 1: a's fill goes to the memory, the slot frees, b is taken and holds the
    // slot; c is refused (2). Cycle 2: b's fill is refused by the busy memory and stays
    // in the queue, so c's reason holds and its offer is counted refused again (3). Cycle 11: a's fill
    // returns (a done) and c, offered, still finds the queue full (4); the memory's
    // retry then sends b's fill, the queue has room, and c is taken; its fill waits in
    // the queue from cycle 12. Cycle 21: b done, c's fill sent; cycle 31: c done.
    EXPECT_TRUE(rig.client.waiting.empty());
    EXPECT_EQ(rig.fails(), 4.0);
    EXPECT_EQ(rig.sim.stats().value("l1.misses"), 3.0);
    EXPECT_EQ(rig.client.completed, (std::vector<uint64_t>{0, 128, 256}));
    EXPECT_EQ(rig.client.completed_at, (std::vector<Tick>{11 * kNanosecond, 21 * kNanosecond, 31 * kNanosecond}));
}

}  // namespace
}  // namespace zng::gpu
