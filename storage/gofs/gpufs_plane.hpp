// Seed 001's GPUfs baseline (`storage.control_plane.type: gpufs`): "A wrapper library
// that enables GPU threads to invoke file system APIs. It delegates the API calls to the
// host filesystem (i.e., F2FS) via Remote Procedure Calls (RPCs). The host CPU runs
// server threads to process the RPCs and execute filesystem operations. The data still
// needs to be transferred between CPU and GPU via cudaMemcpy. It maintains a file cache
// in the GPU memory."
//
// A read whose 4 KiB pages are all in the GPU file cache (an LRU of `cache_size` bytes)
// completes after `cache_hit_latency` without leaving the GPU. Any other call is an RPC
// to Basic (basic_plane.hpp: host threads running F2FS, the inode write lock, a host
// bounce buffer and a copy): the GPU writes the call into host memory, a CPU server
// thread polling for calls picks it up on its next pass, and its completion is written
// back into GPU memory (the RPC's gpu_signal_latency, poll_pickup and
// host_signal_latency, as CAM's batch hand-over in cpu_managed_plane.hpp). The pages of
// a completed read or write are then cached (writes go through to the host: GPUfs
// (Silberstein et al., ASPLOS'13) writes dirty pages back on gfsync/gclose, which a
// 4 KB write benchmark reaches at once). The plane's statistics count every call; the
// server's own are under `host`.
#pragma once
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/gofs/basic_plane.hpp"
#include "storage/gofs/metadata_cache.hpp"
#include "storage/gofs/node_tree.hpp"

namespace zng::storage::gofs {

struct GpufsSettings {
    BasicSettings basic;  // the RPC server: Basic with the RPC's hand-over
    uint64_t cache_bytes = 1ull << 30;
    Tick cache_hit_latency = 1'275 * kNanosecond;

    static const ComponentSchema& schema();
    static GpufsSettings read(const Params& p);
};

class GpufsPlane final : public ControlPlane, private StorageIoClient {
public:
    GpufsPlane(const StoragePath& path, const GpufsSettings& s);
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;
    void register_stats(StatGroup g) const override;
    uint64_t cache_hits() const { return cache_hits_; }
    uint64_t rpcs() const { return rpcs_; }

private:
    struct Call {
        StorageIo io;
        StorageIoClient* client = nullptr;
        Tick taken = 0;
    };
    void io_done(uint64_t token) override;
    void io_room() override {}
    uint32_t new_call(const StorageIo& io, StorageIoClient& client, Tick taken);
    void hit_done(uint32_t call);
    void cache_pages(const StorageIo& io);
    static uint64_t page_key(uint64_t offset) { return offset / kBlockBytes; }

    GpufsSettings s_;
    BasicPlane host_;
    MetadataCache cache_;  // an LRU of 4 KiB pages, keyed by (file << 28 | page)
    std::vector<Call> calls_;
    std::vector<uint32_t> free_calls_;
    std::vector<StorageIo> scratch_;
    TimedQueue<uint32_t> hits_;
    uint64_t cache_hits_ = 0, rpcs_ = 0;
};

}  // namespace zng::storage::gofs
