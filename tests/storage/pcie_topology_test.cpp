// The PCIe topology: peer-to-peer against a host bounce buffer, which moves every byte
// through host DRAM twice; links per direction; cut-through over a route.
#include <gtest/gtest.h>

#include "tests/storage/storage_rig.hpp"

namespace zng::storage::test {
namespace {

TEST(PcieTopology, BounceThroughHostDramDoublesHostMemoryTraffic) {
    PcieTopologySettings t = topology(1);
    GpuDmaPort dma(GpuDmaPortSettings{});
    PcieTopology p2p(t, dma);
    t.route = GpuDataRoute::HostBounce;
    PcieTopology bounce(t, dma);
    // Peer-to-peer: 1.28 us on the SSD link + 200 + 100 + 300 ns (as in the NVMe test).
    EXPECT_EQ(p2p.ssd_to_memory(0, IoMemory::Gpu, 0, 4096, 0), 1880 * kNanosecond);
    EXPECT_EQ(p2p.host_memory_bytes_written() + p2p.host_memory_bytes_read(), 0u);
    // Bounce: the DMA lands in host DRAM at 1.28 + 0.2 + 0.1 = 1.58 us; the copy then
    // crosses the GPU link whole: 320 ns + 300 ns, 2.2 us.
    EXPECT_EQ(bounce.ssd_to_memory(0, IoMemory::Gpu, 0, 4096, 0), 2200 * kNanosecond);
    // Host DRAM: written by the DMA, read by the copy: 2 x 4096 B.
    EXPECT_EQ(bounce.host_memory_bytes_written(), 4096u);
    EXPECT_EQ(bounce.host_memory_bytes_read(), 4096u);
    EXPECT_EQ(bounce.host_memory().bytes(), 2u * 4096u);
    // A write from GPU memory through the bounce buffer: the same two host DRAM passes.
    bounce.memory_to_ssd(0, IoMemory::Gpu, 10 * kMicrosecond, 4096, 0);
    EXPECT_EQ(bounce.host_memory().bytes(), 4u * 4096u);
}

TEST(PcieTopology, BounceHalvesThroughputWhenHostDramIsTheLimit) {
    // Host DRAM at 3.2 GB/s, a bounced byte taking it twice: 1.6 GB/s at most, while
    // peer-to-peer reaches the 3.2 GB/s of the SSD link (GPU link 12.8 GB/s).
    PcieTopologySettings t = topology(1);
    t.host_memory_bandwidth = 3.2e9;
    GpuDmaPort dma(GpuDmaPortSettings{});
    t.route = GpuDataRoute::HostBounce;
    PcieTopology bounce(t, dma);
    t.route = GpuDataRoute::PeerToPeer;
    PcieTopology p2p(t, dma);
    Tick b = 0, p = 0;
    for (int i = 0; i < 1000; ++i) {
        b = bounce.ssd_to_memory(0, IoMemory::Gpu, 0, 4096, 0);
        p = p2p.ssd_to_memory(0, IoMemory::Gpu, 0, 4096, 0);
    }
    // Bounce: host DRAM carries 1000 x 2 x 4096 B at 3.2 GB/s = 2.56 ms of work.
    EXPECT_EQ(bounce.host_memory().busy_time(), 2000 * 1280 * kNanosecond);
    EXPECT_NEAR(1000 * 4096 / (static_cast<double>(b) / kSecond) / 1e9, 1.6, 1.6 * 0.01);
    // Peer-to-peer: the SSD link's 1.28 ms.
    EXPECT_NEAR(1000 * 4096 / (static_cast<double>(p) / kSecond) / 1e9, 3.2, 3.2 * 0.01);
}

TEST(PcieTopology, SsdLinkIsFullDuplexUnlessConfiguredShared) {
    PcieTopologySettings t = topology(1);
    GpuDmaPort dma(GpuDmaPortSettings{});
    PcieTopology duplex(t, dma);
    t.ssd_link_duplex = false;  // Hetero's SSD model: one server for both directions
    PcieTopology shared(t, dma);
    // A read and a write of 4 KiB from host DRAM at t = 0. Duplex: each alone, 1.28 us
    // + 200 ns + 100 ns = 1.58 us. Shared: the write (its data at the link from 100 ns)
    // waits for the read's 1.28 us, then 1.28 us + 200 ns: 2.76 us.
    EXPECT_EQ(duplex.ssd_to_memory(0, IoMemory::Host, 0, 4096, 0), 1580 * kNanosecond);
    EXPECT_EQ(duplex.memory_to_ssd(0, IoMemory::Host, 0, 4096, 0), 1580 * kNanosecond);
    EXPECT_EQ(shared.ssd_to_memory(0, IoMemory::Host, 0, 4096, 0), 1580 * kNanosecond);
    EXPECT_EQ(shared.memory_to_ssd(0, IoMemory::Host, 0, 4096, 0), 2760 * kNanosecond);
}

TEST(PcieTopology, GpuLinkEfficiencyOfSeed000GivesItsMeasured21GBps) {
    // Seed 000: Gen4 x16 measured at 21 GB/s: 16 x 16 GT/s x 128/130 / 8 x 0.6665.
    PcieLinkSpec gen4{16, 16'000'000'000, 128.0 / 130.0, 0.6665, 0};
    EXPECT_NEAR(gen4.bytes_per_second(), 21e9, 21e9 * 0.0005);
}

// A GPU memory that records what the port sends it.
struct RecordingSink final : DmaTrafficSink {
    struct Access {
        uint64_t addr, bytes;
        Tick first, last;
        bool write;
        bool operator==(const Access&) const = default;
    };
    void attach_dma() override { ++attached; }
    void dma_access(uint64_t addr, uint64_t bytes, Tick first, Tick last, bool write) override {
        accesses.push_back({addr, bytes, first, last, write});
    }
    int attached = 0;
    std::vector<Access> accesses;
};

TEST(GpuDmaPort, EveryByteAlsoGoesThroughTheGpuMemoryAsItPassesThePort) {
    GpuDmaPortSettings s;
    s.bandwidth = 4096e9;  // 4096 B per ns
    GpuDmaPort port(s);
    RecordingSink memory;
    port.set_sink(&memory);
    EXPECT_EQ(memory.attached, 1);
    // A write arriving from 0 to 1 ns streams through the port, which 4 KiB hold for
    // 1 ns: it is in by 1 ns. A read of 8 KiB from 5 ns takes the port 2 ns.
    EXPECT_EQ(port.write(Flow{0, 1 * kNanosecond}, 4096, 0x1000).last, 1 * kNanosecond);
    EXPECT_EQ(port.read(5 * kNanosecond, 8192, 0x8000).last, 7 * kNanosecond);
    ASSERT_EQ(memory.accesses.size(), 2u);
    EXPECT_EQ(memory.accesses[0].addr, 0x1000u);
    EXPECT_EQ(memory.accesses[0].bytes, 4096u);
    EXPECT_EQ(memory.accesses[0].last, 1 * kNanosecond);
    EXPECT_TRUE(memory.accesses[0].write);
    EXPECT_EQ(memory.accesses[1], (RecordingSink::Access{0x8000, 8192, memory.accesses[1].first, 7 * kNanosecond, false}));
    EXPECT_EQ(port.bytes_written(), 4096u);
    EXPECT_EQ(port.bytes_read(), 8192u);
}

}  // namespace
}  // namespace zng::storage::test
