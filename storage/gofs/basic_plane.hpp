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
//
// Seed 001's Host-Only ("CPU preprocesses the dataset"; "Both Host-Only and GeminiFS
// pipeline I/O and computation") is the same host file system with the program's
// computation on the host too: the trace's host-transform calls (file_offset.hpp). Such
// a batch_read is a pread per file into host memory, no copy to the GPU; as each file
// arrives, its transform (`transform_cost` of CPU time) runs on one of the plane's
// threads' cores: the one not transforming whose system calls end first, or, when all
// are transforming, the first to end, in arrival order. The system calls of the file
// work (opens, creates, the next files' preads and pwrites) preempt a transform on their
// core (a thread woken from I/O runs before a computing one) and lengthen it by their
// CPU time, so that the reads of later files proceed while the cores compute and the
// call takes about the longer of its reads and its transforms, not their sum. A
// host-transform batch_write writes each file from host memory.
// Keeping the transform in the plane (not in the trace's GPU compute) puts it on the
// cores that also run the file system's calls, which is where Host-Only spends it.
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/cpu_managed_plane.hpp"
#include "storage/gofs/host_file_opens.hpp"

namespace zng::storage::gofs {

struct BasicSettings {
    CpuManagedSettings host;
    Tick write_lock_hold = 3'720 * kNanosecond;
    Tick transform_cost = 1'361 * kMicrosecond;  // per file of a host-transform batch_read

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
    uint64_t transforms() const { return transforms_; }

private:
    static constexpr uint32_t kNoCall = ~0u;
    struct Issuer {
        StorageIoClient* client = nullptr;
        uint64_t token = 0;
        uint32_t call = kNoCall;  // the batched call a file's request belongs to
        bool transform = false;   // a host-transform read: the file's transform follows
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
    StorageIo tagged(const StorageIo& io, StorageIoClient& client, uint32_t call = kNoCall, bool transform = false);
    void submit_host_transform(const StorageIo& io, const StorageIoBatch& batch, StorageIoClient& client);
    void file_done(uint32_t call);
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
    struct Transform {
        bool running = false;
        uint32_t call = 0;
        Tick calls_seen = 0;  // the core's command time when the transform last took stock
    };
    void transform(uint32_t core, uint32_t call);
    void transform_end(uint32_t core);
    TimedQueue<uint32_t> transformed_;    // a core whose transform may have ended
    std::vector<Transform> transforming_;  // per plane thread's core
    std::deque<uint32_t> to_transform_;   // arrived files (their calls) waiting for a core
    uint64_t lock_waits_ = 0, transforms_ = 0;
    HostFileOpens opens_;  // F2FS: a node block per inode
};

}  // namespace zng::storage::gofs
