// Seed 004's HDF5 Cache VOL as a control plane (`storage.control_plane.type: cache_vol`):
// node-local storage (NLS) as a cache in front of a parallel file system (PFS), for
// GPU-issued I/O (io_submit / io_wait) whose storage offsets name files as GoFS's do
// (file << 40 | offset; a request to a file's last 4 KiB closes it, file_close.hpp).
//
// Write path (III-A): "for each write request, data is written to the NLS and then
// flushed to the PFS storage. The flushing process (data migration) shall be done
// asynchronously in the background". A write completes once staged in the cache level
// and queues a migration task; `migration_threads` background host threads take tasks
// first in first out ("The task pool is managed in a first-in-first-out fashion"),
// each reading the staged data back from the cache level and writing it to the PFS.
// A close completes when the file has no write staging or migrating.
//
// Read path (III-B): "for parallel read, we cache the data to the NLS when first time
// they are read from the PFS and read them directly from the NLS for future requests."
// A file's chunks (`chunk_size`, by the offset of a request's first byte) are owned by
// the nodes in turn ("we simply divide the dataset into equal partitions among all the
// MPI processes. Each process will manage caching for one of the partitions"). A chunk
// not yet cached is read from the PFS and written to its owner's cache level before the
// read completes (synchronous caching, the seed's implementation: its first epoch is
// the slower one); a cached chunk is read from the local cache level or, when a peer
// owns it, from the peer's over the network ("MPI_Get"). The peers are not simulated:
// by symmetry their cache levels serve this node's ranks as this node's serves theirs,
// so a peer's read or write is charged to this node's cache level, plus the network.
//
// Cache levels: ssd (the storage section's SSD array, through NVMe commands, each
// costing a host core the storage.host_cpu stack's per-command work: III-A stages "through
// POSIX I/O"),
// host_memory or gpu_memory (a bandwidth server each). Space is reserved per file with
// LRU / LFU / FIFO replacement (cache_space.hpp). mode: direct is the baseline: every
// request goes to the PFS.
#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/bandwidth_server.hpp"
#include "storage/cache_vol/cache_space.hpp"
#include "storage/cache_vol/shared_tier.hpp"
#include "storage/control/control_plane.hpp"

namespace zng::storage::cache_vol {

enum class CacheLevel : uint8_t { Ssd, HostMemory, GpuMemory };

struct CacheVolSettings {
    uint32_t max_in_flight = 65536;
    bool direct = false;  // mode: direct (baseline HDF5 to the PFS) or cache
    CacheLevel level = CacheLevel::Ssd;
    double host_memory_bandwidth = 0;  // bytes/s
    double gpu_memory_bandwidth = 0;
    uint64_t capacity = 0;  // cache bytes on this node (0 with level ssd: the array's)
    EvictionPolicy policy = EvictionPolicy::Lru;
    SharedTierSettings pfs_write, pfs_read, network;
    uint32_t migration_threads = 1;
    uint64_t chunk_size = 0;

    static const ComponentSchema& schema();
    static CacheVolSettings read(const Params& p);
};

class CacheVolPlane final : public ControlPlane {
public:
    CacheVolPlane(const StoragePath& path, const CacheVolSettings& s);
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;
    void register_stats(StatGroup g) const override;

    // What the tests look at.
    const CacheSpace& space() const { return space_; }
    uint64_t staged_bytes() const { return staged_bytes_; }
    uint64_t migrated_bytes() const { return migrated_bytes_; }
    uint64_t pfs_read_bytes() const { return pfs_read_bytes_; }
    uint64_t local_hits() const { return local_hits_; }
    uint64_t remote_hits() const { return remote_hits_; }
    uint64_t misses() const { return misses_; }
    uint64_t pending(uint64_t file) const;
    Tick close_wait_sum() const { return close_wait_; }

private:
    enum class Stage : uint8_t { LevelWrite, LevelRead, PfsWrite, PfsRead, NetIn, NetOut, Done };
    enum class Kind : uint8_t { Client, Migration, Close };
    struct Op {
        StorageIo io;
        StorageIoClient* client = nullptr;
        Tick taken = 0;
        uint64_t file = 0;
        uint64_t chunk = 0;       // read caching: the chunk this read fills (kNoChunk: none)
        uint64_t level_addr = 0;  // the bytes' place in the cache level
        const Stage* stages = nullptr;
        uint8_t next = 0;
        Kind kind = Kind::Client;
        bool stages_write = false;  // a staged write: queue its migration when staged
        bool level_write = false;   // the SSD-level command being issued writes
    };
    static constexpr uint64_t kNoChunk = ~uint64_t{0};

    uint32_t new_op();
    void start(uint32_t slot, const Stage* stages);
    void advance(uint32_t slot);  // runs the op's next stage
    void level_io(uint32_t slot, bool write);
    void issue_level(uint32_t slot);  // the SSD-level command, once its host work is done
    void complete(uint32_t slot);
    void submit_one(const StorageIo& io, StorageIoClient& client, Tick now);
    void close(uint32_t slot);
    void run_migrations();
    void file_settled(uint64_t file);
    uint64_t level_place(uint64_t bytes);
    static uint64_t chunk_key(uint64_t file, uint64_t chunk) { return file << 24 ^ chunk; }

    CacheVolSettings s_;
    CacheSpace space_;
    BandwidthServer pfs_write_, pfs_read_, net_in_, net_out_, memory_;
    std::vector<Op> ops_;
    std::vector<uint32_t> free_ops_;
    TimedQueue<uint32_t> timed_;  // ops whose current stage ends at a known time
    TimedQueue<uint32_t> host_done_;  // SSD-level commands whose host I/O stack work ends then
    std::deque<uint32_t> tasks_;  // migration tasks not yet taken by a thread
    uint32_t idle_threads_;
    std::unordered_map<uint64_t, uint64_t> pending_;  // file -> writes staging or migrating
    std::unordered_map<uint64_t, std::vector<uint32_t>> closing_;  // file -> close ops waiting
    std::unordered_set<uint64_t> cached_;  // chunk keys in some node's cache
    std::unordered_map<uint64_t, std::vector<uint64_t>> chunks_of_;  // file -> its cached chunk keys
    uint64_t cursor_ = 0;  // next free place in the SSD level (wraps; data is not kept)
    uint64_t staged_bytes_ = 0, migrated_bytes_ = 0, pfs_read_bytes_ = 0;
    uint64_t local_hits_ = 0, remote_hits_ = 0, misses_ = 0;
    Tick close_wait_ = 0;
};

}  // namespace zng::storage::cache_vol
