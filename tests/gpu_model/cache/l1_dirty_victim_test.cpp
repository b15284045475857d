// Dirty lines of the L1: a line written under write-back (a global store with the
// write_back policy, or any local store) is written back to the L2 when it is evicted
// or when an atomic drops it; a clean victim leaves without traffic.
#include <gtest/gtest.h>

#include "l1_rig.hpp"

namespace zng::gpu {
namespace {

using testing::L1Rig;

// One set of two ways: 2 ways x 128 B lines = 256 B.
L1Config one_set() {
    L1Config cfg;
    cfg.size = 256;
    cfg.ways = 2;
    return cfg;
}

TEST(L1DirtyVictim, AStoredLineIsWrittenBackWhenEvictedAndACleanOneIsNot) {
    L1Config cfg = one_set();
    cfg.write_policy = WritePolicy::WriteBack;
    L1Rig rig(cfg);
    // The store to line 0 fetches it (write-allocate) and dirties it; line 1 fills the
    // other way, clean.
    rig.client.offer(rig.request(MemOp::Write, 0));
    rig.sim.run();
    rig.client.offer(rig.load(128));
    rig.sim.run();
    EXPECT_EQ(rig.sim.stats().value("l1.writebacks"), 0.0);
    // Line 2 evicts the least recently used line, line 0 (filled first): one write-back
    // of 128 B.
    rig.client.offer(rig.load(256));
    rig.sim.run();
    EXPECT_EQ(rig.sim.stats().value("l1.writebacks"), 1.0);
    EXPECT_EQ(rig.memory.requests(MemOp::Writeback), 1u);
    EXPECT_EQ(rig.memory.medium_bytes_written(), 128u);
    // Line 3 evicts line 1, clean: no more write-backs. Four fills in all.
    rig.client.offer(rig.load(384));
    rig.sim.run();
    EXPECT_EQ(rig.sim.stats().value("l1.writebacks"), 1.0);
    EXPECT_EQ(rig.memory.requests(MemOp::Read), 4u);
}

TEST(L1DirtyVictim, ALocalLineAllocatedByAStoreIsWrittenBackWhenEvicted) {
    L1Rig rig(one_set());  // write-through for global data; local data is written back
    // The local store allocates line 0 without fetching it; line 1 is fetched.
    rig.client.offer(rig.request(MemOp::Write, 0, /*local=*/true));
    rig.client.offer(rig.load(128));
    rig.sim.run();
    EXPECT_EQ(rig.memory.requests(MemOp::Read), 1u);
    // Line 2 evicts line 0, the least recently used: written back once.
    rig.client.offer(rig.load(256));
    rig.sim.run();
    EXPECT_EQ(rig.sim.stats().value("l1.writebacks"), 1.0);
    EXPECT_EQ(rig.memory.requests(MemOp::Writeback), 1u);
    // Line 0 again: a miss (it was evicted) that evicts line 1, clean. Then line 3
    // evicts line 2, which took the dirty line's way but is clean itself.
    rig.client.offer(rig.load(0));
    rig.sim.run();
    rig.client.offer(rig.load(384));
    rig.sim.run();
    EXPECT_EQ(rig.sim.stats().value("l1.writebacks"), 1.0);
    EXPECT_EQ(rig.memory.requests(MemOp::Read), 4u);
}

TEST(L1DirtyVictim, AnAtomicWritesADirtyLineBackAndDropsIt) {
    L1Rig rig(one_set());
    rig.client.offer(rig.request(MemOp::Write, 0, /*local=*/true));
    rig.sim.run();
    // The atomic is performed at the L2: the dirty copy goes first, then the atomic.
    rig.client.offer(rig.request(MemOp::Atomic, 0));
    rig.sim.run();
    EXPECT_EQ(rig.memory.requests(MemOp::Writeback), 1u);
    EXPECT_EQ(rig.memory.requests(MemOp::Atomic), 1u);
    // The line is gone: a load of it misses, and its later eviction writes nothing
    // back (lines 1 and 2 push it out; line 0 was refetched clean).
    rig.client.offer(rig.load(0));
    rig.client.offer(rig.load(128));
    rig.sim.run();
    rig.client.offer(rig.load(256));
    rig.sim.run();
    EXPECT_EQ(rig.sim.stats().value("l1.misses"), 3.0);
    EXPECT_EQ(rig.sim.stats().value("l1.writebacks"), 1.0);
}

}  // namespace
}  // namespace zng::gpu
