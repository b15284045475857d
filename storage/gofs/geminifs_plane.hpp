// Seed 001's GeminiFS baseline (`storage.control_plane.type: geminifs`): "GeminiFS uses
// the host to manage metadata while offloading data I/O to the GPU. Upon opening a file,
// GeminiFS uses the host filesystem to retrieve its metadata (e.g., data pointer) and
// copies it to the GPU. With this metadata, the GPU can issue NVMe commands to read/write
// the data blocks in the SSD. ... The GPU-side metadata is freed upon file closing. We
// also allocate a 1GB page cache in the GPU for its prefetching mechanism."
//
// A request names a file as GoFS's do (file_offset.hpp); file f's bytes lie at device
// offset f x file_size onward (ext4 extents of a freshly written file; an overwrite is
// in place: "it is based on ext4 and the overwrite operations cannot be converted to
// sequential log appends"). A request, in turn:
//  1. warp serialisation: the requests of one warp go one at a time, each after the one
//     before has completed ("GeminiFS's warp-level lock serializes all requests in a
//     single warp");
//  2. the first request on a file that is not open opens it through the host: the call
//     reaches host memory (rpc_latency), a host thread runs the open (host_file_opens.hpp:
//     the host I/O stack's per-command cost, assumed to be what a pread's trip through
//     the kernel costs, then for a file whose inode the host has not read the wait for
//     its ext4 inode-table block, inodes_per_block inodes to a 4 KiB block), copies the
//     file's metadata into GPU memory (one copy call, copy_call_cost, and open_metadata
//     bytes over PCIe) and signals the GPU (rpc_latency). Open files hold open_metadata bytes of GPU memory each ("at least
//     8KB of GPU memory per opened file"); when metadata_memory is full the least
//     recently used file is closed, and a later request on it opens it again;
//  3. a read whose 4 KiB pages are all in the page cache (an LRU of page_cache bytes)
//     completes after cache_hit_latency; otherwise the data moves as BaM's (a GPU thread
//     writes the submission entry, rings the doorbell, data peer-to-peer) and its pages
//     are cached, as are a write's.
#pragma once
#include <deque>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/control_plane.hpp"
#include "storage/gofs/host_file_opens.hpp"
#include "storage/gofs/metadata_cache.hpp"
#include "storage/gofs/node_tree.hpp"

namespace zng::storage::gofs {

struct GeminifsSettings {
    uint32_t max_in_flight = 65536;
    uint64_t file_bytes = 8ull << 30;
    Tick sqe_write_latency = 500 * kNanosecond;
    Tick rpc_latency = 1 * kMicrosecond;
    uint32_t host_threads = 16;
    uint32_t inodes_per_block = 16;
    Tick copy_call_cost = 2'460 * kNanosecond;
    uint64_t open_metadata = 8 << 10;
    uint64_t metadata_memory = 16ull << 30;
    uint64_t page_cache = 1ull << 30;
    Tick cache_hit_latency = 1'275 * kNanosecond;

    static const ComponentSchema& schema();
    static GeminifsSettings read(const Params& p);
};

class GeminifsPlane final : public ControlPlane {
public:
    GeminifsPlane(const StoragePath& path, const GeminifsSettings& s);
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;
    void register_stats(StatGroup g) const override;
    uint64_t opens() const { return opens_; }
    uint64_t inode_reads() const { return host_opens_.block_reads(); }
    uint64_t cache_hits() const { return cache_hits_; }

private:
    struct Pending {
        StorageIo io;
        StorageIoClient* client = nullptr;
        Tick taken = 0;
        uint32_t warp = 0;
    };
    enum class Stage : uint8_t { Opened, Data, Hit };
    struct Ready {
        uint32_t slot;
        Stage stage;
    };
    void begin(uint32_t slot);
    void opened_on_host(uint32_t slot);
    void opened(uint32_t slot);
    void data(uint32_t slot);
    void complete(uint32_t slot);
    uint64_t device_offset(const StorageIo& io) const;

    GeminifsSettings s_;
    MetadataCache open_files_;  // an LRU of open files' metadata
    MetadataCache pages_;       // the page cache: an LRU of 4 KiB pages by (file << 28 | page)
    std::vector<Pending> slots_;
    std::vector<uint32_t> free_slots_;
    std::vector<std::deque<uint32_t>> warp_queue_;  // per warp: its requests, the first running
    TimedQueue<Ready> ready_;
    HostFileOpens host_opens_;
    uint64_t next_thread_ = 0, opens_ = 0, cache_hits_ = 0, warp_waits_ = 0;
};

}  // namespace zng::storage::gofs
