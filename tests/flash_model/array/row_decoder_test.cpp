#include <gtest/gtest.h>

#include "flash_model/array/row_decoder.hpp"
#include "sim/core/errors.hpp"

namespace zng::flash {
namespace {

TEST(ProgrammableRowDecoder, RemapsRewrittenPagesAndForgetsOnErase) {
    ProgrammableRowDecoder d(4);
    // Never-written page: the data block's own row.
    auto r = d.resolve(7, 2);
    EXPECT_FALSE(r.log_hit);
    EXPECT_EQ(r.block, 7u);
    EXPECT_EQ(r.page, 2u);
    // First write of page 2 of data block 7 takes log page 0 of log block 12.
    EXPECT_EQ(d.program_log(12, 7, 2), 0u);
    r = d.resolve(7, 2);
    EXPECT_TRUE(r.log_hit);
    EXPECT_EQ(r.block, 12u);
    EXPECT_EQ(r.page, 0u);
    // Another data block sharing the log block, then a rewrite of page 2: next free pages 1 and 2.
    EXPECT_EQ(d.program_log(12, 9, 0), 1u);
    EXPECT_EQ(d.program_log(12, 7, 2), 2u);
    EXPECT_EQ(d.resolve(7, 2).page, 2u);
    EXPECT_EQ(d.resolve(9, 0).page, 1u);
    EXPECT_FALSE(d.resolve(7, 3).log_hit);
    EXPECT_FALSE(d.log_full(12));    // 3 of its 4 pages programmed
    EXPECT_FALSE(d.log_full(1000));  // a block that never was a log block
    EXPECT_EQ(d.program_log(12, 9, 1), 3u);
    EXPECT_TRUE(d.log_full(12));
    EXPECT_THROW(d.program_log(12, 9, 2), SimError);
    // Writes of block 7 may not move to another log block while block 12 holds its pages.
    EXPECT_THROW(d.program_log(13, 7, 0), SimError);
    // Moving a data block (a merge copied every newest page into block 20) drops its
    // bindings: reads of either activate their own pages, and block 20's writes may take
    // another log block while block 12 still awaits its erase.
    d.drop_data_block(7);
    EXPECT_FALSE(d.resolve(20, 2).log_hit);
    EXPECT_FALSE(d.resolve(7, 2).log_hit);
    EXPECT_EQ(d.program_log(13, 20, 2), 0u);
    EXPECT_TRUE(d.resolve(20, 2).log_hit);
    EXPECT_EQ(d.resolve(9, 0).page, 1u);  // block 12's other data block keeps its pages
    d.erase_block(12);
    EXPECT_FALSE(d.resolve(9, 0).log_hit);
    EXPECT_EQ(d.resolve(20, 2).block, 13u);  // its new log block is untouched
    EXPECT_FALSE(d.log_full(12));
    EXPECT_EQ(d.log_blocks(), 1u);
}

TEST(ProgrammableRowDecoder, ResolvesThroughTablesMadeLaterAndTablesRebuiltAfterAnErase) {
    ProgrammableRowDecoder d(4);
    EXPECT_EQ(d.program_log(2, 7, 1), 0u);
    // Log blocks with higher numbers (the table store grows) and more data blocks in
    // block 2's table (its list grows): block 7's mapping still resolves.
    for (uint32_t lb = 100; lb < 400; lb += 50) EXPECT_EQ(d.program_log(lb, lb + 1, 3), 0u);
    EXPECT_EQ(d.program_log(2, 8, 0), 1u);
    EXPECT_EQ(d.program_log(2, 9, 0), 2u);
    auto r = d.resolve(7, 1);
    EXPECT_TRUE(r.log_hit);
    EXPECT_EQ(r.block, 2u);
    EXPECT_EQ(r.page, 0u);
    EXPECT_EQ(d.resolve(301, 3).block, 300u);
    // Block 2 erased and taken again as a log block: block 7's new pages only.
    d.erase_block(2);
    EXPECT_FALSE(d.resolve(7, 1).log_hit);
    EXPECT_EQ(d.program_log(2, 7, 3), 0u);
    EXPECT_FALSE(d.resolve(7, 1).log_hit);
    r = d.resolve(7, 3);
    EXPECT_TRUE(r.log_hit);
    EXPECT_EQ(r.page, 0u);
    EXPECT_FALSE(d.resolve(8, 0).log_hit);
}

TEST(LogPageMappingTable, CountsDistinctPagesAndKeepsTheNewestCopy) {
    LogPageMappingTable t(8);
    EXPECT_EQ(t.append(3, 5), 0u);
    EXPECT_EQ(t.append(3, 5), 1u);  // a rewrite supersedes log page 0
    EXPECT_EQ(t.append(4, 5), 2u);
    EXPECT_EQ(t.append(4, 6), 3u);
    EXPECT_EQ(t.entries(), 3u);  // (3,5), (4,5), (4,6)
    EXPECT_EQ(t.next_free(), 4u);
    EXPECT_EQ(t.find(3, 5), std::optional<uint32_t>(1));
    EXPECT_EQ(t.find(3, 6), std::nullopt);
    EXPECT_EQ(t.find(9, 5), std::nullopt);
    EXPECT_EQ(t.data_blocks(), (std::vector<uint32_t>{3, 4}));
}

}  // namespace
}  // namespace zng::flash
