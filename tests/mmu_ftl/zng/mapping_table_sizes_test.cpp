// Mapping-table sizes of ZnG's FTL for the paper's geometry (Table I), checked against
// the arithmetic written out in mmu_ftl/zng/mapping_table_sizes.hpp.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/mmu_ftl/zng/zng_ftl_fixture.hpp"

namespace zng::ftl::test {
namespace {

TEST(MappingTableSizes, BitsFor) {
    EXPECT_EQ(bits_for(1), 1u);
    EXPECT_EQ(bits_for(2), 1u);
    EXPECT_EQ(bits_for(3), 2u);
    EXPECT_EQ(bits_for(9), 4u);
    EXPECT_EQ(bits_for(16384), 14u);
    EXPECT_EQ(bits_for(16385), 15u);
}

TEST(MappingTableSizes, PaperGeometryIsAbout80KBPerTB) {
    // No flash: section -> the paper's Z-NAND (16 ch x 1 pkg x 8 dies x 8 planes x 1024
    // blocks x 384 pages x 4 KiB); defaults: package-wide data blocks, group 8, OP 0.12.
    ZngFtlRig rig("translation: {type: zng_dbmt}\n");
    const MappingTableSizes& s = rig.ftl->table_sizes();
    std::printf("ZnG mapping tables (paper geometry): DBMT %llu B for the user capacity, %llu B per 10^12 B "
                "(entry %u B = %u bits), LBMT %llu B (%llu groups x %u B)\n",
                static_cast<unsigned long long>(s.dbmt_bytes), static_cast<unsigned long long>(s.dbmt_bytes_per_tb),
                s.dbmt_entry_bytes, s.dbmt_entry_bits, static_cast<unsigned long long>(s.lbmt_bytes),
                static_cast<unsigned long long>(s.log_groups), s.lbmt_entry_bytes);
    // 16 packages x 1024 blocks = 16,384 data-block-sized blocks -> 14-bit block numbers;
    // LBN + PDBN + PLBN + valid = 43 bits -> an 8-byte entry.
    EXPECT_EQ(s.block_number_bits, 14u);
    EXPECT_EQ(s.dbmt_entry_bits, 43u);
    EXPECT_EQ(s.dbmt_entry_bytes, 8u);
    // Per TB: a data block is 64 x 384 x 4096 = 100,663,296 B; ceil(1e12 / that) = 9,935
    // entries x 8 B = 79,480 B + ceil(9,935 / 512) = 20 pointers x 8 B = 79,640 B.
    EXPECT_EQ(s.dbmt_bytes_per_tb, 79640u);
    EXPECT_GT(s.dbmt_bytes_per_tb, 75000u);  // "about 80 KB per 1 TB" (paper III-B)
    EXPECT_LT(s.dbmt_bytes_per_tb, 85000u);
    // User capacity: floor(1024 x 0.88) = 901 blocks per package x 16 = 14,416 entries
    // x 8 B = 115,328 B + ceil(14,416 / 512) = 29 pointers x 8 B = 115,560 B.
    EXPECT_EQ(s.user_data_blocks, 14416u);
    EXPECT_EQ(s.dbmt_bytes, 115560u);
    // LBMT: ceil(901 / 8) = 113 groups per package x 16 = 1,808 entries of
    // 14 (PLBN) + 4 (count 0..8) + 8 x 14 (LBNs) = 130 bits -> 17 B: 30,736 B.
    EXPECT_EQ(s.log_groups, 1808u);
    EXPECT_EQ(s.lbmt_entry_bytes, 17u);
    EXPECT_EQ(s.lbmt_bytes, 30736u);
    // The same numbers are stats of the run.
    EXPECT_EQ(rig.sim.stats().value("translation.dbmt.bytes_per_tb"), 79640.0);
    EXPECT_EQ(rig.sim.stats().value("translation.lbmt.bytes"), 30736.0);
}

TEST(MappingTableSizes, PlaneWideBlocksNeedAPageTableOfMegabytes) {
    // The alternative layout: one block per data block (1,048,576 blocks, 20-bit numbers,
    // 61-bit entries -> 8 B). Per TB: 1e12 / (384 x 4096) -> 635,783 entries x 8 B =
    // 5,086,264 B + ceil(635,783 / 512) = 1,242 pointers x 8 B = 9,936 B -> 5,096,200 B.
    ZngFtlRig rig("translation: {type: zng_dbmt, data_block_span: plane}\n");
    const MappingTableSizes& s = rig.ftl->table_sizes();
    EXPECT_EQ(s.block_number_bits, 20u);
    EXPECT_EQ(s.dbmt_bytes_per_tb, 5096200u);
}

TEST(MappingTableSizes, TooLittleOverProvisioningIsAConfigError) {
    // 16 blocks per unit, OP 0.25 -> 12 user blocks, 4 spare; group 2 needs
    // ceil(12 / 2) + 2 + 1 = 9 spare blocks.
    std::string yaml = std::string(kSmallFlash) + "translation: {type: zng_dbmt, log_group_size: 2, overprovisioning: 0.25}\n";
    try {
        ZngFtlRig rig(yaml);
        FAIL() << "accepted too little over-provisioning";
    } catch (const ConfigError& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("test.yaml:"), std::string::npos) << m;
        EXPECT_NE(m.find("translation.overprovisioning"), std::string::npos) << m;
        EXPECT_NE(m.find("= 9"), std::string::npos) << m;
    }
}

TEST(MappingTableSizes, UnknownKeyNamesFileAndLine) {
    try {
        ZngFtlRig rig("translation:\n  type: zng_dbmt\n  log_groups: 4\n");
        FAIL() << "accepted an unknown key";
    } catch (const ConfigError& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("test.yaml:3"), std::string::npos) << m;
        EXPECT_NE(m.find("log_groups"), std::string::npos) << m;
    }
}

}  // namespace
}  // namespace zng::ftl::test
