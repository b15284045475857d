// The host side of Hetero's page faults on the storage components: ONE NVMe SSD with
// the firmware device model (FirmwareSsd over ONFI channels to the flash of the
// `ssd.flash` section: a Z-SSD, or TLC), its own PCIe link to host DRAM, and the
// GPU's PCIe link for the copies between host DRAM and GPU memory.
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
#include "sim/core/ring_queue.hpp"
#include "storage/gpu/gpu_dma_port.hpp"
#include "storage/pcie/pcie_link.hpp"
#include "storage/pcie/pcie_topology.hpp"
#include "storage/ssd/firmware_ssd_device.hpp"
#include "storage/ssd/nvme_ssd.hpp"

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
    void read(uint64_t addr, uint64_t bytes, Done done);
    void write(uint64_t addr, uint64_t bytes, Done done);
    // Copies between host DRAM and GPU memory over the GPU's link; the tick the last
    // byte arrives.
    Tick host_to_gpu(Tick earliest, uint64_t bytes) { return pcie_.host_to_gpu(earliest, bytes); }
    Tick gpu_to_host(Tick earliest, uint64_t bytes) { return pcie_.gpu_to_host(earliest, bytes); }

    uint64_t capacity_bytes() const { return ssd_.capacity_bytes(); }
    uint64_t page_size() const { return device_->page_size(); }
    Tick command_latency() const { return ssd_.settings().submission_cost(); }
    const ftl::FirmwareSsd& controller() const { return device_->controller(); }
    const NvmeSsd& nvme() const { return ssd_; }
    const PcieTopology& pcie() const { return pcie_; }

private:
    HeteroHostSsd(Simulator& sim, const Params& p, const std::string& stats_name, const PcieLinkSpec& gpu_link,
                  flash::FlashOpExecutor* flash);
    void issue(uint64_t addr, uint64_t bytes, IoOp op, Done done);
    void drain();

    GpuDmaPort gpu_memory_;
    PcieTopology pcie_;
    FirmwareSsdDevice* device_;  // owned by ssd_
    NvmeSsd ssd_;
    RingQueue<IoRequest> waiting_;  // commands that found the queue pair full
};

}  // namespace zng::storage
