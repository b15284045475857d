// The SSD's DRAM buffer bus under its two arbitrations, on a 1 GB/s bus (one byte per
// nanosecond) so every tick below is computed by hand in bytes.
#include "mmu_ftl/ssd/buffer_bus.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "sim/core/errors.hpp"
#include "tests/support/at_tick.hpp"

namespace zng::ftl {
namespace {

constexpr Tick kNs = kNanosecond;

using zng::test::At;

struct Rig {
    explicit Rig(BufferArbitration a, Tick latency = 0)
        : bus(sim, 1e9, latency, a, [this](uint32_t token, Tick ready) { delivered[token] = ready; }) {}
    Simulator sim;
    std::map<uint32_t, Tick> delivered;  // token -> tick its last byte arrived
    BufferBus bus;
};

// A page fill (4,096 B) starts at 0; a 128 B read hit arrives 100 ns in.
//  - fifo: the fill ends at 4,096 ns and the read waits for it: 4,096 + 128 = 4,224 ns.
//  - round_robin: 3,996 ns of the fill are left, so the read shares the bus for its
//    128 B and ends at 100 + 2 x 128 = 356 ns; the fill loses 128 ns: 4,224 ns.
// Either way the bus is busy for 4,224 ns.
TEST(BufferBus, AReadHitWaitsForAWholeFillUnderFifoAndInterleavesUnderRoundRobin) {
    for (BufferArbitration a : {BufferArbitration::Fifo, BufferArbitration::RoundRobin}) {
        Rig r(a);
        Tick read_done = 0;
        r.bus.flash_transfer(4096, 7);
        At read(r.sim, 100 * kNs, [&] { read_done = r.bus.host_transfer(128); });
        r.sim.run();
        const bool rr = a == BufferArbitration::RoundRobin;
        EXPECT_EQ(read_done, (rr ? 356 : 4224) * kNs);
        EXPECT_EQ(r.delivered.at(7), (rr ? 4224 : 4096) * kNs);
        EXPECT_EQ(r.bus.busy_time(), 4224 * kNs);
        EXPECT_EQ(r.bus.bytes(), 4224u);
    }
}

// A host transfer that finds the flash side idle has the bus to itself: 1,024 B from 0
// end at 1,024 ns, and a fill asked for at 10 ns starts then and ends at 5,120 ns, as
// under fifo. The latency (50 ns) follows each last byte.
TEST(BufferBus, AFillWaitsForAHostTransferThatStartedAlone) {
    Rig r(BufferArbitration::RoundRobin, 50 * kNs);
    EXPECT_EQ(r.bus.host_transfer(1024), 1074 * kNs);
    At fill(r.sim, 10 * kNs, [&] { r.bus.flash_transfer(4096, 1); });
    r.sim.run();
    EXPECT_EQ(r.delivered.at(1), 5170 * kNs);
}

// The fill has 100 ns left when a 4,096 B host write arrives at 3,996 ns: they share
// 200 ns (the fill ends at 4,196 ns), then the write has the bus: 3,996 more ns, 8,192.
TEST(BufferBus, AHostTransferRunsAtTheFullRateOnceTheFlashSideIsDone) {
    Rig r(BufferArbitration::RoundRobin);
    Tick write_done = 0;
    r.bus.flash_transfer(4096, 1);
    At write(r.sim, 3996 * kNs, [&] { write_done = r.bus.host_transfer(4096); });
    r.sim.run();
    EXPECT_EQ(r.delivered.at(1), 4196 * kNs);
    EXPECT_EQ(write_done, 8192 * kNs);
}

// A fill, a write-back's read-out (it reports nothing) and a 128 B fill queued at 0,
// and a 128 B read at 4,000 ns: the first fill has 96 ns left and ends at 4,192; the
// read-out starts there, shares the bus until the read ends at 4,256 (32 ns of its
// own), then needs 4,064 more: 8,320 = 2 x 4,096 + 128, the bus never idle; the last
// fill follows: 8,448.
TEST(BufferBus, FlashTransfersQueueInOrderAndShareWhatTheHostLeaves) {
    Rig r(BufferArbitration::RoundRobin);
    Tick read_done = 0;
    r.bus.flash_transfer(4096, 1);
    r.bus.flash_transfer(4096, BufferBus::kNoToken);
    r.bus.flash_transfer(128, 3);
    At read(r.sim, 4000 * kNs, [&] { read_done = r.bus.host_transfer(128); });
    r.sim.run();
    EXPECT_EQ(r.delivered.at(1), 4192 * kNs);
    EXPECT_EQ(read_done, 4256 * kNs);
    EXPECT_EQ(r.delivered.at(3), 8448 * kNs);
    EXPECT_EQ(r.delivered.size(), 2u);
    EXPECT_EQ(r.bus.transfers(), 4u);
}

// Host transfers back to back while a fill moves: each shares the bus in turn, and the
// fill is pushed back by exactly their bytes (3 x 128 B).
TEST(BufferBus, BackToBackHostTransfersEachShareTheBus) {
    Rig r(BufferArbitration::RoundRobin);
    std::vector<Tick> done;
    r.bus.flash_transfer(4096, 1);
    At reads(r.sim, 1000 * kNs, [&] {
        for (int i = 0; i < 3; ++i) done.push_back(r.bus.host_transfer(128));
    });
    r.sim.run();
    EXPECT_EQ(done, (std::vector<Tick>{1256 * kNs, 1512 * kNs, 1768 * kNs}));
    EXPECT_EQ(r.delivered.at(1), (4096 + 3 * 128) * kNs);
}

TEST(BufferBus, AnUnknownArbitrationIsRefusedByName) {
    EXPECT_EQ(parse_buffer_arbitration("round_robin", "memory.buffer_arbitration"), BufferArbitration::RoundRobin);
    try {
        parse_buffer_arbitration("lifo", "memory.buffer_arbitration");
        FAIL();
    } catch (const SimError& e) {
        EXPECT_NE(std::string(e.what()).find("memory.buffer_arbitration"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("lifo"), std::string::npos);
    }
}

}  // namespace
}  // namespace zng::ftl
