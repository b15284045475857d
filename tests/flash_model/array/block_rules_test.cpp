#include <gtest/gtest.h>

#include "flash_model/array/block_state_table.hpp"
#include "sim/core/errors.hpp"

namespace zng::flash {
namespace {

TEST(BlockStateTable, EraseBeforeWriteAndInOrderPrograms) {
    FlashGeometry g;
    BlockStateTable t(g, 100000);
    FlashAddress b{1, 0, 2, 3, 40, 0};
    // Untouched blocks hold the pre-loaded data: programming them is a rule violation.
    EXPECT_TRUE(t.page_programmed(b));
    EXPECT_THROW(t.program(b), SimError);
    t.erase(b);
    EXPECT_EQ(t.erase_count(b), 1u);
    EXPECT_FALSE(t.page_programmed(b));
    t.program(b.with_page(0));
    t.program(b.with_page(1));
    // Page 1 again is not free.
    try {
        t.program(b.with_page(1));
        FAIL();
    } catch (const SimError& e) {
        EXPECT_NE(std::string(e.what()).find("not free"), std::string::npos) << e.what();
    }
    // Programs go in increasing order: skipping pages 2 and 3 leaves them erased, and
    // they cannot be programmed below page 4.
    t.program(b.with_page(4));
    EXPECT_EQ(t.next_free_page(b), 5u);
    EXPECT_TRUE(t.page_programmed(b.with_page(1)));
    EXPECT_FALSE(t.page_programmed(b.with_page(2)));
    EXPECT_FALSE(t.page_programmed(b.with_page(3)));
    EXPECT_TRUE(t.page_programmed(b.with_page(4)));
    EXPECT_FALSE(t.page_programmed(b.with_page(5)));
    try {
        t.program(b.with_page(3));
        FAIL();
    } catch (const SimError& e) {
        EXPECT_NE(std::string(e.what()).find("next free page is 5"), std::string::npos) << e.what();
    }
    t.erase(b);
    EXPECT_EQ(t.erase_count(b), 2u);
    EXPECT_EQ(t.next_free_page(b), 0u);
    EXPECT_FALSE(t.page_programmed(b.with_page(0)));
    t.program(b.with_page(2));  // the erase cleared the skipped pages: 0 and 1 are skipped now
    EXPECT_FALSE(t.page_programmed(b.with_page(0)));
    EXPECT_TRUE(t.page_programmed(b.with_page(2)));
    // Only touched blocks are stored.
    EXPECT_EQ(t.touched_blocks(), 1u);
}

TEST(BlockStateTable, WearIsCountedOncePerBlock) {
    FlashGeometry g;
    BlockStateTable t(g, 2);
    FlashAddress b{0, 0, 0, 0, 5, 0};
    for (int i = 0; i < 5; ++i) t.erase(b);
    EXPECT_EQ(t.max_erase_count(), 5u);
    EXPECT_EQ(t.worn_blocks(), 1u);
}

}  // namespace
}  // namespace zng::flash
