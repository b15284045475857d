#include "storage/hetero/hetero_host_ssd.hpp"

#include "sim/config/registry.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const Param<Time> kCommandLatency{"command_latency", "2us",
                                  "NVMe submission: doorbell write, command fetch, completion interrupt (assumption)"};
const PcieLinkParams kLink("link_", "the SSD's host link", 4, "8GT/s", "1us");
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

PcieTopologySettings topology_settings(const Params& p, const PcieLinkSpec& gpu_link) {
    PcieTopologySettings t;
    t.ssds = 1;
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

std::unique_ptr<SsdDevice> make_device(Simulator& sim, const Params& p, const std::string& stats_name,
                                       flash::FlashOpExecutor* flash, FirmwareSsdDevice*& out) {
    auto d = std::make_unique<FirmwareSsdDevice>(sim, p, stats_name, flash);
    out = d.get();
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
        c.params = {kCommandLatency};
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
      array_(sim, SsdArraySettings{}, nvme_settings(p),
             [&](uint32_t) { return make_device(sim, p, stats_name, flash, device_); }, pcie_),
      plane_(StoragePath{sim, array_, pcie_, host_}, OsFaultSettings{}) {}

}  // namespace zng::storage
