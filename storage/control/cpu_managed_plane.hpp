// Control planes whose NVMe commands the host CPU issues: CAM (seed 000 III), SPDK,
// POSIX I/O and GPUDirect Storage (GDS) as seed 000 compares them. One mechanism, configured
// per plane (each registered under its name with its own defaults):
//
//   1. the batch reaches the host: CAM's GPU threads write their LBAs into host memory
//      and the leading thread writes a flag there (gpu_signal_latency), which the CPU
//      polling thread sees on its next pass (poll_pickup); the host-driven planes know
//      their requests already (0, no poll);
//   2. a pool of CPU threads issues one command per request through the host CPU's I/O
//      stack (its per-command cost), each thread owning one queue pair on each SSD;
//      by_ssd deals the SSDs out among the threads (SSD s to thread s mod threads: CAM,
//      SPDK), round_robin gives requests to the threads in turn (the kernel's and
//      cuFile's threads reach every SSD: POSIX, GDS);
//      and, for GDS, each command wrapped in an API call costing call_cost on its
//      thread; with synchronous_calls a thread waits for its command to complete
//      before its next call (cuFileRead returns when the data is in GPU memory);
//   3. data: peer_to_peer straight into GPU memory (CAM, GDS), or host_bounce: into a
//      host buffer, then one GPU copy per contiguous run of destinations, each copy
//      call costing copy_call_cost on the copying thread (SPDK, POSIX);
//   4. when the whole batch is done, the host tells the GPU (host_signal_latency: the
//      completion flag written into GPU memory and seen by the polling GPU thread).
//
// CAM sizes its pool between ceil(N/4) and ceil(N/2) threads for N SSDs (threads: 0)
// from the last batch: the lower bound when its I/O took no longer than the compute
// before it (the I/O hides behind computation), the upper otherwise.
#pragma once
#include <deque>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/control_plane.hpp"

namespace zng::storage {

enum class PlaneData : uint8_t { PeerToPeer, HostBounce };

struct CpuManagedSettings {
    uint32_t max_in_flight = 65536;
    Tick gpu_signal_latency = 0;
    bool poll_pickup = false;
    uint32_t threads = 0;  // 0: sized from the last batch (CAM)
    PlaneData data = PlaneData::PeerToPeer;
    Tick copy_call_cost = 0;
    Tick host_signal_latency = 0;
    Tick call_cost = 0;
    bool synchronous_calls = false;
    bool round_robin = false;

    // The plane `name`'s schema (defaults differ per plane).
    static const ComponentSchema& schema(const std::string& name);
    static CpuManagedSettings read(const Params& p);
};

class CpuManagedPlane final : public ControlPlane {
public:
    CpuManagedPlane(const StoragePath& path, const CpuManagedSettings& s);
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;
    // The same for a host program's own I/O: the data is read into and written from host
    // memory, whatever `data` says, and never copied to or from the GPU.
    void submit_in_host(const StorageIoBatch& batch, StorageIoClient& client);

    // Threads the next batch uses.
    uint32_t threads() const { return threads_; }
    uint64_t copies() const { return copies_; }
    void register_stats(StatGroup g) const override;

private:
    struct Item {
        StorageIo io;
        uint32_t run;
        uint32_t thread = 0;
    };
    struct Thread {
        Tick free = 0;  // its API calls' own time (call_cost) ends
        bool busy = false;  // synchronous: a call is waiting for its command
        std::deque<std::pair<uint32_t, uint32_t>> waiting;  // (batch, item) not yet called
    };
    struct Run {
        uint64_t bytes = 0;
        uint32_t left = 0;  // commands not yet completed (reads) / not yet issued (writes)
        uint32_t first = 0, count = 0;
    };
    struct Batch {
        StorageIoClient* client = nullptr;
        Tick taken = 0, rung = 0, compute = 0;
        uint32_t left = 0;
        bool in_host = false;  // submit_in_host: no copies
        std::vector<Item> items;
        std::vector<Run> runs;
    };
    void take(const StorageIoBatch& batch, StorageIoClient& client, bool in_host);
    void start(uint32_t b);
    void command(uint32_t b, uint32_t item, Tick at);
    void call(uint32_t thread, uint32_t b, uint32_t item, Tick at);
    void command_done(uint32_t b, uint32_t item);
    void batch_done(uint32_t b);
    void notified(uint32_t b);
    uint32_t min_threads() const;
    uint32_t max_threads() const;

    CpuManagedSettings s_;
    uint32_t threads_;
    std::vector<Batch> batches_;
    std::vector<uint32_t> free_batches_;
    TimedQueue<uint32_t> picked_up_;  // batches the pool starts on
    TimedQueue<uint64_t> copied_;     // runs copied into GPU memory (b << 32 | run)
    TimedQueue<uint64_t> issued_;     // commands after their CPU time (b << 32 | item)
    TimedQueue<uint32_t> seen_;       // batches whose completion the GPU has seen
    std::vector<Item> notify_;
    std::vector<Thread> thread_state_;
    Tick copier_free_ = 0;
    Tick last_done_ = 0;
    uint64_t next_thread_ = 0;
    uint64_t copies_ = 0, batches_done_ = 0;
};

}  // namespace zng::storage
