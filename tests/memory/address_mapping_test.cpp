// Address decoding against hand-computed field values.
#include <gtest/gtest.h>

#include "memory/address_mapping.hpp"

namespace zng::memory {
namespace {

TEST(AddressMapping, SplitsMixedRadixLeastSignificantFirst) {
    // 6 channels, 16 banks, 2 KiB rows of 256 B granules (8 columns).
    AddressMapping m(6, 16, 2048, 256, {"channel", "column", "bank", "row"}, AddressMapping::BankHash::None);
    // Granule g = addr / 256; channel = g % 6; column = g / 6 % 8; bank = g / 48 % 16; row = g / 768.
    DecodedAddress d = m.decode(0);
    EXPECT_EQ(d.channel, 0u);
    EXPECT_EQ(d.row, 0u);
    d = m.decode(255);  // still granule 0
    EXPECT_EQ(d.channel, 0u);
    EXPECT_EQ(d.column, 0u);
    d = m.decode(256);  // granule 1 -> next channel
    EXPECT_EQ(d.channel, 1u);
    d = m.decode(6 * 256);  // granule 6 -> channel 0, column 1
    EXPECT_EQ(d.channel, 0u);
    EXPECT_EQ(d.column, 1u);
    // granule 12345: channel 12345 % 6 = 3; 2057 % 8 = 1 (column); 257 % 16 = 1 (bank); row 16.
    d = m.decode(12345ull * 256 + 17);
    EXPECT_EQ(d.channel, 3u);
    EXPECT_EQ(d.column, 1u);
    EXPECT_EQ(d.bank, 1u);
    EXPECT_EQ(d.row, 16u);
}

TEST(AddressMapping, RowTakesWhateverIsLeftSoLargeAddressesDecode) {
    AddressMapping m(6, 16, 2048, 256, {"channel", "column", "bank", "row"}, AddressMapping::BankHash::None);
    // 64 GiB - 256: granule 2^28 - 1 = 268435455; /768 = 349525 rows (remainder 255:
    // channel 255 % 6 = 3, column 42 % 8 = 2, bank 5).
    const DecodedAddress d = m.decode((64ull << 30) - 256);
    EXPECT_EQ(d.row, 349525u);
    EXPECT_EQ(d.channel, 3u);
    EXPECT_EQ(d.column, 2u);
    EXPECT_EQ(d.bank, 5u);
}

TEST(AddressMapping, XorHashSpreadsRowsOfOneBankOverBanks) {
    AddressMapping m(1, 8, 1024, 1024, {"channel", "column", "bank", "row"}, AddressMapping::BankHash::Xor);
    // One granule per row: g = addr / 1024, bank = g % 8, row = g / 8; hashed bank = bank ^ (row % 8).
    // Addresses 8 KiB apart share bank 0 unhashed; hashed they take banks 0..7.
    for (uint64_t r = 0; r < 8; ++r) EXPECT_EQ(m.decode(r * 8 * 1024).bank, r);
    EXPECT_EQ(m.decode(3 * 1024 + 5 * 8 * 1024).bank, 3u ^ 5u);
}

TEST(AddressMapping, RejectsImpossibleLayouts) {
    using H = AddressMapping::BankHash;
    EXPECT_THROW(AddressMapping(6, 16, 2048, 384, {"channel", "column", "bank", "row"}, H::None),
                 std::invalid_argument);  // granule does not divide the row
    EXPECT_THROW(AddressMapping(6, 16, 2048, 256, {"channel", "row", "bank", "column"}, H::None),
                 std::invalid_argument);  // row not last
    EXPECT_THROW(AddressMapping(6, 16, 2048, 256, {"channel", "channel", "bank", "row"}, H::None),
                 std::invalid_argument);  // repeated field
    EXPECT_THROW(AddressMapping(6, 5, 2048, 256, {"channel", "column", "bank", "row"}, H::Xor),
                 std::invalid_argument);  // xor needs power-of-two banks
}

}  // namespace
}  // namespace zng::memory
