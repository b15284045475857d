// Per-file cache space (storage/cache_vol/cache_space.hpp): which file each policy drops.
#include <gtest/gtest.h>

#include <vector>

#include "storage/cache_vol/cache_space.hpp"

namespace zng::storage::cache_vol {
namespace {

// Files 1, 2, 3, 4 reserve 100 B each in that order (orders 1-4), then accesses
// 2, 2, 1, 1, 3, 3, 4 (orders 5-11). Uses: 1:2, 2:2, 3:2, 4:1. Last use: 1:8, 2:6,
// 3:10, 4:11. First reserved: 1.
CacheSpace filled(EvictionPolicy p) {
    CacheSpace s(400, p);
    for (uint64_t f : {1, 2, 3, 4}) EXPECT_TRUE(s.reserve(f, 100));
    for (uint64_t f : {2, 2, 1, 1, 3, 3, 4}) s.touch(f);
    return s;
}

TEST(CacheSpace, FifoDropsTheFirstReserved) {
    EXPECT_EQ(filled(EvictionPolicy::Fifo).victim(0), 1u);  // reserved first
}

TEST(CacheSpace, LruDropsTheLeastRecentlyUsed) {
    EXPECT_EQ(filled(EvictionPolicy::Lru).victim(0), 2u);  // last used at order 6, the others at 8-11
}

TEST(CacheSpace, LfuDropsTheLeastFrequentlyUsed) {
    EXPECT_EQ(filled(EvictionPolicy::Lfu).victim(0), 4u);  // 1 use against 2 for the others
}

TEST(CacheSpace, AReservationThatDoesNotFitDropsVictimsUntilItDoes) {
    CacheSpace s = filled(EvictionPolicy::Lru);
    std::vector<uint64_t> dropped;
    s.on_evict = [&](uint64_t f) { dropped.push_back(f); };
    // 400 used of 400: 150 B for file 5 needs two 100 B files gone, LRU order 2 then 1
    // (last uses 6 and 8); 400 - 200 + 150 = 350 B used after.
    EXPECT_TRUE(s.reserve(5, 150));
    EXPECT_EQ(dropped, (std::vector<uint64_t>{2, 1}));
    EXPECT_EQ(s.used(), 350u);
    EXPECT_EQ(s.evictions(), 2u);
    EXPECT_FALSE(s.holds(2));
    EXPECT_TRUE(s.holds(3));
}

TEST(CacheSpace, PinnedFilesAreNeverVictimsAndATooLargeReservationDropsNothing) {
    CacheSpace s = filled(EvictionPolicy::Fifo);
    s.pin(1);
    EXPECT_EQ(s.victim(0), 2u);  // 1 is first in but pinned (data awaiting migration)
    // Unpinned others: 2, 3, 4 = 300 B freeable + 0 free < 350 B: refused, nothing dropped.
    EXPECT_FALSE(s.reserve(5, 350));
    EXPECT_EQ(s.used(), 400u);
    EXPECT_EQ(s.evictions(), 0u);
    s.release(1);  // a pinned file stays
    EXPECT_TRUE(s.holds(1));
    s.unpin(1);
    s.release(1);
    EXPECT_FALSE(s.holds(1));
    EXPECT_EQ(s.used(), 300u);
}

}  // namespace
}  // namespace zng::storage::cache_vol
