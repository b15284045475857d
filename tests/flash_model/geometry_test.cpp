#include <gtest/gtest.h>

#include <utility>
#include <vector>

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

// decode and encode against the mixed-radix arithmetic spelt out field by field, on the
// paper's shape and on two whose radices are not all powers of two (3, 5, 6, 7, 11, 384;
// 12, 1000, 96), each in another interleaving order.
TEST(FlashGeometry, DecodeAndEncodeFollowTheMixedRadixArithmetic) {
    struct Case {
        FlashGeometry::Shape shape;
        const char* order;
    };
    const Case cases[] = {
        {FlashGeometry::Shape{}, "channel,package,die,plane,page,block"},
        {FlashGeometry::Shape{3, 5, 6, 7, 11, 384, 4096}, "page,die,channel,block,plane,package"},
        {FlashGeometry::Shape{12, 1, 2, 4, 1000, 96, 16384}, "plane,block,die,package,page,channel"},
    };
    for (const Case& c : cases) {
        FlashGeometry g(c.shape, c.order);
        const FlashGeometry::Shape& s = c.shape;
        // Radices in this case's order, fastest first, and where each digit goes.
        std::vector<std::pair<uint32_t, uint32_t FlashAddress::*>> digits;
        for (AddressField f : g.order()) {
            switch (f) {
                case AddressField::Channel: digits.push_back({s.channels, &FlashAddress::channel}); break;
                case AddressField::Package: digits.push_back({s.packages_per_channel, &FlashAddress::package}); break;
                case AddressField::Die: digits.push_back({s.dies_per_package, &FlashAddress::die}); break;
                case AddressField::Plane: digits.push_back({s.planes_per_die, &FlashAddress::plane}); break;
                case AddressField::Block: digits.push_back({s.blocks_per_plane, &FlashAddress::block}); break;
                case AddressField::Page: digits.push_back({s.pages_per_block, &FlashAddress::page}); break;
            }
        }
        const uint64_t pages = uint64_t{s.channels} * s.packages_per_channel * s.dies_per_package * s.planes_per_die *
                               s.blocks_per_plane * s.pages_per_block;
        ASSERT_EQ(g.pages(), pages);
        ASSERT_EQ(g.capacity_bytes(), pages * s.page_size);
        // Every page number near both ends and a spread of others between.
        std::vector<uint64_t> numbers;
        for (uint64_t n = 0; n < 5000; ++n) numbers.push_back(n);
        for (uint64_t n = pages - 5000; n < pages; ++n) numbers.push_back(n);
        for (uint64_t n = 0; n < pages; n += pages / 7919 + 1) numbers.push_back(n);
        for (uint64_t n : numbers) {
            FlashAddress want;
            uint64_t rest = n;
            for (const auto& [radix, member] : digits) {
                want.*member = static_cast<uint32_t>(rest % radix);
                rest /= radix;
            }
            const uint64_t byte = n * s.page_size + (n % s.page_size);
            ASSERT_EQ(g.decode(byte), want) << c.order << " page " << n;
            ASSERT_EQ(g.encode(want), n * s.page_size) << c.order << " page " << n;
        }
        EXPECT_THROW(g.decode(pages * s.page_size), SimError);
    }
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
