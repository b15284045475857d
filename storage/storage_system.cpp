#include "storage/storage_system.hpp"

#include "sim/config/registry.hpp"
#include "sim/stats/stats.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const Param<Section> kArray{"array", "", "the SSDs (storage/ssd_array)"};
const Param<Section> kPcie{"pcie", "", "the PCIe topology (storage/pcie)"};
const Param<Section> kHostCpu{"host_cpu", "", "the host CPU cores (storage/host_cpu)"};
const Param<Section> kGpuDma{"gpu_dma", "", "the GPU memory's DMA port (storage/gpu_dma)"};
const Param<Section> kControlPlane{"control_plane", "",
                                   "who issues GPU-issued I/O (type: bam | cam | spdk | posix | gds | gofs | basic | cache_vol | os_fault, or a caching tier: "
                                   "streamer | user_io | libaio_prefetch | disk_only | memory_and_disk | memory_only; "
                                   "slot control_plane); "
                                   "absent: the platform has no GPU-issued I/O"};
}  // namespace

const ComponentSchema& StorageSystem::schema() {
    static const CataloguedSchema s{{.slot = "storage",
                                     .name = "system",
                                     .description = "A node's storage path: SSD array, PCIe topology, host CPU and "
                                                    "GPU DMA port.",
                                     .params = {kArray, kPcie, kHostCpu, kGpuDma, kControlPlane},
                                     .ports = {}}};
    return s.schema;
}

StorageSystem::StorageSystem(Simulator& sim, const ConfigNode* section, const std::string& path,
                             const std::string& stats_name) {
    const Params p(section, schema(), path);
    const Params ap(p[kArray], SsdArraySettings::schema(), path + "." + kArray.key());
    const Params pp(p[kPcie], PcieTopologySettings::schema(), path + "." + kPcie.key());
    const Params hp(p[kHostCpu], HostCpuSettings::schema(), path + "." + kHostCpu.key());
    const Params dp(p[kGpuDma], GpuDmaPortSettings::schema(), path + "." + kGpuDma.key());
    dma_ = std::make_unique<GpuDmaPort>(GpuDmaPortSettings::read(dp));
    pcie_ = std::make_unique<PcieTopology>(PcieTopologySettings::read(pp, SsdArraySettings::read(ap).ssds), *dma_);
    host_ = std::make_unique<HostCpu>(HostCpuSettings::read(hp));
    array_ = SsdArray::create(sim, ap, stats_name, *pcie_);
    if (const ConfigNode* cp = p[kControlPlane])
        plane_ = control_plane_slot().create(cp, path + "." + kControlPlane.key(), "cam",
                                             StoragePath{sim, *array_, *pcie_, *host_});
}

void StorageSystem::register_stats(StatRegistry& stats, const std::string& stats_name) const {
    StatGroup g(stats, stats_name);
    for (uint32_t i = 0; i < array_->size(); ++i) {
        const NvmeSsd* s = &array_->ssd(i);
        StatGroup sg = g.sub("ssd" + std::to_string(i));
        sg.formula("commands", "NVMe commands fetched", "commands", [s] { return double(s->commands()); });
        sg.formula("bytes_read", "bytes read by fetched commands", "B", [s] { return double(s->bytes_read()); });
        sg.formula("bytes_written", "bytes written by fetched commands", "B",
                   [s] { return double(s->bytes_written()); });
    }
    const PcieTopology* pc = pcie_.get();
    StatGroup pg = g.sub("pcie");
    pg.formula("gpu_link_down_busy", "time the GPU link carried data towards the GPU", "ps",
               [pc] { return double(pc->gpu_link_down().busy_time()); });
    pg.formula("gpu_link_up_busy", "time the GPU link carried data from the GPU", "ps",
               [pc] { return double(pc->gpu_link_up().busy_time()); });
    pg.formula("host_memory_bytes_written", "bytes DMA and copies wrote into host DRAM", "B",
               [pc] { return double(pc->host_memory_bytes_written()); });
    pg.formula("host_memory_bytes_read", "bytes DMA and copies read from host DRAM", "B",
               [pc] { return double(pc->host_memory_bytes_read()); });
    const HostCpu* h = host_.get();
    StatGroup hg = g.sub("host_cpu");
    hg.formula("commands", "commands the issuing cores handled", "commands", [h] { return double(h->commands()); });
    hg.formula("busy", "issuing-core time spent on commands, summed over cores", "ps",
               [h] { return double(h->busy_time()); });
    if (plane_) plane_->register_stats(g.sub("control_plane"));
    const GpuDmaPort* d = dma_.get();
    StatGroup dg = g.sub("gpu_dma");
    dg.formula("bytes_written", "bytes written into GPU memory", "B", [d] { return double(d->bytes_written()); });
    dg.formula("bytes_read", "bytes read out of GPU memory", "B", [d] { return double(d->bytes_read()); });
}

}  // namespace zng::storage
