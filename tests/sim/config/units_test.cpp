#include "sim/config/units.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace zng::units {
namespace {

TEST(Units, TimeEveryForm) {
    EXPECT_EQ(parse_time("1ps"), 1u);
    EXPECT_EQ(parse_time("3ns"), 3'000u);
    EXPECT_EQ(parse_time("3us"), 3'000'000u);
    EXPECT_EQ(parse_time("100us"), 100'000'000u);
    EXPECT_EQ(parse_time("1ms"), 1'000'000'000u);
    EXPECT_EQ(parse_time("2s"), 2'000'000'000'000u);
    EXPECT_EQ(parse_time("8.9ns"), 8'900u);
    EXPECT_EQ(parse_time("763 ns"), 763'000u);
    EXPECT_EQ(parse_time("0"), 0u);
    EXPECT_THROW(parse_time("5"), std::invalid_argument);       // no unit
    EXPECT_THROW(parse_time("0.5ps"), std::invalid_argument);   // below resolution
    EXPECT_THROW(parse_time("3 parsecs"), std::invalid_argument);
    EXPECT_THROW(parse_time("-1ns"), std::invalid_argument);
    EXPECT_THROW(parse_time("ns"), std::invalid_argument);
}

TEST(Units, FrequencyEveryForm) {
    EXPECT_EQ(parse_frequency("50Hz"), 50u);
    EXPECT_EQ(parse_frequency("33kHz"), 33'000u);
    EXPECT_EQ(parse_frequency("924MHz"), 924'000'000u);
    EXPECT_EQ(parse_frequency("1.2GHz"), 1'200'000'000u);
    EXPECT_THROW(parse_frequency("0GHz"), std::invalid_argument);
    EXPECT_THROW(parse_frequency("1.2"), std::invalid_argument);
    EXPECT_THROW(parse_frequency("800MT/s"), std::invalid_argument);  // a rate is not a frequency
}

TEST(Units, RateEveryForm) {
    EXPECT_EQ(parse_rate("10T/s"), 10u);
    EXPECT_EQ(parse_rate("5kT/s"), 5'000u);
    EXPECT_EQ(parse_rate("800MT/s"), 800'000'000u);
    EXPECT_EQ(parse_rate("4.008GT/s"), 4'008'000'000u);
    EXPECT_THROW(parse_rate("800MHz"), std::invalid_argument);
}

TEST(Units, SizeEveryForm) {
    EXPECT_EQ(parse_size("128B"), 128u);
    EXPECT_EQ(parse_size("48KiB"), 48u * 1024);
    EXPECT_EQ(parse_size("6MiB"), 6u * 1024 * 1024);
    EXPECT_EQ(parse_size("24MiB"), 24u * 1024 * 1024);
    EXPECT_EQ(parse_size("64GiB"), 64ull << 30);
    EXPECT_EQ(parse_size("1.5TiB"), 3ull << 39);
    EXPECT_EQ(parse_size("4KB"), 4'000u);
    EXPECT_EQ(parse_size("4kB"), 4'000u);
    EXPECT_EQ(parse_size("800GB"), 800'000'000'000u);
    EXPECT_EQ(parse_size("2MB"), 2'000'000u);
    EXPECT_EQ(parse_size("1TB"), 1'000'000'000'000u);
    EXPECT_EQ(parse_size("0"), 0u);
    EXPECT_THROW(parse_size("1.5B"), std::invalid_argument);
    EXPECT_THROW(parse_size("4K"), std::invalid_argument);
    EXPECT_THROW(parse_size("4096"), std::invalid_argument);
}

TEST(Units, BandwidthEveryForm) {
    EXPECT_DOUBLE_EQ(parse_bandwidth("100B/s"), 100.0);
    EXPECT_DOUBLE_EQ(parse_bandwidth("2KB/s"), 2e3);
    EXPECT_DOUBLE_EQ(parse_bandwidth("2kB/s"), 2e3);
    EXPECT_DOUBLE_EQ(parse_bandwidth("500MB/s"), 5e8);
    EXPECT_DOUBLE_EQ(parse_bandwidth("16GB/s"), 16e9);
    EXPECT_DOUBLE_EQ(parse_bandwidth("1TB/s"), 1e12);
    EXPECT_DOUBLE_EQ(parse_bandwidth("1KiB/s"), 1024.0);
    EXPECT_DOUBLE_EQ(parse_bandwidth("1MiB/s"), 1048576.0);
    EXPECT_DOUBLE_EQ(parse_bandwidth("1GiB/s"), 1073741824.0);
    EXPECT_THROW(parse_bandwidth("16GB"), std::invalid_argument);
}

TEST(Units, Formatting) {
    EXPECT_EQ(format_time(3'000'000), "3us");
    EXPECT_EQ(format_time(8'900), "8900ps");
    EXPECT_EQ(format_size(6u << 20), "6MiB");
    EXPECT_EQ(format_size(48u << 10), "48KiB");
    EXPECT_EQ(format_frequency(1'200'000'000), "1200MHz");
    EXPECT_EQ(format_frequency(2'000'000'000), "2GHz");
}

}  // namespace
}  // namespace zng::units
