// The PCIe fabric between SSDs, host DRAM and the GPU: each SSD's own link (x4), a
// switch or the root complex joining them (a latency and, for a switch, the
// bandwidth of its upstream port; 0: not a limit), host DRAM, and the GPU's link (x16)
// with its measured payload efficiency, ending in the GPU's DMA port. Each link is a
// bandwidth server per direction (PCIe is full duplex), and data crosses a route of
// them cut-through (see BandwidthServer).
//
// Routes of data meant for GPU memory: peer-to-peer (SSD -> fabric -> GPU link -> GPU
// memory) or through a host bounce buffer (SSD -> fabric -> host DRAM, then a copy
// host DRAM -> GPU link -> GPU memory once the DMA has ended), which costs host memory
// bandwidth twice (seed 000 IV-J: "Reading from SSDs consumes two times the CPU
// memory bandwidth"). Data meant for host memory stops in host DRAM; the control plane
// copies it on when it chooses (host_to_gpu, gpu_to_host).
#pragma once
#include <vector>

#include "sim/config/params.hpp"
#include "storage/bandwidth_server.hpp"
#include "storage/gpu/gpu_dma_port.hpp"
#include "storage/pcie/pcie_link.hpp"
#include "storage/ssd/nvme_ssd.hpp"

namespace zng::storage {

enum class GpuDataRoute : uint8_t { PeerToPeer, HostBounce };

struct PcieTopologySettings {
    uint32_t ssds = 1;
    PcieLinkSpec ssd_link{4, 16'000'000'000, 128.0 / 130.0, 1.0, 500 * kNanosecond};
    bool ssd_link_duplex = true;  // false: one server carries both directions
    Tick fabric_latency = 0;
    double fabric_bandwidth = 0;  // per direction; 0: not a limit
    PcieLinkSpec gpu_link;
    GpuDataRoute route = GpuDataRoute::PeerToPeer;
    double host_memory_bandwidth = 0;  // 0: not a limit
    Tick host_memory_latency = 0;

    static const ComponentSchema& schema();
    static PcieTopologySettings read(const Params& p, uint32_t ssds);
};

class PcieTopology final : public SsdDataPath {
public:
    PcieTopology(const PcieTopologySettings& s, GpuDmaPort& gpu_memory);

    // SsdDataPath: an SSD's DMA to / from GPU memory (by the route) or host DRAM.
    Tick ssd_to_memory(uint32_t ssd, IoMemory to, Tick earliest, uint64_t bytes, uint64_t addr) override;
    Tick memory_to_ssd(uint32_t ssd, IoMemory from, Tick earliest, uint64_t bytes, uint64_t addr) override;
    // Copies between host DRAM and GPU memory (at `gpu_addr`) over the GPU's link.
    Tick host_to_gpu(Tick earliest, uint64_t bytes, uint64_t gpu_addr);
    Tick gpu_to_host(Tick earliest, uint64_t bytes, uint64_t gpu_addr);
    // A copy within host DRAM (a memcpy: every byte read, then written).
    Tick host_copy(Tick earliest, uint64_t bytes) { return host_write(host_read(earliest, bytes), bytes).last; }

    uint32_t ssds() const { return static_cast<uint32_t>(ssd_up_.size()); }
    GpuDataRoute route() const { return route_; }
    const BandwidthServer& ssd_link_up(uint32_t ssd) const { return ssd_up_.at(ssd); }
    const BandwidthServer& gpu_link_down() const { return gpu_down_; }  // towards the GPU
    const BandwidthServer& gpu_link_up() const { return gpu_up_; }
    uint64_t host_memory_bytes_written() const { return host_written_; }
    uint64_t host_memory_bytes_read() const { return host_read_; }
    const BandwidthServer& host_memory() const { return host_memory_; }

private:
    BandwidthServer& ssd_down(uint32_t ssd) { return duplex_ ? ssd_down_.at(ssd) : ssd_up_.at(ssd); }
    Flow host_write(Flow in, uint64_t bytes);
    Flow host_read(Tick earliest, uint64_t bytes);

    GpuDmaPort& gpu_memory_;
    GpuDataRoute route_;
    bool duplex_;
    std::vector<BandwidthServer> ssd_up_, ssd_down_;  // up: SSD -> fabric
    BandwidthServer fabric_up_, fabric_down_;
    BandwidthServer gpu_down_, gpu_up_;               // down: fabric -> GPU
    BandwidthServer host_memory_;                     // DRAM: reads and writes share it
    uint64_t host_written_ = 0, host_read_ = 0;
};

}  // namespace zng::storage
