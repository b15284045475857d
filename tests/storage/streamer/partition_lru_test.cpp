// The host DRAM LRU of partitions: eviction order and sizes by hand.
#include <gtest/gtest.h>

#include "storage/streamer/partition_lru.hpp"

namespace zng::storage::streamer {
namespace {

TEST(PartitionLru, EvictsTheLeastRecentlyUsedToFit) {
    // 10 B of room: 1 (4 B) and 2 (4 B) fit; 1 is touched, so 2 is the least recent;
    // 3 (5 B) needs 3 B more than the 2 B free: 2 leaves, 8 - 4 + 5 = 9 B used.
    PartitionLru lru(10);
    std::vector<std::pair<uint64_t, uint64_t>> out;
    lru.insert(1, 4, out);
    lru.insert(2, 4, out);
    EXPECT_TRUE(lru.touch(1));
    lru.insert(3, 5, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], (std::pair<uint64_t, uint64_t>{2, 4}));
    EXPECT_EQ(lru.used(), 9u);
    EXPECT_TRUE(lru.contains(1));
    EXPECT_FALSE(lru.contains(2));
}

TEST(PartitionLru, APartitionLargerThanTheCacheDoesNotEnter) {
    PartitionLru lru(10);
    std::vector<std::pair<uint64_t, uint64_t>> out;
    lru.insert(1, 4, out);
    lru.insert(2, 11, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].first, 2u);
    EXPECT_TRUE(lru.contains(1));
    EXPECT_EQ(lru.used(), 4u);
}

TEST(PartitionLru, EraseFreesItsBytes) {
    PartitionLru lru(10);
    std::vector<std::pair<uint64_t, uint64_t>> out;
    lru.insert(1, 4, out);
    lru.insert(2, 4, out);
    EXPECT_TRUE(lru.erase(1));
    EXPECT_FALSE(lru.erase(1));
    EXPECT_EQ(lru.used(), 4u);
    lru.insert(3, 6, out);  // fits beside 2: nothing evicted
    EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace zng::storage::streamer
