// os_fault: the storage I/O of the OS page-fault path (Hetero, ZnG paper II-C: "the GPU
// ... has to handle page faults with the help of the host, which reads the data from the
// SSD and copies it to the GPU memory"). GPU threads issue no I/O of their own here: a
// page fault interrupts the host, whose fault handler reads the page from the SSDs into
// host DRAM with one NVMe command and copies it over the GPU's PCIe link into GPU
// memory, and, for a dirty page it evicts, copies it back and writes it. Batching the
// faults and the handler's cost are the translator's (hetero_host); this plane is the
// handler's commands and copies on the shared storage components.
//
// One 4 KiB page in: the SSD's NVMe costs + device + DMA over its link into host DRAM,
// then the copy over the GPU link (host_to_gpu).
#pragma once
#include "storage/control/control_plane.hpp"

namespace zng::storage {

struct OsFaultSettings {
    uint32_t max_in_flight = 65536;

    static const ComponentSchema& schema();
    static OsFaultSettings read(const Params& p);
};

class OsFaultPlane final : public ControlPlane {
public:
    // Offered to the platform's translator (hetero_host), which drives this plane.
    static constexpr std::string_view kInterfaceName = "os_fault_plane";

    OsFaultPlane(const StoragePath& path, const OsFaultSettings& s);

    // The fault path issues no GPU-issued I/O: an io_submit on this plane is an error.
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;

    // Reads / writes `bytes` at array byte `addr` (whole logical blocks) between the
    // SSDs and host DRAM; done (may be empty) when the command completes. A command whose
    // queue pair is full waits in that queue's FIFO.
    void read(uint64_t addr, uint64_t bytes, IoRequest::Done done) { host_command(addr, bytes, false, std::move(done)); }
    void write(uint64_t addr, uint64_t bytes, IoRequest::Done done) { host_command(addr, bytes, true, std::move(done)); }
    // The handler's copies between host DRAM and GPU memory (at `gpu_addr`, the page's
    // frame) over the GPU's link; the tick the last byte arrives.
    Tick host_to_gpu(Tick earliest, uint64_t bytes, uint64_t gpu_addr) {
        return p_.pcie.host_to_gpu(earliest, bytes, gpu_addr);
    }
    Tick gpu_to_host(Tick earliest, uint64_t bytes, uint64_t gpu_addr) {
        return p_.pcie.gpu_to_host(earliest, bytes, gpu_addr);
    }

    // The translator whose faults this plane carries says so; a platform refuses an
    // os_fault plane that nothing drives.
    void set_driven() { driven_ = true; }
    bool driven() const { return driven_; }

    uint64_t capacity_bytes() const { return p_.array.capacity_bytes(); }
    const PcieTopology& pcie() const { return p_.pcie; }
    // Commands start and end on multiples of this: the array's logical block, or the
    // device's flash page where that is larger (the firmware model's).
    uint64_t granule() const;

protected:
    void* offered_interface(std::string_view name) override { return offer<OsFaultPlane>(this, name); }

private:
    void host_command(uint64_t addr, uint64_t bytes, bool write, IoRequest::Done done);
    bool driven_ = false;
};

}  // namespace zng::storage
