#include <gtest/gtest.h>

#include <algorithm>
#include <random>
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

// The lock's rules written out literally, as an independent reference: ranges in
// acquisition order; a range is granted once no earlier range still present overlaps
// it, unless both are reads; after every release, every waiting range is checked in
// acquisition order.
class ReferenceRangeLock {
public:
    bool acquire(uint64_t id, uint64_t offset, uint64_t bytes, bool shared) {
        ranges_.push_back({id, offset, offset + bytes, shared, false});
        ranges_.back().granted = !held_back(ranges_.size() - 1);
        return ranges_.back().granted;
    }
    void release(uint64_t id, std::vector<uint64_t>& granted) {
        ranges_.erase(std::find_if(ranges_.begin(), ranges_.end(), [id](const Range& r) { return r.id == id; }));
        for (size_t i = 0; i < ranges_.size(); ++i)
            if (!ranges_[i].granted && !held_back(i)) {
                ranges_[i].granted = true;
                granted.push_back(ranges_[i].id);
            }
    }

private:
    struct Range {
        uint64_t id, begin, end;
        bool shared, granted;
    };
    bool held_back(size_t i) const {
        for (size_t j = 0; j < i; ++j)
            if (ranges_[j].begin < ranges_[i].end && ranges_[i].begin < ranges_[j].end &&
                !(ranges_[i].shared && ranges_[j].shared))
                return true;
        return false;
    }
    std::vector<Range> ranges_;
};

TEST(GofsRangeLock, GrantsWhatTheRulesWrittenOutGrantOnRandomTraffic) {
    // Reads and writes of 4-64 KiB over 1 MiB, up to 200 in flight: many wait, some
    // behind several others, and releases free several at once.
    std::mt19937_64 rng(20261130);
    RangeLock lock;
    ReferenceRangeLock reference;
    std::vector<uint64_t> holding;
    uint64_t next_id = 1, in_flight = 0, waits = 0, multi_grants = 0;
    for (int step = 0; step < 40000; ++step) {
        if (holding.empty() || (in_flight < 200 && rng() % 2)) {
            const uint64_t offset = rng() % 256 * 4096;
            const uint64_t bytes = (rng() % 8 == 0 ? 1 + rng() % 16 : 1) * 4096;
            const bool shared = rng() % 3 != 0;
            const uint64_t id = next_id++;
            const bool granted = lock.acquire(id, offset, bytes, shared);
            ASSERT_EQ(granted, reference.acquire(id, offset, bytes, shared)) << "acquire of " << id;
            ++in_flight;
            if (granted) holding.push_back(id);
            else ++waits;
        } else {
            const size_t k = rng() % holding.size();
            const uint64_t id = holding[k];
            holding.erase(holding.begin() + static_cast<std::ptrdiff_t>(k));
            std::vector<uint64_t> granted, expected;
            lock.release(id, granted);
            reference.release(id, expected);
            ASSERT_EQ(granted, expected) << "release of " << id;
            --in_flight;
            if (granted.size() > 1) ++multi_grants;
            holding.insert(holding.end(), granted.begin(), granted.end());
        }
    }
    EXPECT_GT(waits, 4000u) << multi_grants;
    EXPECT_GT(multi_grants, 500u) << waits;
}

}  // namespace
}  // namespace zng::storage::gofs
