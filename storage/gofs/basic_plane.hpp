// Seed 001's "Basic" baseline (`storage.control_plane.type: basic`): "The host CPU
// executes filesystem operations and accesses the disk using F2FS. Data is first staged
// in host memory and then transferred to GPU using cudaMemcpy." It is the posix plane
// (host threads, the host CPU's per-command kernel I/O stack cost, a host bounce buffer
// and a copy per contiguous run; storage/control/cpu_managed_plane.hpp) with F2FS's
// inode write lock in front of it: writes to one file enter the file system one at a
// time, each holding the lock for `write_lock_hold` ("The write throughput of Basic is
// only 1.1GB/s due to lock contentions among CPU threads"). Reads take no lock.
//
// Plain requests are file 0's (file_offset.hpp): Basic serves the single-file
// benchmarks; the host file system's block mapping is not modelled (file offset =
// device offset).
//
// A batched call (file_offset.hpp) is what the host does for it file by file, the host
// having no batched API: batch_open is one open per file (host_file_opens.hpp: the
// system call, assumed to cost a host thread what one pread's trip through the kernel
// does, then for a cold file the wait for its inode's 4 KiB node block), the threads
// taking the files in turn. Creating the directory's files is one such call per file,
// one after another, since each holds the directory's inode lock (Linux fs/namei.c,
// open_last_lookups: "inode_lock(dir->d_inode)" for O_CREAT); batch_read/batch_write
// is one pread/pwrite per file through the host plane, file f's bytes at device offset
// f x the per-file bytes (files to different inodes take no common lock). The call
// completes when its last file's does.
#pragma once
#include <memory>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/cpu_managed_plane.hpp"
#include "storage/gofs/host_file_opens.hpp"

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
    uint64_t opens() const { return opens_.opens(); }
    uint64_t inode_reads() const { return opens_.block_reads(); }
    uint64_t creates() const { return creates_; }

private:
    static constexpr uint32_t kNoCall = ~0u;
    struct Issuer {
        StorageIoClient* client = nullptr;
        uint64_t token = 0;
        uint32_t call = kNoCall;  // the batched call a file's request belongs to
    };
    struct Call {
        StorageIoClient* client = nullptr;
        uint64_t token = 0;
        uint64_t left = 0;  // files not yet done
    };
    struct Entry {
        StorageIoBatch batch;  // one request
        StorageIo io;
    };
    void io_done(uint64_t token) override;
    void io_room() override {}
    void enter(Entry& e);
    // The request as handed to the host plane: its token names a slot holding the issuer.
    StorageIo tagged(const StorageIo& io, StorageIoClient& client, uint32_t call = kNoCall);
    void submit_batched(const StorageIo& io, const StorageIoBatch& batch, StorageIoClient& client);
    uint32_t new_call(StorageIoClient& client, uint64_t token, uint64_t left);
    void call_done(uint32_t call);
    uint32_t next_thread() { return static_cast<uint32_t>(next_thread_++ % s_.host.threads); }
    BasicSettings s_;
    CpuManagedPlane host_;
    std::vector<Issuer> issuers_;  // per slot
    std::vector<uint32_t> free_slots_;
    std::vector<Call> calls_;
    std::vector<uint32_t> free_calls_;
    uint64_t next_thread_ = 0, creates_ = 0;
    std::vector<StorageIo> scratch_;
    Tick lock_free_ = 0;  // the inode write lock's next free time
    TimedQueue<Entry> locked_;
    TimedQueue<uint32_t> metadata_done_;  // batched creates, at their end
    uint64_t lock_waits_ = 0;
    HostFileOpens opens_;  // F2FS: a node block per inode
};

}  // namespace zng::storage::gofs
