// Caching tiers for partitions that host tasks re-read (seed 002, SSDStreamer, and the
// caching models it is compared with), served as a control plane of GPU-issued I/O
// (`storage.control_plane.type`): a task is a warp that reads a cached partition's
// stream one sblock per io_submit (stream_offset.hpp), waits, and computes with a
// fixed-duration phase record; it creates a partition by writing its sblocks, then a
// close. The plane answers each read when the sblock has been deserialised, so a task's
// time splits into disk access (waiting for data), (de)serialisation (per byte, on the
// task's own core) and compute (its phases).
//
// One mechanism, configured per model (each registered under its name with its own
// defaults, as the CPU-managed planes are):
//   streamer          SSDStreamer (SST): a stream buffer of prefetch_depth sblocks per open
//                     stream from a shared pool, sblock chaining, writes buffered and
//                     flushed one sblock at a time, SPDK, the lightweight serializer
//   user_io           disk-only + UserIO (USERIO): SPDK, no prefetch, Kryo
//   libaio_prefetch   disk-only + Prefetching (PREF): libaio, prefetch, Kryo
//   disk_only         disk-only (D): synchronous kernel I/O through a 4 GB page cache, Kryo
//   memory_and_disk   memory-and-disk (M+D): a host DRAM LRU of deserialised partitions,
//                     spilled to the SSDs (sync kernel I/O, Kryo) when full, promoted back
//                     when read from the SSDs
//   memory_only       memory-only (M): the same LRU, evicted partitions dropped and
//                     recomputed when read again
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/control_plane.hpp"
#include "storage/streamer/partition_lru.hpp"

namespace zng::storage::streamer {

enum class Serializer : uint8_t { Kryo, Light };

struct CacheTierSettings {
    uint32_t max_in_flight = 65536;
    uint64_t memory_cache = 0;  // host DRAM for deserialised partitions (0: none)
    bool spill = true;          // evicted partitions go to the SSDs (false: dropped)
    Tick recompute_cost = 0;    // per byte of a dropped partition read again
    uint64_t page_cache = 0;    // kernel page cache in front of the SSDs (0: none)
    uint64_t buffer_pool = 0;   // stream buffers shared by open streams (0: not a limit)
    uint64_t sblock_size = 4ull << 20;
    uint32_t prefetch_depth = 2;
    bool prefetch = true;       // fill free buffer slots ahead of the reads
    bool chained = true;        // sblock i + 1's address is stored in sblock i
    bool write_behind = true;   // writes buffered and flushed one sblock at a time
    IoStack stack = IoStack::Spdk;
    uint64_t command_bytes = 128ull << 10;
    Serializer serializer = Serializer::Light;
    Tick kryo_cost = 5'000;     // ps per byte
    Tick light_cost = 2'020;    // ps per byte

    Tick serializer_cost() const { return serializer == Serializer::Kryo ? kryo_cost : light_cost; }
    uint64_t stream_buffer_bytes() const { return uint64_t{prefetch_depth} * sblock_size; }

    // The model `name`'s schema (defaults differ per model).
    static const ComponentSchema& schema(const std::string& name);
    static CacheTierSettings read(const Params& p);
    static const std::vector<std::string>& models();
};

class CacheTierPlane final : public ControlPlane {
public:
    CacheTierPlane(const StoragePath& path, const CacheTierSettings& s);
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;
    void register_stats(StatGroup g) const override;

    // Summed over requests: time tasks waited for the SSDs (or a buffer slot), and
    // (de)serialisation time.
    Tick disk_access_time() const { return disk_access_; }
    Tick serialization_time() const { return serialization_; }
    Tick read_wait_time() const { return read_wait_; }
    uint64_t sblock_reads() const { return sblock_reads_; }
    uint64_t sblock_writes() const { return sblock_writes_; }
    uint64_t destroy_reads() const { return destroy_reads_; }
    uint64_t memory_hits() const { return memory_hits_; }
    uint64_t page_cache_hits() const { return page_cache_hits_; }
    uint64_t spilled_partitions() const { return spilled_; }
    uint64_t recomputed_bytes() const { return recomputed_bytes_; }
    uint64_t free_sblocks() const { return free_runs_.size(); }
    uint64_t pool_in_use() const { return pool_used_; }

    // Every sblock read from the SSDs: stream, sblock, when its commands were handed to
    // the host CPU's stack and when its data had arrived (tests read it).
    struct SblockRead {
        uint64_t stream, sblock;
        Tick issued, arrived;
    };
    const std::vector<SblockRead>& read_log() const { return read_log_; }
    void keep_read_log(bool on) { keep_log_ = on; }

private:
    struct Request {
        StorageIo io;
        StorageIoClient* client = nullptr;
        Tick taken = 0;
    };
    struct Run {
        uint64_t index = 0;  // sblock-sized run of the array: bytes [index, index + 1) x sblock_size
        uint64_t bytes = 0;  // effective size
    };
    struct Slot {
        uint64_t sblock;
        Tick arrived;  // kMaxTick while in flight
    };
    struct Stream {
        // The chain as stored on the SSDs: runs[i + 1]'s address is in runs[i]'s last block;
        // only runs[0] is in memory (the stream table's 8 B).
        std::vector<Run> runs;
        uint64_t bytes = 0;
        bool exists = false, closed = false, on_ssd = false;
        // create_stream .. close_stream
        bool writing = false, has_current = false;
        uint32_t flushing = 0;
        std::deque<Request> write_waiting;
        bool close_pending = false;
        Request close_req;
        // open_stream .. last sblock read
        bool open = false;
        uint64_t next_issue = 0, consumed = 0;
        std::deque<Slot> fifo;
        bool has_pending = false;
        Request pending;
    };
    enum class OpKind : uint8_t { ReadSblock, Flush, SyncWrite, Destroy, Spill };
    struct Op {
        OpKind kind;
        uint64_t stream = 0, sblock = 0;
        uint32_t left = 0;
        Request req;
        Tick since = 0;
        std::vector<Run> chain;  // Destroy: the runs still to free; Spill: runs written
        size_t pos = 0;
        struct Cmd {
            IoOp op;
            uint64_t offset, bytes;
        };
        std::vector<Cmd> cmds;
    };

    Stream& stream(uint64_t id);
    void handle(Request r);
    void read(Request& r, Stream& s, uint64_t id);
    void write(Request& r, Stream& s, uint64_t id);
    void close(Request& r, Stream& s, uint64_t id);
    bool admit();
    void release();
    void fill(Stream& s, uint64_t id);
    void issue_read(Stream& s, uint64_t id, uint64_t sblock);
    void arrived(uint64_t id, uint64_t sblock);
    void serve(Stream& s, uint64_t id);
    void flush_current(Stream& s, uint64_t id, size_t run);
    void flushed(uint64_t id);
    void destroy(uint64_t id, Stream& s);
    void walk(uint32_t op);
    // Puts `id` in host DRAM; evicted partitions are spilled (or dropped). `then`
    // completes after the spill writes (at `floor` at the earliest).
    void cache_in_memory(uint64_t id, Request then, Tick floor);
    Run allocate(uint64_t bytes);
    void free_run(const Run& r) { free_runs_.push_back(r.index); }
    // Hands the commands of op to the host CPU's stack from `at` on, then to the SSDs.
    uint32_t new_op(OpKind kind);
    void start(uint32_t op, Tick at);
    void add_run(Op& o, IoOp io, const Run& r);
    void command_done(uint32_t op);
    void op_done(uint32_t op);
    void complete(Request r, Tick at) { completions_.push(std::move(r), at); }

    CacheTierSettings s_;
    std::vector<Stream> streams_;
    std::vector<Op> ops_;
    std::vector<uint32_t> free_ops_;
    std::vector<uint64_t> free_runs_;
    uint64_t next_run_ = 0, runs_capacity_ = 0;
    uint64_t pool_used_ = 0;
    std::deque<Request> admission_;  // requests waiting for a stream buffer from the pool
    PartitionLru memory_;
    PartitionLru page_cache_;
    std::vector<std::pair<uint64_t, uint64_t>> evicted_;
    TimedQueue<Request> completions_;
    TimedQueue<uint32_t> cpu_done_;                          // ops whose commands leave the CPU
    TimedQueue<std::pair<uint64_t, uint64_t>> cache_hits_;  // (stream, sblock) from the page cache
    std::vector<SblockRead> read_log_;
    bool keep_log_ = false;
    Tick disk_access_ = 0, read_wait_ = 0, serialization_ = 0;
    uint64_t sblock_reads_ = 0, sblock_writes_ = 0, destroy_reads_ = 0, memory_hits_ = 0, page_cache_hits_ = 0,
             spilled_ = 0, recomputed_bytes_ = 0;
};

}  // namespace zng::storage::streamer
