// SparseTable: storage made on first write, so a huge configured key space costs only
// its top directory until keys are touched.
#include "mmu_ftl/common/sparse_table.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace zng::ftl {
namespace {

TEST(SparseTable, HugeKeySpaceCostsItsTopDirectoryUntilTouched) {
    // 10^12 keys, leaves of 2^12 and middle directories of 2^12 leaves: the top directory
    // has ceil(10^12 / 2^24) = 59,605 pointers of 8 B = 476,840 B.
    const uint64_t keys = 1'000'000'000'000ull;
    EXPECT_EQ(SparseTable<uint64_t>::upfront_bytes(keys), 476'840u);
    SparseTable<uint64_t> t(keys, 7);
    EXPECT_EQ(t.leaves_allocated(), 0u);
    EXPECT_EQ(t.get(keys - 1), 7u);  // untouched: the fill value, nothing allocated
    EXPECT_EQ(t.peek(123), 7u);
    EXPECT_EQ(t.leaves_allocated(), 0u);
    EXPECT_EQ(t.stored(), 0u);
    t.set(500'000'000'000ull, 42);
    EXPECT_EQ(t.leaves_allocated(), 1u);
    EXPECT_EQ(t.get(500'000'000'000ull), 42u);
    EXPECT_EQ(t.get(500'000'000'001ull), 7u);  // same leaf, still the fill value
    EXPECT_EQ(t.stored(), 4096u);
    EXPECT_THROW(t.get(keys), SimError);
}

TEST(SparseTable, StoredEntriesVisitedInKeyOrderUpToTheSize) {
    // 5,000 keys: leaf 0 holds 0..4095, leaf 1 holds 4096..4999 (904 keys, not 4096).
    SparseTable<uint32_t> t(5000, 0);
    t.set(4999, 3);
    t.set(10, 1);
    EXPECT_EQ(t.stored(), 4096u + 904u);
    std::vector<uint64_t> nonzero;
    uint64_t visited = 0;
    t.for_each_stored([&](uint64_t k, uint32_t v) {
        ++visited;
        if (v) nonzero.push_back(k);
    });
    EXPECT_EQ(visited, 5000u);
    EXPECT_EQ(nonzero, (std::vector<uint64_t>{10, 4999}));
}

}  // namespace
}  // namespace zng::ftl
