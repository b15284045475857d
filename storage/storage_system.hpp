// The storage path of one node, assembled from a `storage:` section: the SSD array
// (`array:`), the PCIe topology (`pcie:`), the host CPU (`host_cpu:`) and the GPU's DMA
// port (`gpu_dma:`), each with its own schema and defaults, and, when the section has
// one, the control plane (`control_plane:`, type bam | cam | spdk | posix | gds | gofs | basic, or a caching tier) that drives
// the array and the CPU for GPU-issued I/O; register_stats() adds what
// the platform reports, read from the components' accessors when stats are written
// (nothing on the hot path).
#pragma once
#include <memory>
#include <string>

#include "storage/control/control_plane.hpp"
#include "storage/gpu/gpu_dma_port.hpp"
#include "storage/host/host_cpu.hpp"
#include "storage/pcie/pcie_topology.hpp"
#include "storage/ssd/ssd_array.hpp"

namespace zng::storage {

class StorageSystem {
public:
    static const ComponentSchema& schema();
    // `section` may be null (every default); `path` names it in messages; the SSDs'
    // device statistics (the firmware device has some) go under `stats_name`.
    StorageSystem(Simulator& sim, const ConfigNode* section, const std::string& path, const std::string& stats_name);

    // `<stats_name>.ssd<i>.{commands,bytes_read,bytes_written}`, `.pcie.*`,
    // `.host_cpu.*`, `.gpu_dma.*`.
    void register_stats(StatRegistry& stats, const std::string& stats_name) const;

    SsdArray& array() { return *array_; }
    PcieTopology& pcie() { return *pcie_; }
    HostCpu& host_cpu() { return *host_; }
    GpuDmaPort& gpu_dma() { return *dma_; }
    // Null when the section has no control_plane.
    ControlPlane* control_plane() { return plane_.get(); }

private:
    std::unique_ptr<GpuDmaPort> dma_;
    std::unique_ptr<PcieTopology> pcie_;
    std::unique_ptr<HostCpu> host_;
    std::unique_ptr<SsdArray> array_;
    std::unique_ptr<ControlPlane> plane_;
};

}  // namespace zng::storage
