#include "storage/hetero/hetero_host_ssd.hpp"

#include "sim/config/registry.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const Param<Time> kCommandLatency{"command_latency", "2us",
                                  "NVMe submission: doorbell write, command fetch, completion interrupt (assumption)"};
const PcieLinkParams kLink("link_", "the SSD's host link", 4, "8GT/s", "1us");
const auto kSsds = Param<UInt32>("ssds", "1",
                                 "host NVMe SSDs, each as described here with its own link, the pages striped over "
                                 "them (RAID0 in stripe_size units); 1 is Hetero as evaluated (paper V-A)")
                       .range(1, 1024);
const auto kStripeSize =
    Param<Size>("stripe_size", "4KiB", "RAID0 stripe unit over the SSDs (assumption: one 4 KiB page per SSD in turn)")
        .min(512);
// NVMe's largest queue: Hetero's fault handler never waits for a queue slot.
constexpr uint32_t kQueueDepth = 65536;

NvmeSettings nvme_settings(const Params& p) {
    NvmeSettings s;
    s.queue_pairs = 1;
    s.queue_depth = kQueueDepth;
    s.doorbell_latency = p[kCommandLatency];  // the whole command cost, paid up front
    s.command_fetch_latency = 0;
    s.completion_write_latency = 0;
    s.notice = CompletionNotice::Interrupt;
    s.interrupt_latency = 0;
    s.lba_bytes = 512;
    return s;
}

SsdArraySettings array_settings(const Params& p) {
    SsdArraySettings a;
    a.ssds = p[kSsds];
    a.placement = a.ssds == 1 ? Placement::Direct : Placement::Raid0;
    a.stripe_bytes = p[kStripeSize];
    return a;
}

PcieTopologySettings topology_settings(const Params& p, const PcieLinkSpec& gpu_link) {
    PcieTopologySettings t;
    t.ssds = p[kSsds];
    t.ssd_link = kLink.read(p);
    t.ssd_link_duplex = false;
    t.fabric_latency = 0;
    t.fabric_bandwidth = 0;
    t.gpu_link = gpu_link;
    t.route = GpuDataRoute::HostBounce;
    t.host_memory_bandwidth = 0;
    t.host_memory_latency = 0;
    return t;
}

// SSD i's device; its statistics under `stats_name` for SSD 0 (as with one SSD), then
// `stats_name` + i. `flash` (tests) stands in for SSD 0's flash only.
std::unique_ptr<SsdDevice> make_device(Simulator& sim, const Params& p, const std::string& stats_name, uint32_t i,
                                       flash::FlashOpExecutor* flash, FirmwareSsdDevice*& first) {
    if (flash && p[kSsds] > 1) p.fail(kSsds.key(), "must be 1 with a flash model given by the caller");
    auto d = std::make_unique<FirmwareSsdDevice>(sim, p, i == 0 ? stats_name : stats_name + std::to_string(i), flash);
    if (i == 0) first = d.get();
    return d;
}
}  // namespace

const ComponentSchema& HeteroHostSsd::schema() {
    // Catalogued: `config describe` lists the keys of hetero_host's `ssd:` section.
    static const CataloguedSchema s{[] {
        ComponentSchema c;
        c.slot = "hetero_ssd";
        c.name = "nvme";
        c.description = "Host-attached NVMe SSD: NVMe command latency, firmware SSD controller, ONFI channels, "
                        "its own PCIe link to the host.";
        c.params = {kCommandLatency, kSsds, kStripeSize};
        for (const ParamSpec& p : kLink.specs()) c.params.push_back(p);
        for (const ParamSpec& p : FirmwareSsdDevice::params()) c.params.push_back(p);
        return c;
    }()};
    return s.schema;
}

HeteroHostSsd::HeteroHostSsd(Simulator& sim, const ConfigNode* section, const std::string& path,
                             const std::string& stats_name, const PcieLinkSpec& gpu_link,
                             flash::FlashOpExecutor* flash)
    : HeteroHostSsd(sim, Params(section, schema(), path), stats_name, gpu_link, flash) {}

HeteroHostSsd::HeteroHostSsd(Simulator& sim, const Params& p, const std::string& stats_name,
                             const PcieLinkSpec& gpu_link, flash::FlashOpExecutor* flash)
    : gpu_memory_(GpuDmaPortSettings{}), pcie_(topology_settings(p, gpu_link), gpu_memory_),
      host_(HostCpuSettings{}), device_(nullptr),
      array_(sim, array_settings(p), nvme_settings(p),
             [&](uint32_t i) { return make_device(sim, p, stats_name, i, flash, device_); }, pcie_),
      plane_(StoragePath{sim, array_, pcie_, host_}, OsFaultSettings{}) {}

}  // namespace zng::storage
