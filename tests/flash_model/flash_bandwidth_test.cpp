// With enough outstanding reads the array delivers planes x page / tR until the I/O
// ports or the flash network cap it. Each case computes the bound from the
// configuration, measures the delivered bandwidth, prints both and requires 5 %.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "flash_test_util.hpp"

namespace zng::flash {
namespace {

using testing::Requester;
using testing::Rig;
using testing::small_platform;

double run_reads(Rig& rig, uint32_t reads) {
    Requester req(rig);
    for (uint32_t i = 0; i < reads; ++i) req.issue(static_cast<uint64_t>(i) * 4096, 4096, MemOp::Read);
    rig.sim.run();
    EXPECT_EQ(req.completed, reads);
    Tick last = *std::max_element(req.done_at.begin(), req.done_at.end());
    return static_cast<double>(reads) * 4096.0 / ticks_to_seconds(last);  // issued at t = 0
}

void check(const char* name, double measured, double bound) {
    std::printf("[ bandwidth ] %-34s measured %.3f GB/s, bound %.3f GB/s (%.2f%%)\n", name, measured / 1e9,
                bound / 1e9, 100.0 * measured / bound);
    EXPECT_LE(measured, bound * 1.0001);
    EXPECT_GE(measured, bound * 0.95);
}

// One channel: controller and package share router 0 (no hop). 128 pages per plane.
std::string one_channel(int ports, int planes, const std::string& width) {
    return small_platform("", "  network: {type: mesh, clock: 800MHz, link_width: " + width +
                                  ", header_bytes: 8B, max_packet: 4KiB, router_latency: 2}\n",
                          ports, planes, /*channels=*/1);
}

const double kPort = 4096.0 / ((7 + 512) * 1250e-12);  // bytes/s of one port: 519 cycles per page

TEST(FlashBandwidth, ArrayBoundWithTwoPlanes) {
    Rig rig(one_channel(2, 2, "8B"));
    double array = 2 * 4096.0 / 3e-6;
    double bound = std::min({array, 2 * kPort, 4096.0 / (513 * 1250e-12)});
    EXPECT_EQ(bound, array);
    check("2 planes, 2 ports (array-bound)", run_reads(rig, 256), bound);
}

TEST(FlashBandwidth, PortBoundWithEightPlanesAndOnePort) {
    Rig rig(one_channel(1, 8, "8B"));
    double array = 8 * 4096.0 / 3e-6;
    double bound = std::min({array, kPort, 4096.0 / (513 * 1250e-12)});
    EXPECT_EQ(bound, kPort);
    check("8 planes, 1 port (port-bound)", run_reads(rig, 1024), bound);
}

TEST(FlashBandwidth, NetworkBoundWithNarrowLinks) {
    // 4 B links: a page message is (8 + 4096) / 4 = 1026 flits on the controller's ejection port.
    Rig rig(one_channel(2, 8, "4B"));
    double net = 4096.0 / (1026 * 1250e-12);
    double bound = std::min({8 * 4096.0 / 3e-6, 2 * kPort, net});
    EXPECT_EQ(bound, net);
    check("8 planes, 2 ports, 4 B mesh (network)", run_reads(rig, 1024), bound);
}

}  // namespace
}  // namespace zng::flash
