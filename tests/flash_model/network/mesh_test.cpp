#include <gtest/gtest.h>

#include <vector>

#include "flash_model/network/mesh_network.hpp"
#include "flash_model/register.hpp"
#include "sim/config/config_node.hpp"

namespace zng::flash {
namespace {

struct Sink : FlashEndpoint {
    Simulator& sim;
    std::vector<std::pair<uint32_t, Tick>> got;  // (tag, tick)
    explicit Sink(Simulator& s) : sim(s) {}
    void receive(const FlashMessage& m) override { got.push_back({m.tag, sim.now()}); }
};

// One controller and four packages on a 1 x 4 row: the controller and package 0 sit at
// router 0, package k at router k (k hops away). 1 GHz: one cycle = 1000 ps.
struct MeshRig {
    Simulator sim;
    ConfigNode cfg;
    std::unique_ptr<FlashNetwork> net;
    Sink sink{sim};
    // `extra`: the packet format and buffers of the test (defaults: no header, whole messages).
    explicit MeshRig(const std::string& extra = ", header_bytes: 0B, max_packet: 4KiB") {
        register_flash_model_components();
        cfg = parse_config_text("{type: mesh, rows: 1, cols: 4, clock: 1GHz, link_width: 8B, router_latency: 2" + extra + "}",
                                "mesh.yaml");
        FlashNetworkLayout layout;
        layout.controllers = 1;
        layout.package_channel = {0, 0, 0, 0};
        net = flash_network_slot().create(&cfg, "network", "mesh", sim, "net", layout);
        for (uint32_t e = 0; e < layout.endpoints(); ++e) net->attach(e, &sink);
    }
    MeshNetwork& mesh() { return dynamic_cast<MeshNetwork&>(*net); }
};

TEST(MeshNetwork, UncontendedLatencyIsHopsTimesRouterLatencyPlusFlits) {
    MeshRig rig;
    EXPECT_EQ(rig.mesh().hops(4, 0), 3u);  // package 3 -> controller
    rig.net->send({4, 0, 64, 1, 0});
    rig.sim.run();
    ASSERT_EQ(rig.sink.got.size(), 1u);
    // 3 hops x 2 cycles + 64 B / 8 B = 8 flits -> 14 cycles.
    EXPECT_EQ(rig.sink.got[0].second, 14 * kNanosecond);
}

TEST(MeshNetwork, TwoFlowsSharingALinkSerialise) {
    MeshRig rig;
    rig.net->send({3, 0, 64, 2, 0});  // package 2: 2 hops
    rig.net->send({4, 0, 64, 3, 0});  // package 3: 3 hops, shares links 2->1 and 1->0
    rig.sim.run();
    ASSERT_EQ(rig.sink.got.size(), 2u);
    // Package 2's packet takes link 2->1 at cycle 2 (busy to 10) and arrives at 2*2+8 = 12.
    EXPECT_EQ(rig.sink.got[0], (std::pair<uint32_t, Tick>{2, 12 * kNanosecond}));
    // Package 3's head reaches router 2 at cycle 2 and is ready at 4, but link 2->1 is busy
    // until 10: it leaves at 10, is ready at router 1 at 12 (link 1->0 just freed at 12),
    // reaches router 0 at 12 and ejects its 8 flits by 20 -- 6 cycles more than alone (14).
    EXPECT_EQ(rig.sink.got[1], (std::pair<uint32_t, Tick>{3, 20 * kNanosecond}));
}

TEST(MeshNetwork, LongMessagesAreSplitAndPipelined) {
    MeshRig rig(", max_packet: 64B, header_bytes: 8B");
    // 4096 B in 64 B packets: 64 packets of (8 + 64) / 8 = 9 flits. The packets stream
    // back to back on the path, so the last one arrives hops x 2 + 64 x 9 cycles after
    // the start: 3 x 2 + 576 = 582 cycles.
    rig.net->send({4, 0, 4096, 7, 0});
    rig.sim.run();
    ASSERT_EQ(rig.sink.got.size(), 1u);
    EXPECT_EQ(rig.sink.got[0].second, 582 * kNanosecond);
}

TEST(MeshNetwork, SmallBuffersBackPressureTheUpstreamRouter) {
    // Buffers hold exactly one 8-flit packet. Two 64 B messages from package 3: the second
    // may enter router 2 only when the first's tail has left it.
    MeshRig rig(", header_bytes: 0B, max_packet: 64B, buffer_flits: 8");
    rig.net->send({4, 0, 64, 1, 0});
    rig.net->send({4, 0, 64, 2, 0});
    rig.sim.run();
    ASSERT_EQ(rig.sink.got.size(), 2u);
    EXPECT_EQ(rig.sink.got[0].second, 14 * kNanosecond);
    // With unlimited buffering the second packet trails by its 8 flits (22). Here it also
    // waits for credits: packet 1 leaves router 2 at cycle 4 (tail gone at 12), so packet 2
    // can only take link 3->2 at 12 instead of 10: it arrives 2 cycles later, at 24.
    EXPECT_EQ(rig.sink.got[1].second, 24 * kNanosecond);
}

TEST(MeshNetwork, BusiestLinkCountsThePackagesRoutedOverIt) {
    // 1 x 4 row, one controller at router 0: link 1->0 carries packages 1, 2 and 3, link
    // 2->1 packages 2 and 3, link 3->2 package 3; package 0 ejects at its own router.
    MeshRig rig;
    EXPECT_EQ(rig.mesh().busiest_link_packages(), 3u);
}

TEST(MeshNetwork, BusiestLinkOfAGridWithControllersOnTheWestEdge) {
    // 16 packages on 4 x 4, a controller per package sitting at the west edge of its
    // package's row: each row's link from column 1 to column 0 carries columns 1-3.
    Simulator sim;
    register_flash_model_components();
    ConfigNode cfg = parse_config_text("{type: mesh, rows: 4, cols: 4}", "mesh.yaml");
    FlashNetworkLayout layout;
    layout.controllers = 16;
    for (uint32_t k = 0; k < 16; ++k) layout.package_channel.push_back(k);
    auto net = flash_network_slot().create(&cfg, "network", "mesh", sim, "net", layout);
    auto& mesh = dynamic_cast<MeshNetwork&>(*net);
    EXPECT_EQ(mesh.router_of(5), 4u);  // controller 5: west edge (router 4) of package 5's row 1
    EXPECT_EQ(mesh.busiest_link_packages(), 3u);
}

TEST(MeshNetwork, RejectsBuffersSmallerThanAPacket) {
    EXPECT_THROW(MeshRig(", header_bytes: 0B, max_packet: 64B, buffer_flits: 4"), ConfigError);
}

}  // namespace
}  // namespace zng::flash
