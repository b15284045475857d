#include <gtest/gtest.h>

#include "flash_model/flash_spec.hpp"
#include "sim/config/config_node.hpp"
#include "sim/core/errors.hpp"

namespace zng::flash {
namespace {

TEST(FlashGeometry, PaperGeometryCapacity) {
    FlashGeometry g;  // Table I defaults
    // 16 ch x 1 pkg x 8 dies x 8 planes x 1024 blocks x 384 pages x 4 KiB, multiplied out by hand:
    // 16*64 = 1024 planes; *1024 blocks = 1,048,576; *384 = 402,653,184 pages; *4096 = 1,649,267,441,664 B.
    EXPECT_EQ(g.pages(), 402'653'184ull);
    EXPECT_EQ(g.capacity_bytes(), 1'649'267'441'664ull);
}

TEST(FlashGeometry, InterleavingOrderIsFastestFirst) {
    FlashGeometry g;  // channel,package,die,plane,page,block
    // Page number 1 -> channel 1; page 16 -> wraps channels (16) and packages (1): die 1.
    EXPECT_EQ(g.decode(4096).channel, 1u);
    FlashAddress a = g.decode(16 * 4096);
    EXPECT_EQ(a.channel, 0u);
    EXPECT_EQ(a.die, 1u);
    // Page 16*8*8 = 1024 -> first field after the planes: page index 1 inside block 0.
    a = g.decode(1024ull * 4096);
    EXPECT_EQ(a.page, 1u);
    EXPECT_EQ(a.block, 0u);
    // 1024 * 384 pages later the block number moves.
    EXPECT_EQ(g.decode(1024ull * 384 * 4096).block, 1u);
    EXPECT_EQ(g.page_offset(4096 + 130), 130u);
}

TEST(FlashGeometry, EncodeDecodeRoundTrip) {
    FlashGeometry g(FlashGeometry::Shape{}, "block,page,plane,die,package,channel");
    FlashAddress a{7, 0, 5, 3, 1000, 383};
    uint64_t b = g.encode(a);
    EXPECT_EQ(g.decode(b), a);
    // block is fastest here: block+1 is one page further.
    EXPECT_EQ(g.encode(a.with_block(1001)), b + 4096);
    EXPECT_THROW(g.decode(g.capacity_bytes()), SimError);
    EXPECT_THROW(g.encode(a.with_page(384)), SimError);
}

TEST(FlashGeometry, CheckNamesTheFirstOutOfRangeFieldInInterleavingOrder) {
    FlashGeometry g(FlashGeometry::Shape{}, "block,page,plane,die,package,channel");
    const FlashAddress last{15, 0, 7, 7, 1023, 383};  // every field at its largest value
    EXPECT_NO_THROW(g.check(last));
    // Channel 16 and page 384 are both out of range; page comes first in this order.
    FlashAddress bad = last.with_page(384);
    bad.channel = 16;
    try {
        g.check(bad);
        FAIL() << "an address outside the geometry passed the check";
    } catch (const SimError& e) {
        EXPECT_NE(std::string(e.what()).find("page 384 is out of range (the geometry has 384)"), std::string::npos)
            << e.what();
    }
    FlashAddress die8 = last;
    die8.die = 8;
    EXPECT_THROW(g.check(die8), SimError);
}

TEST(FlashSpec, BadValuesNameTheKey) {
    auto expect_error = [](const std::string& yaml, const std::string& needle) {
        ConfigNode root = parse_config_text(yaml, "bad.yaml");
        try {
            load_flash_spec(&root);
            FAIL() << "no error for " << yaml;
        } catch (const ConfigError& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    expect_error("flash:\n  registers_per_plane: 0\n", "bad.yaml:2: key 'flash.registers_per_plane'");
    expect_error("flash:\n  page_size: 3000B\n", "flash.page_size");
    expect_error("flash:\n  address_order: channel,die\n", "flash.address_order");
    expect_error("flash:\n  address_order: channel,die,die,plane,page,block\n", "appears twice");
    expect_error("flash:\n  tR: fast\n", "flash.tR");
    expect_error("flash:\n  planes: 4\n", "unknown key 'planes'");
}

}  // namespace
}  // namespace zng::flash
