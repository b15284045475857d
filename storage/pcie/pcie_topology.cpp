#include "storage/pcie/pcie_topology.hpp"

#include "sim/config/registry.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
// Intel P5510 and Samsung 990 Pro are both PCIe 4.0 x4 drives (product specifications).
// Link latencies (500 ns, DMA set-up and flight) are assumptions.
const PcieLinkParams kSsdLink("ssd_link_", "each SSD's link (PCIe 4.0 x4: P5510, 990 Pro)", 4, "16GT/s", "500ns");
// Seed 000 IV-B: "The measured peak PCIe bandwidth (21 GB/s) is lower than the
// theoretical value (32 GB/s)" on the A100's PCIe Gen4 x16: 16 x 16 GT/s x 128/130 / 8
// = 31.51 GB/s encoded, of which 21 GB/s is 0.6665.
const PcieLinkParams kGpuLink("gpu_link_", "the GPU's link (A100 PCIe: Gen4 x16)", 16, "16GT/s", "500ns", "0.6665");
const Param<Bool> kSsdLinkDuplex{"ssd_link_duplex", "true",
                                 "each SSD's link carries reads and writes at once, a lane pair per direction (PCIe "
                                 "links are full duplex); false: one server for both (Hetero's SSD as it was modelled)"};
const Param<Time> kFabricLatency{"fabric_latency", "150ns",
                                 "the switch or root complex forwarding a packet (assumption: a PCIe switch's "
                                 "cut-through latency is of this order)"};
const auto kFabricBandwidth =
    Param<Bandwidth>("fabric_bandwidth", "0B/s",
                     "per direction through the switch's upstream port (0: the root complex, not a limit)")
        .min(0);
const auto kRoute = Param<Choice>("route", "peer_to_peer",
                                  "how SSD data reaches GPU memory: peer_to_peer (GPUDirect) or host_bounce (host "
                                  "DRAM, then a copy)")
                        .choices({"peer_to_peer", "host_bounce"});
// Seed 000 Table III: 2 x Xeon Gold 5320; Intel's specification of the 5320: 8 DDR4-2933
// channels per socket: 16 x 2933 MT/s x 8 B = 375,424 MB/s.
const auto kHostMemoryBandwidth =
    Param<Bandwidth>("host_memory_bandwidth", "375424MB/s",
                     "host DRAM bandwidth DMA and copies share (2 x Xeon Gold 5320: 16 x DDR4-2933; 0: not a limit)")
        .min(0);
const Param<Time> kHostMemoryLatency{"host_memory_latency", "100ns",
                                     "host DRAM access beyond the transfer (assumption)"};
}  // namespace

const ComponentSchema& PcieTopologySettings::schema() {
    static const CataloguedSchema s{[] {
        ComponentSchema c;
        c.slot = "storage";
        c.name = "pcie";
        c.description = "PCIe between the SSDs, host DRAM and the GPU: per-SSD links, a switch or root complex, "
                        "the GPU's link with its measured efficiency; peer-to-peer or through a host bounce buffer.";
        c.params = kSsdLink.specs();
        for (const ParamSpec& p : kGpuLink.specs()) c.params.push_back(p);
        for (const ParamSpec& p : std::vector<ParamSpec>{kSsdLinkDuplex, kFabricLatency, kFabricBandwidth, kRoute,
                                                          kHostMemoryBandwidth, kHostMemoryLatency})
            c.params.push_back(p);
        return c;
    }()};
    return s.schema;
}

PcieTopologySettings PcieTopologySettings::read(const Params& p, uint32_t ssds) {
    PcieTopologySettings s;
    s.ssds = ssds;
    s.ssd_link = kSsdLink.read(p);
    s.gpu_link = kGpuLink.read(p);
    s.ssd_link_duplex = p[kSsdLinkDuplex];
    s.fabric_latency = p[kFabricLatency];
    s.fabric_bandwidth = p[kFabricBandwidth];
    s.route = p[kRoute] == "host_bounce" ? GpuDataRoute::HostBounce : GpuDataRoute::PeerToPeer;
    s.host_memory_bandwidth = p[kHostMemoryBandwidth];
    s.host_memory_latency = p[kHostMemoryLatency];
    return s;
}

PcieTopology::PcieTopology(const PcieTopologySettings& s, GpuDmaPort& gpu_memory)
    : gpu_memory_(gpu_memory), route_(s.route), duplex_(s.ssd_link_duplex),
      ssd_up_(s.ssds, BandwidthServer(s.ssd_link.bytes_per_second(), s.ssd_link.latency)),
      ssd_down_(s.ssd_link_duplex ? s.ssds : 0, BandwidthServer(s.ssd_link.bytes_per_second(), s.ssd_link.latency)),
      fabric_up_(s.fabric_bandwidth, s.fabric_latency), fabric_down_(s.fabric_bandwidth, s.fabric_latency),
      gpu_down_(s.gpu_link.bytes_per_second(), s.gpu_link.latency),
      gpu_up_(s.gpu_link.bytes_per_second(), s.gpu_link.latency),
      host_memory_(s.host_memory_bandwidth, s.host_memory_latency) {
    if (s.ssds == 0) throw SimError("PCIe topology: at least one SSD is needed");
}

Flow PcieTopology::host_write(Flow in, uint64_t bytes) {
    host_written_ += bytes;
    return host_memory_.pass(in, bytes);
}

Flow PcieTopology::host_read(Tick earliest, uint64_t bytes) {
    host_read_ += bytes;
    return host_memory_.pass(Flow::at(earliest), bytes);
}

Tick PcieTopology::ssd_to_memory(uint32_t ssd, IoMemory to, Tick earliest, uint64_t bytes, uint64_t addr) {
    const Flow out = fabric_up_.pass(ssd_up_.at(ssd).pass(Flow::at(earliest), bytes), bytes);
    if (to == IoMemory::Host) return host_write(out, bytes).last;
    if (route_ == GpuDataRoute::PeerToPeer) return gpu_memory_.write(gpu_down_.pass(out, bytes), bytes, addr).last;
    // Bounce: the copy to the GPU starts once the whole DMA is in host DRAM.
    return host_to_gpu(host_write(out, bytes).last, bytes, addr);
}

Tick PcieTopology::memory_to_ssd(uint32_t ssd, IoMemory from, Tick earliest, uint64_t bytes, uint64_t addr) {
    Flow in;
    if (from == IoMemory::Host)
        in = host_read(earliest, bytes);
    else if (route_ == GpuDataRoute::PeerToPeer)
        in = gpu_up_.pass(gpu_memory_.read(earliest, bytes, addr), bytes);
    else  // bounce: the whole copy lands in host DRAM before the SSD's DMA reads it
        in = host_read(gpu_to_host(earliest, bytes, addr), bytes);
    return ssd_down(ssd).pass(fabric_down_.pass(in, bytes), bytes).last;
}

Tick PcieTopology::host_to_gpu(Tick earliest, uint64_t bytes, uint64_t gpu_addr) {
    return gpu_memory_.write(gpu_down_.pass(host_read(earliest, bytes), bytes), bytes, gpu_addr).last;
}

Tick PcieTopology::gpu_to_host(Tick earliest, uint64_t bytes, uint64_t gpu_addr) {
    return host_write(gpu_up_.pass(gpu_memory_.read(earliest, bytes, gpu_addr), bytes), bytes).last;
}

}  // namespace zng::storage
