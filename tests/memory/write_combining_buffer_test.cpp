// The write-combining buffer's bookkeeping: merging, coverage, LRU write-back order,
// and its index staying correct through many inserts and removals.
#include <gtest/gtest.h>

#include <map>

#include "memory/write_combining_buffer.hpp"
#include "sim/core/errors.hpp"

namespace zng::memory {
namespace {

TEST(WriteCombiningBuffer, MergesWritesAndTracksCoverage) {
    WriteCombiningBuffer b(4, 8, 1);
    EXPECT_FALSE(b.write(7, 0x0f));  // new line, first half
    EXPECT_TRUE(b.covers(7, 0x03));
    EXPECT_FALSE(b.covers(7, 0x30));
    EXPECT_TRUE(b.write(7, 0xf0));   // merges
    EXPECT_TRUE(b.covers(7, 0xff));
    EXPECT_EQ(b.valid(), 1u);
}

TEST(WriteCombiningBuffer, WritesBackLeastRecentlyWrittenFirst) {
    WriteCombiningBuffer b(3, 8, 1);
    b.write(1, 0xff);
    b.write(2, 0x01);
    b.write(1, 0x01);  // line 1 is now the most recent
    EXPECT_FALSE(b.wants_writeback());  // one line still free
    b.write(3, 0xff);
    ASSERT_TRUE(b.wants_writeback());
    const auto wb = b.begin_writeback();
    EXPECT_EQ(wb.line, 2u);
    EXPECT_FALSE(wb.full);  // only sector 0 written: read-modify-write
    EXPECT_FALSE(b.wants_writeback());  // the leaving line counts as free
    EXPECT_FALSE(b.can_accept(4));      // ...but is not free yet
    EXPECT_FALSE(b.covers(2, 0x01));
    b.finish_writeback(wb.slot);
    EXPECT_TRUE(b.can_accept(4));
    EXPECT_THROW(b.finish_writeback(wb.slot), SimError);
}

TEST(WriteCombiningBuffer, IndexAgreesWithAReferenceMapUnderChurn) {
    // A deterministic pseudo-random workload checked against std::map (the reference):
    // every covers() answer must match.
    WriteCombiningBuffer b(16, 8, 4);
    std::map<uint64_t, uint64_t> ref;  // line -> mask of lines buffered and not leaving
    uint64_t x = 12345;
    for (int step = 0; step < 20000; ++step) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t line = (x >> 33) % 40;
        const uint64_t mask = 1ull << ((x >> 20) % 8);
        if (b.can_accept(line)) {
            b.write(line, mask);
            ref[line] |= mask;
        }
        while (b.wants_writeback()) {
            const auto wb = b.begin_writeback();
            ASSERT_EQ(ref.count(wb.line), 1u);
            EXPECT_EQ(wb.full, ref[wb.line] == 0xff);
            ref.erase(wb.line);
            b.finish_writeback(wb.slot);
        }
        for (uint64_t l = 0; l < 40; ++l) {
            const bool in = ref.count(l) != 0;
            ASSERT_EQ(b.covers(l, 0), in) << "line " << l << " at step " << step;
        }
    }
}

}  // namespace
}  // namespace zng::memory
