// A storage path small enough to compute by hand: calibrated SSDs behind NVMe queues,
// PCIe links with round rates (8 GT/s x 8b10b: 0.8 GB/s per lane, exactly), a GPU DMA
// port, all built from settings structs (the config path has its own tests).
#pragma once
#include <memory>
#include <vector>

#include "sim/core/simulator.hpp"
#include "storage/gpu/gpu_dma_port.hpp"
#include "storage/pcie/pcie_topology.hpp"
#include "storage/ssd/calibrated_ssd_device.hpp"
#include "storage/ssd/ssd_array.hpp"

namespace zng::storage::test {

// 4 KiB read alone: device 10 us; IOPS and bandwidth far from binding.
inline CalibratedSsdSettings fast_device() {
    CalibratedSsdSettings d;
    d.read_latency = 10 * kMicrosecond;
    d.write_latency = 20 * kMicrosecond;
    d.read_iops = 1e9;
    d.write_iops = 1e9;
    d.read_bandwidth = 1e12;
    d.write_bandwidth = 1e12;
    d.capacity = uint64_t{1} << 30;
    return d;
}

// Submission 500 ns doorbell + 1 us fetch; completion 500 ns entry + 100 ns poll.
inline NvmeSettings nvme(uint32_t queues, uint32_t depth) {
    NvmeSettings n;
    n.queue_pairs = queues;
    n.queue_depth = depth;
    n.doorbell_latency = 500 * kNanosecond;
    n.command_fetch_latency = 1 * kMicrosecond;
    n.completion_write_latency = 500 * kNanosecond;
    n.notice = CompletionNotice::Polling;
    n.poll_latency = 100 * kNanosecond;
    n.lba_bytes = 512;
    return n;
}

// SSD links x4 at 8 GT/s 8b10b = 3.2 GB/s (4096 B in 1.28 us), 200 ns; fabric 100 ns;
// GPU link x16 = 12.8 GB/s (4096 B in 320 ns), 300 ns; host DRAM and the DMA port
// not limits, no latency.
inline PcieTopologySettings topology(uint32_t ssds, uint32_t gpu_lanes = 16) {
    PcieTopologySettings t;
    t.ssds = ssds;
    t.ssd_link = PcieLinkSpec{4, 8'000'000'000, 0.8, 1.0, 200 * kNanosecond};
    t.fabric_latency = 100 * kNanosecond;
    t.gpu_link = PcieLinkSpec{gpu_lanes, 8'000'000'000, 0.8, 1.0, 300 * kNanosecond};
    t.host_memory_latency = 0;
    return t;
}

struct StorageRig {
    StorageRig(const PcieTopologySettings& t, const NvmeSettings& n, const CalibratedSsdSettings& d,
               SsdArraySettings a = {})
        : dma(GpuDmaPortSettings{}), pcie(t, dma),
          array(sim, [&] { a.ssds = t.ssds; return a; }(), n,
                [&](uint32_t) { return std::make_unique<CalibratedSsdDevice>(sim, d); }, pcie) {}
    NvmeSsd& ssd(uint32_t i = 0) { return array.ssd(i); }
    Simulator sim;
    GpuDmaPort dma;
    PcieTopology pcie;
    SsdArray array;
};

inline IoRequest read_4k(uint64_t lba, std::function<void(IoRequest&)> done, uint32_t queue = 0) {
    IoRequest r;
    r.op = IoOp::Read;
    r.lba = lba;
    r.bytes = 4096;
    r.memory = IoMemory::Gpu;
    r.queue = queue;
    r.done = std::move(done);
    return r;
}

}  // namespace zng::storage::test
