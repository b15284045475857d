#include "storage/streamer/cache_tier_plane.hpp"

#include <algorithm>
#include <map>

#include "sim/core/errors.hpp"
#include "storage/streamer/stream_offset.hpp"

namespace zng::storage::streamer {
namespace {
using namespace param_kind;

// The keys of every model; the defaults are each model's (below).
struct Defaults {
    const char* description;
    const char* memory_cache;
    bool spill;
    const char* page_cache;
    const char* buffer_pool;
    const char* depth;
    bool prefetch;
    bool chained;
    bool write_behind;
    const char* stack;
    const char* serializer;
};

// Seed 002, Methodology: "M+D and ALX run with 256-GB DRAM per node: 64 GB for execution
// and 192 GB for caching. D, PREP, USERIO, and SST use one-fourth of the DRAM capacity per
// node (64 GB). In this setup, we allocate 60 GB for execution, and the remaining is
// allocated for page cache (4 GB in D), prefetching (4 GB in PREP), buffers for
// user-space I/O (0.38 GB in USERIO), and stream buffers (0.76 GB in SST)."
// USERIO's buffers are half of SST's: one sblock per stream where SST holds two, so
// SST's prefetch depth is 2 (derived; the seed gives no depth). PREF's 4 GB bound more
// than one sblock ahead; it is given SST's depth (assumption: "no other optimizations").
const Defaults kStreamer{
    "SSDStreamer (seed 002): a stream buffer of prefetch_depth sblocks per open stream from a shared pool, sblock "
    "chaining (sblock i + 1 is read only after sblock i has arrived), writes buffered and flushed one sblock at a "
    "time, user-space NVMe (SPDK), the lightweight serializer.",
    "0B", true, "0B", "760MB", "2", true, true, true, "spdk", "light"};
const Defaults kUserIo{
    "Disk-only + UserIO (seed 002's USERIO): \"uses the user-space NVMe driver (SPDK) to quantify the benefits of "
    "the lightweight I/O stack, but with no other optimizations\": reads on demand, Kryo.",
    "0B", true, "0B", "380MB", "1", false, false, false, "spdk", "kryo"};
const Defaults kLibaioPrefetch{
    "Disk-only + Prefetching (seed 002's PREF): \"uses the asynchronous kernel I/O library (libaio) to quantify the "
    "benefits of prefetching, but with no other optimizations\": Kryo.",
    "0B", true, "0B", "4GB", "2", true, false, false, "libaio", "kryo"};
const Defaults kDiskOnly{
    "Disk-only (seed 002's D): \"always caches data to the disk without using memory at all\": synchronous kernel "
    "I/O through a 4 GB page cache, Kryo.",
    "0B", true, "4GB", "0B", "1", false, false, false, "sync", "kryo"};
const Defaults kMemoryAndDisk{
    "Memory-and-disk (seed 002's M+D): \"caches data in memory, but when there is no free space, the data are stored "
    "(or migrated) to the disk instead\": an LRU of deserialised partitions in 192 GB of host DRAM, spilled with "
    "Kryo and synchronous kernel I/O, promoted back when read from the SSDs.",
    "192GB", true, "0B", "0B", "1", false, false, false, "sync", "kryo"};
const Defaults kMemoryOnly{
    "Memory-only (seed 002's M): \"discards cached data when memory is full and recomputes them when they are "
    "reused\": the LRU of memory_and_disk without the SSDs.",
    "192GB", false, "0B", "0B", "1", false, false, false, "sync", "kryo"};

const std::map<std::string, const Defaults*>& defaults() {
    static const std::map<std::string, const Defaults*> m{
        {"streamer", &kStreamer},         {"user_io", &kUserIo},   {"libaio_prefetch", &kLibaioPrefetch},
        {"disk_only", &kDiskOnly},        {"memory_and_disk", &kMemoryAndDisk}, {"memory_only", &kMemoryOnly}};
    return m;
}

struct Keys {
    Param<Size> memory_cache;
    Param<Bool> spill;
    Param<Time> recompute;
    Param<Size> page_cache;
    Param<Size> buffer_pool;
    Param<Size> sblock;
    Param<UInt32> depth;
    Param<Bool> prefetch;
    Param<Bool> chained;
    Param<Bool> write_behind;
    Param<Choice> stack;
    Param<Size> command;
    Param<Choice> serializer;
    Param<Time> kryo;
    Param<Time> light;
    explicit Keys(const Defaults& d)
        : memory_cache("memory_cache", d.memory_cache,
                       "host DRAM caching deserialised partitions, least recently used evicted first (0: none)"),
          spill("spill", d.spill ? "true" : "false",
                "evicted partitions are serialised and written to the SSDs (false: dropped and recomputed when "
                "read again)"),
          recompute("recompute_cost", "10ns",
                    "time per byte to recompute a dropped partition from its lineage (assumption: the seed gives "
                    "none; memory-only is not in its Fig. 5)"),
          page_cache("page_cache", d.page_cache,
                     "kernel page cache in front of the SSDs, least recently used sblocks evicted; a read copies "
                     "its bytes out of it through host DRAM (0: reads go direct)"),
          buffer_pool("buffer_pool", d.buffer_pool,
                      "DRAM for stream buffers shared by the open streams (prefetch_depth x sblock_size each); an "
                      "open that does not fit waits for a close (0: not a limit)"),
          sblock(Param<Size>("sblock_size", "4MiB",
                             "sblock: the unit of caching, a contiguous run of logical blocks (seed 002: \"4 MB is "
                             "used for our evaluation\")")
                     .range(4096, double(uint64_t{1} << 30))),
          depth(Param<UInt32>("prefetch_depth", d.depth,
                              "sblocks a stream buffer holds (seed 002: \"The number of sblocks contained in a "
                              "stream buffer is equivalent to the prefetch depth\")")
                    .range(1, 4096)),
          prefetch("prefetch", d.prefetch ? "true" : "false",
                   "fill free stream-buffer slots ahead of the reads (false: an sblock is read when asked for)"),
          chained("chained", d.chained ? "true" : "false",
                  "sblock chaining: the next sblock's address is stored at the end of the previous one's data, so "
                  "it is read only after that one has arrived"),
          write_behind("write_behind", d.write_behind ? "true" : "false",
                       "writes are buffered in the stream buffer and an sblock flushed when the next one is "
                       "written (false: each write waits for the SSDs)"),
          stack(Param<Choice>("stack", d.stack,
                              "I/O stack whose per-command CPU cost (storage.host_cpu) each command pays: spdk, "
                              "libaio, or sync (the kernel's synchronous read/write: host_cpu.posix_cost)")
                    .choices({"spdk", "libaio", "sync"})),
          command(Param<Size>("command_bytes", "128KiB",
                              "bytes per NVMe command an sblock is split into (assumption: the kernel's default "
                              "request size)")
                      .range(512, double(uint64_t{1} << 30))),
          serializer(Param<Choice>("serializer", d.serializer,
                                   "kryo (Spark's) or light (seed 002's lightweight serializer)")
                         .choices({"kryo", "light"})),
          // Assumption: Kryo (de)serialises a few hundred MB/s per core; 5 ns/B = 200 MB/s.
          kryo("kryo_cost", "5ns", "CPU time per byte of Kryo (de)serialisation on the task's core (assumption)"),
          // Seed 002: "the proposed lightweight serializer shows a significant reduction in
          // SST by 59.6% on average compared to D": 0.404 x 5 ns = 2.02 ns/B (derived).
          light("light_cost", "2020ps",
                "CPU time per byte of the lightweight serializer (derived: seed 002's 59.6% below Kryo)") {}
    std::vector<ParamSpec> specs() const {
        std::vector<ParamSpec> v = ControlPlane::common_params();
        for (const ParamSpec& p : std::vector<ParamSpec>{memory_cache, spill, recompute, page_cache, buffer_pool,
                                                         sblock, depth, prefetch, chained, write_behind, stack,
                                                         command, serializer, kryo, light})
            v.push_back(p);
        return v;
    }
};
const Keys& keys() {
    static const Keys k(kStreamer);
    return k;
}
}  // namespace

const std::vector<std::string>& CacheTierSettings::models() {
    static const std::vector<std::string> m{"streamer",  "user_io",         "libaio_prefetch",
                                            "disk_only", "memory_and_disk", "memory_only"};
    return m;
}

const ComponentSchema& CacheTierSettings::schema(const std::string& name) {
    static std::map<std::string, ComponentSchema> schemas;
    auto it = schemas.find(name);
    if (it != schemas.end()) return it->second;
    const auto d = defaults().find(name);
    if (d == defaults().end()) throw SimError("no caching tier '" + name + "'");
    const Keys k(*d->second);
    ComponentSchema c;
    c.name = name;
    c.description = d->second->description;
    c.params = k.specs();
    return schemas.emplace(name, std::move(c)).first->second;
}

CacheTierSettings CacheTierSettings::read(const Params& p) {
    const Keys& k = keys();
    CacheTierSettings s;
    s.max_in_flight = ControlPlane::read_max_in_flight(p);
    s.memory_cache = p[k.memory_cache];
    s.spill = p[k.spill];
    s.recompute_cost = p[k.recompute];
    s.page_cache = p[k.page_cache];
    s.buffer_pool = p[k.buffer_pool];
    s.sblock_size = p[k.sblock];
    s.prefetch_depth = p[k.depth];
    s.prefetch = p[k.prefetch];
    s.chained = p[k.chained];
    s.write_behind = p[k.write_behind];
    const std::string stack = p[k.stack];
    s.stack = stack == "spdk" ? IoStack::Spdk : stack == "libaio" ? IoStack::Libaio : IoStack::Posix;
    s.command_bytes = p[k.command];
    s.serializer = p[k.serializer] == "kryo" ? Serializer::Kryo : Serializer::Light;
    s.kryo_cost = p[k.kryo];
    s.light_cost = p[k.light];
    if (s.buffer_pool != 0 && s.buffer_pool < s.stream_buffer_bytes())
        p.fail(k.buffer_pool.key(), "holds no stream buffer of prefetch_depth x sblock_size = " +
                                        std::to_string(s.stream_buffer_bytes()) + " B");
    return s;
}

CacheTierPlane::CacheTierPlane(const StoragePath& path, const CacheTierSettings& s)
    : ControlPlane(path, s.max_in_flight),
      s_(s),
      memory_(s.memory_cache),
      page_cache_(s.page_cache),
      completions_(path.sim, [this](Request& r) { finish(*r.client, r.io, r.taken); }, "tier-complete"),
      cpu_done_(path.sim, [this](uint32_t& op) {
          Op& o = ops_[op];
          const uint64_t lba = p_.array.lba_bytes();
          for (const Op::Cmd& c : o.cmds) {
              IoRequest r;
              r.op = c.op;
              r.lba = c.offset / lba;
              r.bytes = c.bytes;
              r.memory = IoMemory::Host;
              r.queue = static_cast<uint32_t>(o.stream);
              const uint32_t id = op;
              r.done = [this, id](IoRequest&) { command_done(id); };
              issue(std::move(r));
          }
      }, "tier-cpu"),
      cache_hits_(path.sim, [this](std::pair<uint64_t, uint64_t>& h) { arrived(h.first, h.second); }, "tier-page-hit") {
    const uint64_t lba = p_.array.lba_bytes();
    if (s_.sblock_size % lba != 0 || s_.command_bytes % lba != 0)
        throw SimError("caching tier: sblock_size and command_bytes must be whole logical blocks of " +
                       std::to_string(lba) + " B");
    runs_capacity_ = p_.array.ssd(0).capacity_bytes() * p_.array.size() / s_.sblock_size;
}

CacheTierPlane::Stream& CacheTierPlane::stream(uint64_t id) {
    if (id >= streams_.size()) {
        if (id > (1u << 24)) throw SimError("caching tier: stream " + std::to_string(id) + " is beyond 2^24");
        streams_.resize(id + 1);
    }
    return streams_[id];
}

void CacheTierPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) {
    taken(batch.count);
    for (uint32_t i = 0; i < batch.count; ++i) handle(Request{batch.ios[i], &client, p_.sim.now()});
}

void CacheTierPlane::handle(Request r) {
    const uint64_t id = stream_of(r.io.offset);
    Stream& s = stream(id);
    if (r.io.write && offset_in_stream(r.io.offset) == kStreamCloseOffset) return close(r, s, id);
    if (offset_in_stream(r.io.offset) % s_.sblock_size != 0 || r.io.bytes > s_.sblock_size)
        throw SimError("caching tier: a request of " + std::to_string(r.io.bytes) + " B at offset " +
                       std::to_string(offset_in_stream(r.io.offset)) + " of stream " + std::to_string(id) +
                       " is not one sblock (" + std::to_string(s_.sblock_size) + " B, aligned)");
    if (r.io.write) return write(r, s, id);
    read(r, s, id);
}

// --- stream buffers from the pool -------------------------------------------------

// Seed 002: "When a stream is created or opened for read, the stream manager allocates a
// stream buffer to the stream from the buffer pool. ... When the stream is closed, this
// buffer is freed."
bool CacheTierPlane::admit() {
    const uint64_t need = s_.stream_buffer_bytes();
    if (s_.buffer_pool != 0 && pool_used_ + need > s_.buffer_pool) return false;
    pool_used_ += need;
    return true;
}

void CacheTierPlane::release() {
    pool_used_ -= s_.stream_buffer_bytes();
    std::deque<Request> waiting;
    waiting.swap(admission_);
    for (Request& r : waiting) handle(std::move(r));
}

CacheTierPlane::Run CacheTierPlane::allocate(uint64_t bytes) {
    // Seed 002: "a set of contiguous logical blocks in the SSD are retrieved from the free
    // block pool" for each sblock.
    Run r;
    r.bytes = bytes;
    if (!free_runs_.empty()) {
        r.index = free_runs_.back();
        free_runs_.pop_back();
    } else {
        if (next_run_ >= runs_capacity_)
            throw SimError("caching tier: the SSDs hold no free sblock (" + std::to_string(runs_capacity_) +
                           " sblocks in use)");
        r.index = next_run_++;
    }
    return r;
}

// --- reads --------------------------------------------------------------------------

void CacheTierPlane::read(Request& r, Stream& s, uint64_t id) {
    const Tick now = p_.sim.now();
    const uint64_t k = offset_in_stream(r.io.offset) / s_.sblock_size;
    if (!s.exists || !s.closed)
        throw SimError("caching tier: stream " + std::to_string(id) + " is read before it was written and closed");
    const uint64_t sblocks = (s.bytes + s_.sblock_size - 1) / s_.sblock_size;
    if (k >= sblocks)
        throw SimError("caching tier: sblock " + std::to_string(k) + " of stream " + std::to_string(id) +
                       " is beyond its " + std::to_string(s.bytes) + " B");
    // A partition in host DRAM is used as it is: deserialised objects, no copy.
    if (s_.memory_cache != 0 && memory_.touch(id)) {
        ++memory_hits_;
        return complete(std::move(r), now);
    }
    if (!s.on_ssd) {
        // Memory-only: the partition was dropped; recomputing it is this read's cost.
        const uint64_t bytes = r.io.bytes;
        recomputed_bytes_ += bytes;
        const Tick done = now + s_.recompute_cost * bytes;
        if (k + 1 == sblocks) return cache_in_memory(id, std::move(r), done);
        return complete(std::move(r), done);
    }
    if (k == 0 && !s.open) {
        // Seed 002: "the stream manager allocates a stream buffer to this stream and
        // retrieves the starting LBA and the size of the first sblock from the stream
        // table. With this metadata, the stream manager starts reading the very first
        // sblock of this stream from the disk".
        if (!admit()) {
            admission_.push_back(std::move(r));
            return;
        }
        s.open = true;
        s.next_issue = 0;
        s.consumed = 0;
        s.fifo.clear();
    }
    if (!s.open || k != s.consumed || s.has_pending)
        throw SimError("caching tier: stream " + std::to_string(id) + " is read out of order (sblock " +
                       std::to_string(k) + ", expected " + std::to_string(s.consumed) + ")");
    s.has_pending = true;
    s.pending = std::move(r);
    if (!s_.prefetch && s.next_issue == k && s.fifo.empty()) issue_read(s, id, k);
    fill(s, id);
    if (!s.fifo.empty() && s.fifo.front().arrived != kMaxTick) serve(s, id);
}

// Seed 002: "Once it finishes reading the sblock, it reads the LBA and effective size for
// the next sblock, which are appended to the current sblock's data, and initiates disk
// access. This process is continued as long as there is free space in the stream buffer."
void CacheTierPlane::fill(Stream& s, uint64_t id) {
    if (!s_.prefetch) return;
    while (s.fifo.size() < s_.prefetch_depth && s.next_issue < s.runs.size()) {
        // Chained: the next sblock's address is only known once its predecessor arrived.
        if (s_.chained && !s.fifo.empty() && s.fifo.back().arrived == kMaxTick) return;
        issue_read(s, id, s.next_issue);
    }
}

void CacheTierPlane::issue_read(Stream& s, uint64_t id, uint64_t sblock) {
    const Tick now = p_.sim.now();
    s.fifo.push_back(Slot{sblock, kMaxTick});
    ++s.next_issue;
    const Run& run = s.runs[sblock];
    if (keep_log_) read_log_.push_back(SblockRead{id, sblock, now, kMaxTick});
    if (s_.page_cache != 0 && page_cache_.touch(id << 24 | sblock)) {
        // The kernel still enters read() for the cached pages.
        ++page_cache_hits_;
        cache_hits_.push({id, sblock}, p_.host.run(now, 1, s_.stack));
        return;
    }
    ++sblock_reads_;
    const uint32_t op = new_op(OpKind::ReadSblock);
    ops_[op].stream = id;
    ops_[op].sblock = sblock;
    add_run(ops_[op], IoOp::Read, run);
    start(op, now);
}

void CacheTierPlane::arrived(uint64_t id, uint64_t sblock) {
    Stream& s = streams_[id];
    const Tick now = p_.sim.now();
    if (keep_log_)
        for (auto it = read_log_.rbegin(); it != read_log_.rend(); ++it)
            if (it->stream == id && it->sblock == sblock) {
                it->arrived = now;
                break;
            }
    if (s_.page_cache != 0) {
        evicted_.clear();
        page_cache_.insert(id << 24 | sblock, s.runs[sblock].bytes, evicted_);
    }
    for (Slot& sl : s.fifo)
        if (sl.sblock == sblock) sl.arrived = now;
    fill(s, id);
    if (s.has_pending && s.fifo.front().arrived != kMaxTick) serve(s, id);
}

// Seed 002: "When read_stream() is called, the stream manager returns the oldest sblock
// from the corresponding stream buffer and frees the space this sblock was occupying.
// In a steady state this initiates another disk read for the next sblock".
void CacheTierPlane::serve(Stream& s, uint64_t id) {
    const Tick now = p_.sim.now();
    Request r = std::move(s.pending);
    s.has_pending = false;
    s.fifo.pop_front();
    ++s.consumed;
    disk_access_ += now - r.taken;
    read_wait_ += now - r.taken;
    Tick done = now;
    if (s_.page_cache != 0) {
        // Buffered read: the pages are copied into the task's buffer (DRAM read + write).
        done = p_.pcie.host_copy(now, r.io.bytes);
    }
    const Tick deser = s_.serializer_cost() * r.io.bytes;
    serialization_ += deser;
    done += deser;
    if (s.consumed == s.runs.size()) {
        s.open = false;
        release();
        if (s_.memory_cache != 0) return cache_in_memory(id, std::move(r), done);
    } else {
        fill(s, id);
    }
    complete(std::move(r), done);
}

// --- writes -------------------------------------------------------------------------

void CacheTierPlane::write(Request& r, Stream& s, uint64_t id) {
    const Tick now = p_.sim.now();
    const uint64_t k = offset_in_stream(r.io.offset) / s_.sblock_size;
    if (k == 0 && !s.writing) {
        // create_stream(); writing a stream that exists destroys it first.
        if (s.open) throw SimError("caching tier: stream " + std::to_string(id) + " is rewritten while read");
        if (s.exists) destroy(id, s);
        if (s_.memory_cache == 0 && s_.write_behind && !admit()) {
            admission_.push_back(std::move(r));
            return;
        }
        s.exists = true;
        s.writing = true;
        s.closed = false;
        s.on_ssd = s_.memory_cache == 0;
        s.bytes = 0;
        s.runs.clear();
    }
    const uint64_t expected = s_.memory_cache != 0 ? s.bytes / s_.sblock_size : s.runs.size();
    if (!s.writing || k != expected)
        throw SimError("caching tier: stream " + std::to_string(id) + " is written out of order (sblock " +
                       std::to_string(k) + ", expected " + std::to_string(expected) + ")");
    s.bytes += r.io.bytes;
    if (s_.memory_cache != 0) {
        // The partition is built in host DRAM as objects; it is cached when closed.
        return complete(std::move(r), now);
    }
    ++sblock_writes_;
    const Tick ser = s_.serializer_cost() * r.io.bytes;
    serialization_ += ser;
    if (!s_.write_behind) {
        // Serialise, then write and wait for the SSDs.
        s.runs.push_back(allocate(r.io.bytes));
        const uint32_t op = new_op(OpKind::SyncWrite);
        ops_[op].stream = id;
        ops_[op].since = now + ser;
        add_run(ops_[op], IoOp::Write, s.runs.back());
        ops_[op].req = std::move(r);
        start(op, now + ser);
        return;
    }
    // Seed 002: "When the next block of data is written to this stream (with another
    // write_stream() call), another set of contiguous logical blocks are retrieved from
    // the free block pool, and its starting LBA and effective sblock size are appended to
    // the previous sblock's data. Then, the previous sblock's data (appended with current
    // sblock's metadata) are flushed to the disk. At the same time, the data for the
    // current sblock are buffered in the stream buffer."
    s.runs.push_back(allocate(r.io.bytes));
    if (s.has_current) flush_current(s, id, s.runs.size() - 2);
    s.write_waiting.push_back(std::move(r));
    flushed(id);  // takes a free slot now if there is one
}

void CacheTierPlane::flush_current(Stream& s, uint64_t id, size_t run) {
    s.has_current = false;
    ++s.flushing;
    const uint32_t op = new_op(OpKind::Flush);
    ops_[op].stream = id;
    add_run(ops_[op], IoOp::Write, s.runs[run]);
    start(op, p_.sim.now());
}

// A slot frees (or a write arrived): the oldest waiting write takes it.
void CacheTierPlane::flushed(uint64_t id) {
    Stream& s = streams_[id];
    const Tick now = p_.sim.now();
    if (!s.write_waiting.empty() && s.flushing + 1 <= s_.prefetch_depth) {
        Request r = std::move(s.write_waiting.front());
        s.write_waiting.pop_front();
        s.has_current = true;
        disk_access_ += now - r.taken;
        // The lightweight serializer "writes the contents of the serialized data directly
        // to the off-heap stream buffer".
        const Tick done = now + s_.serializer_cost() * r.io.bytes;
        complete(std::move(r), done);
    }
    if (s.close_pending && s.flushing == 0 && s.write_waiting.empty()) {
        s.close_pending = false;
        s.writing = false;
        s.closed = true;
        disk_access_ += now - s.close_req.taken;
        release();
        complete(std::move(s.close_req), now);
    }
}

// Seed 002: "When the stream is closed by close_stream(), an end-of-stream token is
// appended to the current sblock's data and flushed to the disk."
void CacheTierPlane::close(Request& r, Stream& s, uint64_t id) {
    const Tick now = p_.sim.now();
    if (!s.writing) throw SimError("caching tier: stream " + std::to_string(id) + " is closed but not being written");
    if (s_.memory_cache != 0) {
        s.writing = false;
        s.closed = true;
        s.on_ssd = false;
        s.runs.clear();
        return cache_in_memory(id, std::move(r), now);
    }
    if (!s_.write_behind) {
        s.writing = false;
        s.closed = true;
        return complete(std::move(r), now);
    }
    s.close_pending = true;
    s.close_req = std::move(r);
    if (s.has_current) flush_current(s, id, s.runs.size() - 1);
    flushed(id);
}

// --- destroy ------------------------------------------------------------------------

// Seed 002: "the stream manager first allocates a temporary 4-KB buffer to hold the data
// stored in the last LBA of the sblock containing the metadata. ... Then, the stream
// manager returns the list of LBAs allocated to the first sblock to the free list. By
// inspecting the last LBA of the sblock just freed, the stream manager can retrieve the
// starting LBA of the next sblock and free the list of LBAs allocated to the sblock.
// This process continues until an end-of-stream token is encountered."
void CacheTierPlane::destroy(uint64_t id, Stream& s) {
    if (s_.memory_cache != 0) memory_.erase(id);
    if (s.runs.empty()) return;
    if (!s_.chained) {
        // A file's blocks are freed from its metadata in memory.
        for (const Run& r : s.runs) free_run(r);
        s.runs.clear();
        return;
    }
    const uint32_t op = new_op(OpKind::Destroy);
    ops_[op].chain = std::move(s.runs);
    ops_[op].pos = 0;
    s.runs.clear();
    walk(op);
}

void CacheTierPlane::walk(uint32_t op) {
    Op& o = ops_[op];
    const Run& r = o.chain[o.pos];
    const uint64_t lba = p_.array.lba_bytes();
    const uint64_t block = std::max<uint64_t>(lba, 4096);
    const uint64_t data = (r.bytes + block - 1) / block * block;
    o.cmds.clear();
    o.cmds.push_back(Op::Cmd{IoOp::Read, r.index * s_.sblock_size + data - block, block});
    o.left = 1;
    ++destroy_reads_;
    start(op, p_.sim.now());
}

// --- host DRAM ----------------------------------------------------------------------

void CacheTierPlane::cache_in_memory(uint64_t id, Request then, Tick floor) {
    evicted_.clear();
    memory_.insert(id, streams_[id].bytes, evicted_);
    uint32_t op = UINT32_MAX;
    for (const auto& [vid, vbytes] : evicted_) {
        Stream& v = streams_[vid];
        if (v.on_ssd || !s_.spill) continue;  // already on the SSDs, or dropped (memory-only)
        // Spilled: serialised, then written sblock by sblock with the tier's stack.
        if (op == UINT32_MAX) {
            op = new_op(OpKind::Spill);
            ops_[op].req = std::move(then);
        }
        const Tick ser = s_.serializer_cost() * vbytes;
        serialization_ += ser;
        floor += ser;
        v.on_ssd = true;
        ++spilled_;
        for (uint64_t off = 0; off < vbytes; off += s_.sblock_size) {
            v.runs.push_back(allocate(std::min(s_.sblock_size, vbytes - off)));
            add_run(ops_[op], IoOp::Write, v.runs.back());
            ++sblock_writes_;
        }
    }
    if (op == UINT32_MAX) return complete(std::move(then), floor);
    ops_[op].since = floor;
    start(op, floor);
}

// --- commands -----------------------------------------------------------------------

uint32_t CacheTierPlane::new_op(OpKind kind) {
    uint32_t op;
    if (!free_ops_.empty()) {
        op = free_ops_.back();
        free_ops_.pop_back();
    } else {
        op = static_cast<uint32_t>(ops_.size());
        ops_.emplace_back();
    }
    Op& o = ops_[op];
    o.kind = kind;
    o.stream = 0;
    o.left = 0;
    o.cmds.clear();
    o.chain.clear();
    return op;
}

void CacheTierPlane::add_run(Op& o, IoOp io, const Run& r) {
    const uint64_t lba = p_.array.lba_bytes();
    const uint64_t bytes = (r.bytes + lba - 1) / lba * lba;
    for (uint64_t off = 0; off < bytes; off += s_.command_bytes) {
        o.cmds.push_back(Op::Cmd{io, r.index * s_.sblock_size + off, std::min(s_.command_bytes, bytes - off)});
        ++o.left;
    }
}

void CacheTierPlane::start(uint32_t op, Tick at) {
    const Op& o = ops_[op];
    cpu_done_.push(op, p_.host.run(at, static_cast<uint32_t>(o.cmds.size()), s_.stack));
}

void CacheTierPlane::command_done(uint32_t op) {
    if (--ops_[op].left == 0) op_done(op);
}

void CacheTierPlane::op_done(uint32_t op) {
    Op& o = ops_[op];
    const Tick now = p_.sim.now();
    switch (o.kind) {
        case OpKind::ReadSblock: {
            const uint64_t id = o.stream, sblock = o.sblock;
            free_ops_.push_back(op);
            arrived(id, sblock);
            return;
        }
        case OpKind::Flush: {
            const uint64_t id = o.stream;
            free_ops_.push_back(op);
            --streams_[id].flushing;
            flushed(id);
            return;
        }
        case OpKind::SyncWrite:
        case OpKind::Spill: {
            disk_access_ += now - o.since;
            Request r = std::move(o.req);
            free_ops_.push_back(op);
            complete(std::move(r), now);
            return;
        }
        case OpKind::Destroy: {
            free_run(o.chain[o.pos]);
            if (++o.pos < o.chain.size()) return walk(op);
            free_ops_.push_back(op);
            return;
        }
    }
}

void CacheTierPlane::register_stats(StatGroup g) const {
    ControlPlane::register_stats(g);
    g.formula("disk_access_time", "time tasks waited for the SSDs or a stream-buffer slot, summed over requests", "ps",
              [this] { return double(disk_access_); });
    g.formula("read_wait_time", "the part of disk_access_time reads waited for their sblocks", "ps",
              [this] { return double(read_wait_); });
    g.formula("serialization_time", "(de)serialisation time on the tasks' cores, summed", "ps",
              [this] { return double(serialization_); });
    g.formula("sblock_reads", "sblocks read from the SSDs", "sblocks", [this] { return double(sblock_reads_); });
    g.formula("sblock_writes", "sblocks written to the SSDs", "sblocks", [this] { return double(sblock_writes_); });
    g.formula("destroy_reads", "metadata blocks read walking sblock chains to destroy streams", "reads",
              [this] { return double(destroy_reads_); });
    g.formula("memory_hits", "reads served from partitions in host DRAM", "requests",
              [this] { return double(memory_hits_); });
    g.formula("page_cache_hits", "sblocks served from the page cache", "sblocks",
              [this] { return double(page_cache_hits_); });
    g.formula("spilled_partitions", "partitions evicted from host DRAM to the SSDs", "partitions",
              [this] { return double(spilled_); });
    g.formula("recomputed_bytes", "bytes of dropped partitions recomputed", "B",
              [this] { return double(recomputed_bytes_); });
}

}  // namespace zng::storage::streamer
