// The host side of Hetero's page faults on the storage components: the os_fault control
// plane over one NVMe SSD (`ssds` of them, pages striped RAID0 in `stripe_size` units)
// with the firmware device model (FirmwareSsd over ONFI channels to the flash of the
// `ssd.flash` section: a Z-SSD, or TLC), each with its own PCIe link to host DRAM, and
// the GPU's PCIe link for the copies between host DRAM and GPU memory.
//
// It keeps Hetero's timing as it has always been, which the general components reach
// with these settings: one queue pair deep enough never to refuse (NVMe's 65,536), the
// whole NVMe cost (`command_latency`: doorbell, command fetch, completion interrupt)
// paid at submission and none at completion, one server for both directions of the
// SSD's link, a root complex, host DRAM and GPU memory that add neither latency nor a
// bandwidth limit. Reads land in host DRAM; the fault handler copies the page on.
#pragma once
#include <functional>
#include <memory>

#include "sim/config/params.hpp"
#include "storage/control/os_fault_plane.hpp"
#include "storage/host/host_cpu.hpp"
#include "storage/gpu/gpu_dma_port.hpp"
#include "storage/pcie/pcie_link.hpp"
#include "storage/pcie/pcie_topology.hpp"
#include "storage/ssd/firmware_ssd_device.hpp"
#include "storage/ssd/nvme_ssd.hpp"
#include "storage/ssd/ssd_array.hpp"

namespace zng::storage {

class HeteroHostSsd {
public:
    static const ComponentSchema& schema();
    // `section` is the translator's `ssd:` subsection (may be null: defaults, a Z-SSD);
    // `gpu_link` the GPU's PCIe link. `flash` overrides the flash model (tests).
    HeteroHostSsd(Simulator& sim, const ConfigNode* section, const std::string& path, const std::string& stats_name,
                  const PcieLinkSpec& gpu_link, flash::FlashOpExecutor* flash = nullptr);

    using Done = IoRequest::Done;  // may be empty
    // Reads / writes `bytes` at logical byte `addr` (flash-page aligned) between the SSD
    // and host DRAM.
    void read(uint64_t addr, uint64_t bytes, Done done) { plane_.read(addr, bytes, std::move(done)); }
    void write(uint64_t addr, uint64_t bytes, Done done) { plane_.write(addr, bytes, std::move(done)); }
    // Copies between host DRAM and GPU memory over the GPU's link; the tick the last
    // byte arrives.
    Tick host_to_gpu(Tick earliest, uint64_t bytes, uint64_t gpu_addr) {
        return plane_.host_to_gpu(earliest, bytes, gpu_addr);
    }
    Tick gpu_to_host(Tick earliest, uint64_t bytes, uint64_t gpu_addr) {
        return plane_.gpu_to_host(earliest, bytes, gpu_addr);
    }

    // The fault handler's commands and copies on these components.
    OsFaultPlane& plane() { return plane_; }
    GpuDmaPort& gpu_dma() { return gpu_memory_; }
    uint64_t capacity_bytes() const { return array_.capacity_bytes(); }
    uint64_t page_size() const { return device_->page_size(); }
    Tick command_latency() const { return nvme().settings().submission_cost(); }
    const ftl::FirmwareSsd& controller() const { return device_->controller(); }  // SSD 0's
    const NvmeSsd& nvme(uint32_t i = 0) const { return array_.ssd(i); }
    uint32_t ssds() const { return array_.size(); }
    const PcieTopology& pcie() const { return pcie_; }

private:
    HeteroHostSsd(Simulator& sim, const Params& p, const std::string& stats_name, const PcieLinkSpec& gpu_link,
                  flash::FlashOpExecutor* flash);
    GpuDmaPort gpu_memory_;
    PcieTopology pcie_;
    HostCpu host_;               // the fault handler's CPU cost is the translator's, per batch
    FirmwareSsdDevice* device_;  // SSD 0's, owned by array_
    SsdArray array_;
    OsFaultPlane plane_;
};

}  // namespace zng::storage
