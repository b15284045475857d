#include "storage/cache_vol/cache_vol_plane.hpp"

#include <string>

#include "sim/config/registry.hpp"
#include "storage/cache_vol/file_close.hpp"

namespace zng::storage::cache_vol {
namespace {
using namespace param_kind;
const auto kMode = Param<Choice>("mode", "cache",
                                 "cache: Cache VOL (stage writes and cache reads in the node-local cache level); "
                                 "direct: the seed's baseline, HDF5 reading and writing the parallel file system")
                       .choices({"cache", "direct"});
const auto kLevel = Param<Choice>("level", "ssd",
                                  "where the node-local cache lives: ssd (the storage array, NVMe commands), "
                                  "host_memory or gpu_memory (a bandwidth server each)")
                        .choices({"ssd", "host_memory", "gpu_memory"});
const auto kHostMemoryBandwidth =
    Param<Bandwidth>("host_memory_bandwidth", "115.2GB/s",
                     "host DRAM bandwidth of the host_memory level (Theta's KNL node: 6 channels of DDR4-2400 x "
                     "8 B = 115.2 GB/s, Intel Xeon Phi 7230 datasheet)")
        .min(1);
const auto kGpuMemoryBandwidth =
    Param<Bandwidth>("gpu_memory_bandwidth", "1555GB/s",
                     "GPU memory bandwidth of the gpu_memory level (A100 40 GB HBM2: 1555 GB/s, NVIDIA A100 "
                     "datasheet; ThetaGPU's nodes are DGX A100s)")
        .min(1);
const Param<Size> kCapacity{"capacity", "0B",
                            "cache bytes on this node (0: the whole SSD array with level ssd; a memory level needs "
                            "a value)"};
const auto kPolicy = Param<Choice>("policy", "lru",
                                   "which file's cache a reservation that does not fit drops (seed 004 III-C: "
                                   "\"We support LRU (least recently used), LFU (least frequently used), and FIFO "
                                   "(first in first out)\"; assumption: lru)")
                         .choices({"lru", "lfu", "fifo"});
const auto kNodes = Param<UInt32>("nodes", "1",
                                  "compute nodes of the job: they share the PFS bandwidth and own the cached "
                                  "chunks in turn; one node is simulated")
                        .range(1, 1u << 20);
const auto kContention = Param<Real>("contention", "1",
                                     "other jobs' load on the PFS and the network: this job gets 1 / contention "
                                     "of them (1: alone; seed 004 I: \"the global PFS is shared by all "
                                     "concurrently running jobs\")")
                             .range(1, 1e6);
const auto kPfsWrite = Param<Bandwidth>("pfs_write_bandwidth", "650GB/s",
                                        "aggregate PFS write bandwidth the job's nodes share (seed 004 IV: Eagle, "
                                        "\"an aggregate data transfer rate of 650 GB/s\")")
                           .min(1);
const auto kPfsRead = Param<Bandwidth>("pfs_read_bandwidth", "650GB/s",
                                       "aggregate PFS read bandwidth the job's nodes share (seed 004 IV: Eagle, as "
                                       "pfs_write_bandwidth)")
                          .min(1);
const Param<Time> kPfsLatency{"pfs_latency", "500us",
                              "a PFS request's latency beyond its transfer (assumption: a Lustre RPC round trip "
                              "with an object storage target's disk access)"};
const auto kNetworkBandwidth =
    Param<Bandwidth>("network_bandwidth", "25GB/s",
                     "one node's network injection bandwidth, each direction (seed 004 IV: Summit's \"dual-rail "
                     "Mellanox EDR 100Gb/s InfiniBand\", 2 x 12.5 GB/s)")
        .min(1);
const Param<Time> kNetworkLatency{"network_latency", "2us",
                                  "a one-sided MPI_Get or MPI_Put's latency beyond its transfer (assumption: an "
                                  "RDMA round trip)"};
const auto kMigrationThreads =
    Param<UInt32>("migration_threads", "1",
                  "background host threads migrating staged writes to the PFS, each one task at a time (seed 004 "
                  "III-A: \"dedicating one thread for each process on the host for I/O\": set it to the node's "
                  "processes)")
        .range(1, 4096);
const auto kChunkSize = Param<Size>("chunk_size", "16MiB",
                                    "granule of read caching: chunk i of a file is owned by node i mod nodes, and "
                                    "a request is cached or found by the chunk of its first byte (assumption: the "
                                    "workload's batch size, seed 004's partitions interleaved)")
                            .min(4096);
}  // namespace

const ComponentSchema& CacheVolSettings::schema() {
    static const ComponentSchema s = ControlPlane::schema_of(
        "cache_vol",
        "HDF5 Cache VOL (seed 004): writes staged in a node-local cache level and migrated to the "
        "parallel file system by background threads while the application computes (a close waits "
        "for its file's migrations); reads cached on first access and served later from the local "
        "or a peer node's cache; per-file LRU/LFU/FIFO space; the PFS and the network shared by "
        "`nodes` nodes and other jobs.",
        {kMode, kLevel, kHostMemoryBandwidth, kGpuMemoryBandwidth, kCapacity, kPolicy, kNodes, kContention, kPfsWrite,
         kPfsRead, kPfsLatency, kNetworkBandwidth, kNetworkLatency, kMigrationThreads, kChunkSize});
    return s;
}

CacheVolSettings CacheVolSettings::read(const Params& p) {
    CacheVolSettings s;
    s.max_in_flight = ControlPlane::read_max_in_flight(p);
    s.direct = std::string(p[kMode]) == "direct";
    const std::string level = p[kLevel];
    s.level = level == "host_memory" ? CacheLevel::HostMemory
              : level == "gpu_memory" ? CacheLevel::GpuMemory
                                      : CacheLevel::Ssd;
    s.host_memory_bandwidth = p[kHostMemoryBandwidth];
    s.gpu_memory_bandwidth = p[kGpuMemoryBandwidth];
    s.capacity = p[kCapacity];
    if (s.level != CacheLevel::Ssd && s.capacity == 0)
        p.fail(kCapacity.key(), "must be set for level " + level + " (how much of that memory the cache may use)");
    const std::string policy = p[kPolicy];
    s.policy = policy == "lfu" ? EvictionPolicy::Lfu : policy == "fifo" ? EvictionPolicy::Fifo : EvictionPolicy::Lru;
    const uint32_t nodes = p[kNodes];
    const double contention = p[kContention];
    s.pfs_write = {p[kPfsWrite], p[kPfsLatency], nodes, contention};
    s.pfs_read = {p[kPfsRead], p[kPfsLatency], nodes, contention};
    // A node's link is its own: only other jobs' traffic divides it.
    s.network = {p[kNetworkBandwidth], p[kNetworkLatency], 1, contention};
    s.migration_threads = p[kMigrationThreads];
    s.chunk_size = p[kChunkSize];
    return s;
}

CacheVolPlane::CacheVolPlane(const StoragePath& path, const CacheVolSettings& s)
    : ControlPlane(path, s.max_in_flight),
      s_(s),
      space_(s.capacity != 0 ? s.capacity : path.array.capacity_bytes(), s.policy),
      pfs_write_(node_share_server(s.pfs_write)),
      pfs_read_(node_share_server(s.pfs_read)),
      net_in_(node_share_server(s.network)),
      net_out_(node_share_server(s.network)),
      memory_(s.level == CacheLevel::GpuMemory ? s.gpu_memory_bandwidth : s.host_memory_bandwidth, 0),
      timed_(path.sim, [this](uint32_t& slot) { advance(slot); }, "cache-vol-stage"),
      host_done_(path.sim, [this](uint32_t& slot) { issue_level(slot); }, "cache-vol-host"),
      idle_threads_(s.migration_threads) {
    space_.on_evict = [this](uint64_t file) {
        const auto it = chunks_of_.find(file);
        if (it == chunks_of_.end()) return;
        for (uint64_t key : it->second) cached_.erase(key);
        chunks_of_.erase(it);
    };
}

uint64_t CacheVolPlane::pending(uint64_t file) const {
    const auto it = pending_.find(file);
    return it == pending_.end() ? 0 : it->second;
}

uint32_t CacheVolPlane::new_op() {
    if (!free_ops_.empty()) {
        const uint32_t slot = free_ops_.back();
        free_ops_.pop_back();
        ops_[slot] = Op{};
        return slot;
    }
    ops_.emplace_back();
    return static_cast<uint32_t>(ops_.size() - 1);
}

uint64_t CacheVolPlane::level_place(uint64_t bytes) {
    const uint64_t lba = p_.array.lba_bytes();
    const uint64_t cap = p_.array.capacity_bytes() / lba * lba;
    bytes = (bytes + lba - 1) / lba * lba;
    if (cursor_ + bytes > cap) cursor_ = 0;
    const uint64_t at = cursor_;
    cursor_ += bytes;
    return at;
}

void CacheVolPlane::start(uint32_t slot, const Stage* stages) {
    ops_[slot].stages = stages;
    ops_[slot].next = 0;
    advance(slot);
}

void CacheVolPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) {
    taken(batch.count);
    const Tick now = p_.sim.now();
    for (uint32_t i = 0; i < batch.count; ++i) submit_one(batch.ios[i], client, now);
}

void CacheVolPlane::submit_one(const StorageIo& io, StorageIoClient& client, Tick now) {
    static constexpr Stage kPfsWriteOnly[] = {Stage::PfsWrite, Stage::Done};
    static constexpr Stage kPfsReadOnly[] = {Stage::PfsRead, Stage::Done};
    static constexpr Stage kStage[] = {Stage::LevelWrite, Stage::Done};
    static constexpr Stage kLocalHit[] = {Stage::LevelRead, Stage::Done};
    static constexpr Stage kRemoteHit[] = {Stage::LevelRead, Stage::NetIn, Stage::Done};
    static constexpr Stage kLocalFill[] = {Stage::PfsRead, Stage::LevelWrite, Stage::Done};
    static constexpr Stage kRemoteFill[] = {Stage::PfsRead, Stage::NetOut, Stage::LevelWrite, Stage::Done};

    const uint32_t slot = new_op();
    Op& op = ops_[slot];
    op.io = io;
    op.client = &client;
    op.taken = now;
    op.file = gofs::file_of(io.offset);
    op.chunk = kNoChunk;
    if (is_close(io.offset)) {
        op.kind = Kind::Close;
        op.io.bytes = 0;  // not data
        close(slot);
        return;
    }
    if (s_.direct) {
        start(slot, io.write ? kPfsWriteOnly : kPfsReadOnly);
        return;
    }
    if (io.write) {
        // III-A: "each process writes the data to the file on the NLS through POSIX I/O
        // and adds a data migration task to the task pool".
        if (!space_.reserve(op.file, io.bytes)) {
            start(slot, kPfsWriteOnly);
            return;
        }
        space_.pin(op.file);
        space_.touch(op.file);
        ++pending_[op.file];
        op.stages_write = true;
        op.level_addr = level_place(io.bytes);
        start(slot, kStage);
        return;
    }
    const uint64_t chunk = gofs::offset_in_file(io.offset) / s_.chunk_size;
    const uint64_t key = chunk_key(op.file, chunk);
    const bool local = chunk % s_.pfs_read.nodes == 0;  // this node is node 0
    op.level_addr = level_place(io.bytes);
    if (cached_.count(key) != 0) {
        // III-B: "read them directly from the NLS for future requests"; a peer's
        // partition through "one-sided MPI communication such as ... MPI_Get for load".
        space_.touch(op.file);
        ++(local ? local_hits_ : remote_hits_);
        start(slot, local ? kLocalHit : kRemoteHit);
        return;
    }
    ++misses_;
    // III-B: "Once any new data are read from the parallel file system, we cache them to
    // the NLS with MPI_Put".
    if (!space_.reserve(op.file, io.bytes)) {
        start(slot, kPfsReadOnly);
        return;
    }
    space_.touch(op.file);
    op.chunk = key;
    start(slot, local ? kLocalFill : kRemoteFill);
}

void CacheVolPlane::advance(uint32_t slot) {
    Op& op = ops_[slot];
    const Stage stage = op.stages[op.next++];
    const Tick now = p_.sim.now();
    const uint64_t bytes = op.io.bytes;
    switch (stage) {
        case Stage::LevelWrite: level_io(slot, true); return;
        case Stage::LevelRead: level_io(slot, false); return;
        case Stage::PfsWrite: timed_.push(slot, pfs_write_.transfer(now, bytes)); return;
        case Stage::PfsRead:
            pfs_read_bytes_ += bytes;
            timed_.push(slot, pfs_read_.transfer(now, bytes));
            return;
        case Stage::NetIn: timed_.push(slot, net_in_.transfer(now, bytes)); return;
        case Stage::NetOut: timed_.push(slot, net_out_.transfer(now, bytes)); return;
        case Stage::Done: complete(slot); return;
    }
}

void CacheVolPlane::level_io(uint32_t slot, bool write) {
    const Op& op = ops_[slot];
    if (s_.level != CacheLevel::Ssd) {
        timed_.push(slot, memory_.transfer(p_.sim.now(), op.io.bytes));
        return;
    }
    // III-A: "each process writes the data to the file on the NLS through POSIX I/O": a
    // host core runs the I/O stack's work for the command before the drive sees it.
    ops_[slot].level_write = write;
    host_done_.push(slot, p_.host.run(p_.sim.now()));
}

void CacheVolPlane::issue_level(uint32_t slot) {
    const Op& op = ops_[slot];
    // The VOL's staging and cache files are memory-mapped host pages backed by the NLS
    // (III-A: "We use mmap to map the files on the NLS into the virtual memory").
    IoRequest cmd;
    cmd.op = op.level_write ? IoOp::Write : IoOp::Read;
    const uint64_t lba = p_.array.lba_bytes();
    cmd.lba = op.level_addr / lba;
    cmd.bytes = (op.io.bytes + lba - 1) / lba * lba;
    cmd.memory = IoMemory::Host;
    cmd.queue = slot;
    cmd.done = [this, slot](IoRequest&) { advance(slot); };
    issue(std::move(cmd));
}

void CacheVolPlane::close(uint32_t slot) {
    const uint64_t file = ops_[slot].file;
    if (pending(file) == 0) {
        timed_.push(slot, p_.sim.now());  // complete outside submit()
        static constexpr Stage kNow[] = {Stage::Done};
        ops_[slot].stages = kNow;
        ops_[slot].next = 0;
        return;
    }
    closing_[file].push_back(slot);
}

void CacheVolPlane::file_settled(uint64_t file) {
    pending_.erase(file);
    const auto it = closing_.find(file);
    if (it == closing_.end()) return;
    static constexpr Stage kNow[] = {Stage::Done};
    for (uint32_t slot : it->second) {
        ops_[slot].stages = kNow;
        ops_[slot].next = 0;
        timed_.push(slot, p_.sim.now());
    }
    closing_.erase(it);
}

void CacheVolPlane::run_migrations() {
    static constexpr Stage kMigrate[] = {Stage::LevelRead, Stage::PfsWrite, Stage::Done};
    while (idle_threads_ > 0 && !tasks_.empty()) {
        const uint32_t slot = tasks_.front();
        tasks_.pop_front();
        --idle_threads_;
        start(slot, kMigrate);
    }
}

void CacheVolPlane::complete(uint32_t slot) {
    const Op op = ops_[slot];  // a copy: new_op() below may move ops_
    free_ops_.push_back(slot);
    switch (op.kind) {
        case Kind::Migration:
            migrated_bytes_ += op.io.bytes;
            space_.unpin(op.file);
            ++idle_threads_;
            if (--pending_[op.file] == 0) file_settled(op.file);
            run_migrations();
            return;
        case Kind::Close:
            close_wait_ += p_.sim.now() - op.taken;
            // III-C: "Caches will also automatically be removed once the file or the
            // dataset is closed."
            space_.release(op.file);
            if (const auto it = chunks_of_.find(op.file); it != chunks_of_.end() && !space_.holds(op.file)) {
                for (uint64_t key : it->second) cached_.erase(key);
                chunks_of_.erase(it);
            }
            finish(*op.client, op.io, op.taken);
            return;
        case Kind::Client: break;
    }
    if (op.stages_write) {
        // III-A: "The write function call returns right after the data has been written
        // to the NLS cache without waiting for the data migration to finish."
        staged_bytes_ += op.io.bytes;
        const uint32_t task = new_op();
        Op& t = ops_[task];
        t.kind = Kind::Migration;
        t.io = op.io;
        t.file = op.file;
        t.level_addr = op.level_addr;
        t.taken = p_.sim.now();
        tasks_.push_back(task);
        run_migrations();
    }
    // A fill whose file was dropped meanwhile is not cached.
    if (op.chunk != kNoChunk && space_.holds(op.file) && cached_.insert(op.chunk).second)
        chunks_of_[op.file].push_back(op.chunk);
    finish(*op.client, op.io, op.taken);
}

void CacheVolPlane::register_stats(StatGroup g) const {
    ControlPlane::register_stats(g);
    g.formula("staged_bytes", "bytes writes staged in the node-local cache level", "B",
              [this] { return double(staged_bytes_); });
    g.formula("migrated_bytes", "staged bytes the background threads wrote to the PFS", "B",
              [this] { return double(migrated_bytes_); });
    g.formula("pfs_read_bytes", "bytes read from the PFS", "B", [this] { return double(pfs_read_bytes_); });
    g.formula("local_hits", "reads served by this node's cache level", "requests",
              [this] { return double(local_hits_); });
    g.formula("remote_hits", "reads served by a peer's cache level over the network", "requests",
              [this] { return double(remote_hits_); });
    g.formula("misses", "reads of chunks not yet cached", "requests", [this] { return double(misses_); });
    g.formula("evictions", "files whose cache a reservation dropped", "files",
              [this] { return double(space_.evictions()); });
    g.formula("close_wait", "time closes waited for their files' migrations, summed", "ps",
              [this] { return double(close_wait_); });
}

}  // namespace zng::storage::cache_vol
