// A control plane: who builds the NVMe commands of GPU-issued I/O, where their queues
// live, and how data and completions reach the GPU. Planes are chosen by name in a
// platform's `storage.control_plane.type` (slot "control_plane"):
//   bam                  GPU threads write submission entries and ring doorbells
//   cam                  GPU threads write a batch of LBAs, a CPU pool issues SPDK commands
//   spdk, posix, gds     the host issues the commands (SPDK, the kernel, cuFile)
//   os_fault             no GPU-issued I/O: the host's page-fault handler (Hetero)
//   gofs, basic          GoFS and seed 001's Basic (storage/gofs)
//   cache_vol            HDF5 Cache VOL's node-local cache (storage/cache_vol)
//   streamer, ...        caching tiers of host tasks' partitions (storage/streamer)
// Each is the platform's StorageIoService (sim/mem/storage_io_service.hpp).
//
// What the planes share (this base): the mapping of a storage byte offset to the SSD
// array (RAID0 over the array, or the SSDs one after another with direct placement),
// the bound on requests taken and not completed (back-pressure towards the SMs), a
// FIFO per SSD queue pair for commands whose queue is full, and statistics.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "sim/config/params.hpp"
#include "sim/config/registry.hpp"
#include "sim/mem/interface_provider.hpp"
#include "sim/mem/storage_io_service.hpp"
#include "sim/stats/stats.hpp"
#include "storage/host/host_cpu.hpp"
#include "storage/pcie/pcie_topology.hpp"
#include "storage/ssd/ssd_array.hpp"

namespace zng::storage {

// The components a plane drives.
struct StoragePath {
    Simulator& sim;
    SsdArray& array;
    PcieTopology& pcie;
    HostCpu& host;
};

class ControlPlane : public StorageIoService, public InterfaceProvider {
public:
    ControlPlane(const StoragePath& path, uint32_t max_in_flight);
    ~ControlPlane() override = default;

    bool can_submit(uint32_t requests, StorageIoClient& waiter) override;
    uint64_t in_flight() const override { return in_flight_; }

    // `<prefix>.{requests,bytes_read,bytes_written,latency_sum}`.
    virtual void register_stats(StatGroup g) const;

    uint64_t requests() const { return requests_; }
    Tick latency_sum() const { return latency_sum_; }

    // The keys every plane has.
    static std::vector<ParamSpec> common_params();
    // A plane's schema: its name, description, the common keys, then its own.
    static ComponentSchema schema_of(std::string name, std::string description, std::initializer_list<ParamSpec> own);
    static uint32_t read_max_in_flight(const Params& p);

protected:
    // The NVMe command of `io` with data in `memory` (lba, bytes, op; ssd for direct
    // placement); queue and done are the caller's.
    IoRequest command(const StorageIo& io, IoMemory memory) const;
    // The SSD a command goes to (its first piece's, under RAID0).
    uint32_t ssd_of(const IoRequest& r) const;
    // Hands r to the array, or to the FIFO of its queue pair while that is full.
    void issue(IoRequest r);
    // A host thread's read of `bytes` at device `offset` into host memory (the kernel's
    // page cache), on the thread's queue pair; `done` when the data is there.
    void read_into_host(uint64_t offset, uint32_t bytes, uint32_t thread, std::function<void()> done);
    // A request taken at `taken` completes now: tells the client, frees room.
    void finish(StorageIoClient& client, const StorageIo& io, Tick taken);
    void taken(uint32_t requests) { in_flight_ += requests; }

    StoragePath p_;

private:
    void retry_blocked();

    uint32_t max_in_flight_;
    uint64_t in_flight_ = 0;
    std::vector<StorageIoClient*> waiters_;
    std::vector<StorageIoClient*> scratch_;
    std::vector<std::deque<IoRequest>> blocked_;  // per (ssd, queue pair)
    std::vector<uint32_t> blocked_list_;          // indices of non-empty FIFOs
    uint64_t requests_ = 0, bytes_read_ = 0, bytes_written_ = 0;
    Tick latency_sum_ = 0;
};

using ControlPlaneSlot = Slot<ControlPlane, const StoragePath&>;
ControlPlaneSlot& control_plane_slot();
// Registers bam, cam, spdk, posix, gds, os_fault, gofs, basic, cache_vol and the caching tiers.
void register_control_planes();

}  // namespace zng::storage
