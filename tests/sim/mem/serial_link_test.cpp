// The shared link model: transfers serialised in call order at a fixed bandwidth, plus
// a latency that does not occupy the link. Values computed by hand.
#include "sim/mem/serial_link.hpp"

#include <gtest/gtest.h>

#include "sim/core/errors.hpp"

namespace zng {
namespace {

TEST(SerialLink, SerialisesTransfersAndAddsTheLatencyAfterEach) {
    // 32 GB/s: 128 B occupy 128 / 32e9 s = 4000 ps; 100 ns of flight after the last byte.
    SerialLink link(32e9, 100 * kNanosecond);
    EXPECT_EQ(link.occupancy(128), 4000u);
    EXPECT_EQ(link.transfer(0, 128), 4000u + 100'000u);
    // Asked at 1000 ps while busy until 4000: starts at 4000, ends at 8000.
    EXPECT_EQ(link.transfer(1000, 128), 8000u + 100'000u);
    // Idle by 20000 ps: 64 B take 2000 ps from there.
    EXPECT_EQ(link.transfer(20'000, 64), 22'000u + 100'000u);
    EXPECT_EQ(link.free_at(), 22'000u);
    EXPECT_EQ(link.busy_time(), 4000u + 4000u + 2000u);
    EXPECT_EQ(link.bytes(), 320u);
    EXPECT_EQ(link.transfers(), 3u);
}

TEST(SerialLink, OccupancyRoundsUpToAWholePicosecond) {
    // 3 B/s: one byte takes 1e12 / 3 = 333333333333.33 ps, rounded up.
    SerialLink slow(3.0, 0);
    EXPECT_EQ(slow.occupancy(1), 333'333'333'334u);
    EXPECT_EQ(slow.occupancy(3), 1'000'000'000'000u);
    EXPECT_THROW(SerialLink(0.5, 0), SimError);
}

}  // namespace
}  // namespace zng
