// Seed 001's "Basic" baseline (`storage.control_plane.type: basic`): "The host CPU
// executes filesystem operations and accesses the disk using F2FS. Data is first staged
// in host memory and then transferred to GPU using cudaMemcpy." It is the posix plane
// (host threads, the host CPU's per-command kernel I/O stack cost, a host bounce buffer
// and a copy per contiguous run; storage/control/cpu_managed_plane.hpp) with F2FS's
// inode write lock in front of it: writes to one file enter the file system one at a
// time, each holding the lock for `write_lock_hold` ("The write throughput of Basic is
// only 1.1GB/s due to lock contentions among CPU threads"). Reads take no lock.
//
// Offsets are file 0's (file_offset.hpp): Basic serves the single-file benchmarks; the
// host file system's block mapping is not modelled (file offset = device offset).
#pragma once
#include <memory>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/cpu_managed_plane.hpp"

namespace zng::storage::gofs {

struct BasicSettings {
    CpuManagedSettings host;
    Tick write_lock_hold = 3'720 * kNanosecond;

    static const ComponentSchema& schema();
    static BasicSettings read(const Params& p);
};

class BasicPlane final : public ControlPlane, private StorageIoClient {
public:
    BasicPlane(const StoragePath& path, const BasicSettings& s);
    bool can_submit(uint32_t requests, StorageIoClient& waiter) override { return host_.can_submit(requests, waiter); }
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;
    uint64_t in_flight() const override { return host_.in_flight(); }
    void register_stats(StatGroup g) const override;
    uint64_t lock_waits() const { return lock_waits_; }

private:
    struct Entry {
        StorageIoBatch batch;  // one request
        StorageIo io;
    };
    void io_done(uint64_t token) override;
    void io_room() override {}
    void enter(Entry& e);
    // The request as handed to the host plane: its token names a slot holding the issuer.
    StorageIo tagged(const StorageIo& io, StorageIoClient& client);

    BasicSettings s_;
    CpuManagedPlane host_;
    std::vector<std::pair<StorageIoClient*, uint64_t>> issuers_;  // per slot: client, its token
    std::vector<uint32_t> free_slots_;
    std::vector<StorageIo> scratch_;
    Tick lock_free_ = 0;  // the inode write lock's next free time
    TimedQueue<Entry> locked_;
    uint64_t lock_waits_ = 0;
};

}  // namespace zng::storage::gofs
