#include <gtest/gtest.h>

#include <vector>

#include "storage/gofs/range_lock.hpp"

namespace zng::storage::gofs {
namespace {

TEST(GofsRangeLock, OverlappingWritesSerialise) {
    RangeLock lock;
    std::vector<uint64_t> granted;
    EXPECT_TRUE(lock.acquire(1, 0, 8192));      // [0, 8192)
    EXPECT_FALSE(lock.acquire(2, 4096, 8192));  // [4096, 12288) overlaps: waits
    lock.release(1, granted);
    ASSERT_EQ(granted.size(), 1u);
    EXPECT_EQ(granted[0], 2u);
}

TEST(GofsRangeLock, DisjointWritesProceedTogether) {
    RangeLock lock;
    EXPECT_TRUE(lock.acquire(1, 0, 4096));
    EXPECT_TRUE(lock.acquire(2, 4096, 4096));  // [4096, 8192) touches, does not overlap
    EXPECT_TRUE(lock.acquire(3, 1 << 20, 4096));
    EXPECT_EQ(lock.held(), 3u);
}

TEST(GofsRangeLock, OverlappingReadsShareAWriteWaitsForThemAndLaterReadsForIt) {
    RangeLock lock;
    std::vector<uint64_t> granted;
    EXPECT_TRUE(lock.acquire(1, 0, 8192, true));       // read [0, 8K)
    EXPECT_TRUE(lock.acquire(2, 4096, 8192, true));    // read [4K, 12K): shares with read 1
    EXPECT_FALSE(lock.acquire(3, 4096, 4096, false));  // write [4K, 8K): waits for both reads
    EXPECT_FALSE(lock.acquire(4, 4096, 4096, true));   // read [4K, 8K): behind the waiting write
    EXPECT_TRUE(lock.acquire(5, 0, 4096, true));       // read [0, 4K): overlaps read 1 only
    lock.release(1, granted);                          // read 2 still holds the write's range
    EXPECT_TRUE(granted.empty());
    lock.release(2, granted);
    EXPECT_EQ(granted, std::vector<uint64_t>{3});
    granted.clear();
    lock.release(3, granted);
    EXPECT_EQ(granted, std::vector<uint64_t>{4});
}

TEST(GofsRangeLock, ALaterSmallRangeDoesNotOvertakeAnEarlierLargeOne) {
    RangeLock lock;
    std::vector<uint64_t> granted;
    EXPECT_TRUE(lock.acquire(1, 0, 4096));        // A: [0, 4K)
    EXPECT_FALSE(lock.acquire(2, 0, 65536));      // B: [0, 64K), waits for A
    EXPECT_FALSE(lock.acquire(3, 8192, 4096));    // C: [8K, 12K), free of A but behind B
    lock.release(1, granted);                     // B goes, C still behind B
    ASSERT_EQ(granted, std::vector<uint64_t>{2});
    granted.clear();
    lock.release(2, granted);
    EXPECT_EQ(granted, std::vector<uint64_t>{3});
}

}  // namespace
}  // namespace zng::storage::gofs
