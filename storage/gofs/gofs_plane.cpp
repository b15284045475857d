#include "storage/gofs/gofs_plane.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/core/errors.hpp"
#include "storage/gofs/file_offset.hpp"

namespace zng::storage::gofs {
namespace {
using namespace param_kind;
const auto kDirectories = Param<UInt32>("directories", "1", "directories of the generated namespace, under the root")
                              .range(1, 1u << 24);
const auto kFiles =
    Param<UInt>("files", "1", "files of the generated namespace, spread evenly over the directories (file k is "
                              "named by storage offset k << 40)")
        .range(1, 1u << 23);
const auto kFileSize = Param<Size>("file_size", "8GiB", "size of every file of the namespace").range(4096, 1ull << 40);
const Param<Size> kNodeArea{"node_area", "1GiB",
                            "bytes at the start of the array holding dentry and node blocks (assumption: F2FS "
                            "reserves a few percent of the device for metadata; the data log follows it)"};
const auto kMetadataCache =
    Param<Size>("metadata_cache", "256MiB",
                "GPU memory for cached dentry and node blocks, 4 KB each (assumption: seed 001 keeps a "
                "\"filesystem metadata cache\" without giving its size)")
        .min(0);
const Param<Size> kCapacity{"capacity", "0B", "bytes the file system formats (0: the whole array)"};
const auto kSms = Param<UInt32>("sms", "108",
                                "SMs with a free-block allocator of their own (seed 001: an A100, \"108 SMs\")")
                      .range(1, 4096);
const auto kGcThreshold =
    Param<Real>("gc_threshold", "0.05",
                "free segments, as a fraction of all, below which a write's allocation runs foreground GC "
                "(seed 001: \"a configurable threshold (5% by default)\")")
        .range(0, 0.5);
const Param<Time> kLaunch{"launch_overhead", "9.2us",
                          "launching the I/O kernel of a call (seed 001: \"The kernel launch overhead in GoFS is "
                          "9.2 us on average\")"};
const Param<Time> kSqeWrite{"sqe_write_latency", "500ns",
                            "a GPU thread writing one submission entry into a queue in GPU memory (assumption: as "
                            "bam's sqe_write_latency)"};
const auto kMode = Param<Choice>("mode", "sync",
                                 "sync: polling thread blocks keep polling_sms SMs from the applications; async: "
                                 "only the daemon's SM (seed 001 §3.8)")
                       .choices({"sync", "async"});
const auto kPollingSms = Param<UInt32>("polling_sms", "16",
                                       "SMs GoFS's polling thread blocks occupy in sync mode (seed 001: \"Only up to "
                                       "16 out of 108 SMs on our A100 GPU are occupied by GoFS\")")
                             .range(1, 4096);
constexpr uint64_t kSegmentBytes = 2ull << 20;  // seed 001: "a 2MB segment"
}  // namespace

const ComponentSchema& GofsSettings::schema() {
    static const ComponentSchema s = ControlPlane::schema_of(
        "gofs",
        "GoFS: a log-structured F2FS-format file system run by the GPU; file offsets map through "
        "node blocks cached in GPU memory to blocks of a log of 2 MB segments, GPU threads drive "
        "per-SM NVMe queues, data peer-to-peer.",
        {kDirectories, kFiles, kFileSize, kNodeArea, kMetadataCache, kCapacity, kSms, kGcThreshold, kLaunch,
         kSqeWrite, kMode, kPollingSms});
    return s;
}

GofsSettings GofsSettings::read(const Params& p) {
    GofsSettings s;
    s.max_in_flight = ControlPlane::read_max_in_flight(p);
    s.listing = {p[kDirectories], p[kFiles], p[kFileSize]};
    s.node_area = p[kNodeArea];
    s.metadata_cache = p[kMetadataCache];
    s.capacity = p[kCapacity];
    s.sms = p[kSms];
    s.gc_threshold = p[kGcThreshold];
    s.launch_overhead = p[kLaunch];
    s.sqe_write_latency = p[kSqeWrite];
    s.synchronous = p[kMode] == "sync";
    s.polling_sms = p[kPollingSms];
    if (s.listing.file_bytes % kBlockBytes != 0) p.fail(kFileSize.key(), "must be a whole number of 4 KiB blocks");
    if (s.node_area < kBlockBytes || s.node_area % kSegmentBytes != 0)
        p.fail(kNodeArea.key(), "must be a positive whole number of 2 MiB segments");
    return s;
}

uint32_t GofsSettings::reserved_sms_of(const ConfigNode* storage_section, const std::string& path) {
    const ConfigNode* cp = storage_section ? storage_section->find("control_plane") : nullptr;
    const ConfigNode* type = cp && cp->is_map() ? cp->find("type") : nullptr;
    if (!type || type->scalar() != schema().name) return 0;
    return read(Params(cp, schema(), path + ".control_plane")).reserved_sms();
}

namespace {
// The log's settings, with what the log, the file map and the per-file locks take
// charged to `budget` before any of them is allocated.
SegmentLogSettings log_settings(const GofsSettings& s, const SsdArray& array, const FileNamespace& ns,
                                MemoryBudget& budget) {
    const uint64_t capacity = s.capacity ? s.capacity : array.capacity_bytes();
    if (capacity <= s.node_area + 2 * kSegmentBytes)
        throw SimError("GoFS capacity " + std::to_string(capacity) + " B leaves no data segments after the node area");
    // F2FS addresses a block with 32 bits (block_t is a __u32 in include/linux/f2fs_fs.h),
    // so it formats at most 2^32 blocks of 4 KB, 16 TiB; the log numbers blocks likewise.
    if ((capacity - s.node_area) / kBlockBytes > UINT32_MAX)
        throw SimError(fmt::format("GoFS capacity {} B is past the 16 TiB of 2^32 4 KB blocks that F2FS's 32-bit "
                                   "block addresses reach (set storage.control_plane.capacity, or use smaller SSDs)",
                                   capacity));
    SegmentLogSettings l;
    l.segments = static_cast<uint32_t>((capacity - s.node_area) / kSegmentBytes);
    l.blocks_per_segment = kSegmentBytes / kBlockBytes;
    l.sms = s.sms;
    l.gc_threshold = s.gc_threshold;
    budget.reserve(1, SegmentLog::upfront_bytes(l, s.listing.files, ns.file_blocks()),
                   "GoFS segment table and file map");
    budget.reserve(s.listing.files, sizeof(RangeLock) + 1, "GoFS per-file locks and open flags");
    return l;
}
}  // namespace

GofsPlane::GofsPlane(const StoragePath& path, const GofsSettings& s)
    : ControlPlane(path, s.max_in_flight),
      s_(s),
      ns_(s.listing, s.node_area / kBlockBytes, s.metadata_cache / kBlockBytes),
      log_(log_settings(s, path.array, ns_, path.sim.memory_budget())),
      data_base_(s.node_area),
      locks_(s.listing.files),
      opened_(s.listing.files, false),
      ready_(path.sim, [this](Ready& r) {
          if (r.launch) start(r.slot);
          else issue(std::move(r.cmd));
      }, "gofs-ready") {
    log_.format(s.listing.files, ns_.file_blocks());
}

void GofsPlane::check_request(const StorageIo& io) const {
    if (is_batch(io.offset)) {
        const uint64_t first = batch_first(io.offset), count = batch_count(io.offset);
        const bool inside = count > 0 && first + count <= ns_.files();
        if (!inside || ns_.directory_of(first) != ns_.directory_of(first + count - 1))
            throw SimError("GoFS batched call on files " + std::to_string(first) + " to " +
                           std::to_string(first + count) + " is not within one directory of the " +
                           std::to_string(ns_.files()) + " files");
        const uint64_t per_file = io.bytes / count;
        if (batch_call(io.offset) == BatchCall::Data &&
            (io.bytes % count || per_file == 0 || per_file % kBlockBytes || per_file > ns_.file_bytes()))
            throw SimError("GoFS batch_read/batch_write of " + std::to_string(count) + " files moves " +
                           std::to_string(io.bytes) + " B, not whole 4 KiB blocks of at most " +
                           std::to_string(ns_.file_bytes()) + " B per file");
        if (batch_call(io.offset) != BatchCall::Open && batch_call(io.offset) != BatchCall::Data &&
            batch_call(io.offset) != BatchCall::Create)
            throw SimError("GoFS batched call " + std::to_string(io.offset & 3) +
                           " is not open, data or create (a host-transform call needs host threads: the basic "
                           "plane)");
        return;
    }
    const uint64_t file = file_of(io.offset), off = offset_in_file(io.offset);
    if (file >= ns_.files() || off + io.bytes > ns_.file_bytes() || off % kBlockBytes || io.bytes % kBlockBytes ||
        io.bytes == 0)
        throw SimError("GoFS request of " + std::to_string(io.bytes) + " B at offset " + std::to_string(off) +
                       " of file " + std::to_string(file) + " is not whole 4 KiB blocks inside one of the " +
                       std::to_string(ns_.files()) + " files of " + std::to_string(ns_.file_bytes()) + " B" +
                       namespace_hint("storage.control_plane.files and file_size"));
}

void GofsPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) {
    for (uint32_t i = 0; i < batch.count; ++i) check_request(batch.ios[i]);
    taken(batch.count);
    const Tick now = p_.sim.now();
    for (uint32_t i = 0; i < batch.count; ++i) {
        const StorageIo& io = batch.ios[i];
        uint32_t slot;
        if (!free_slots_.empty()) {
            slot = free_slots_.back();
            free_slots_.pop_back();
        } else {
            slot = static_cast<uint32_t>(slots_.size());
            slots_.emplace_back();
        }
        Pending& p = slots_[slot];
        p.io = io;
        p.client = &client;
        p.taken = now;
        p.batch = is_batch(io.offset);
        if (p.batch) {
            p.file = batch_first(io.offset);
            p.count = batch_count(io.offset);
            p.call = batch_call(io.offset);
            p.first_block = 0;
            p.blocks = 0;
        } else {
            p.file = file_of(io.offset);
            p.count = 1;
            p.call = BatchCall::Data;
            p.first_block = offset_in_file(io.offset) / kBlockBytes;
            p.blocks = io.bytes / kBlockBytes;
        }
        p.sm = batch.sm;
        p.sent = 0;
        p.wave = 0;
        p.outstanding = 0;
        p.in_data = false;
        p.meta.clear();
        p.waves.clear();
        ready_.push(Ready{slot, true, {}}, now + s_.launch_overhead);
    }
}

void GofsPlane::start(uint32_t slot) {
    Pending& p = slots_[slot];
    if (p.batch) {
        batch_locked(slot);  // a batch's threads work on disjoint files: no range lock
    } else if (locks_[p.file].acquire(slot, p.first_block * kBlockBytes, p.blocks * kBlockBytes, !p.io.write)) {
        locked(slot);
    } else {
        ++lock_waits_;
    }
}

void GofsPlane::locked(uint32_t slot) {
    Pending& p = slots_[slot];
    if (!opened_[p.file]) {
        opened_[p.file] = true;
        ns_.open(p.file, p.meta);
    }
    for (uint64_t b = p.first_block; b < p.first_block + p.blocks; ++b) ns_.map_block(p.file, b, p.meta);
    // One thread walks the path: each block needs the pointer in the one before it.
    for (uint32_t i = 1; i <= p.meta.size(); ++i) p.waves.push_back(i);
    metadata_reads_ += p.meta.size();
    next_metadata(slot);
}

void GofsPlane::batch_locked(uint32_t slot) {
    Pending& p = slots_[slot];
    ++batches_;
    auto end_wave = [&p] {
        if (p.meta.size() > (p.waves.empty() ? 0 : p.waves.back())) p.waves.push_back(static_cast<uint32_t>(p.meta.size()));
    };
    // The directory's path, one block after another.
    ns_.open_directory(ns_.directory_of(p.file), p.meta);
    for (uint32_t i = 1; i <= p.meta.size(); ++i) p.waves.push_back(i);
    if (p.call == BatchCall::Create) {
        const size_t from = p.meta.size();
        ns_.batch_create(p.file, p.count, p.meta);
        for (size_t i = from; i < p.meta.size(); ++i) p.meta[i] |= kMetaWrite;
        metadata_writes_ += p.meta.size() - from;
        metadata_reads_ += from;
        end_wave();
    } else {
        ns_.batch_dentries(p.file, p.count, p.meta);
        end_wave();
        ns_.batch_inodes(p.file, p.count, p.meta);
        end_wave();
        if (p.call == BatchCall::Data) {
            const uint64_t blocks = p.io.bytes / p.count / kBlockBytes;
            const uint32_t depth = node_path(blocks - 1).depth;
            for (uint32_t level = 1; level < depth; ++level) {
                for (uint64_t f = p.file; f < p.file + p.count; ++f)
                    for (uint64_t b = 0; b < blocks; ++b) ns_.map_level(f, b, level, p.meta);
                end_wave();
            }
        }
        metadata_reads_ += p.meta.size();
    }
    for (uint64_t f = p.file; f < p.file + p.count; ++f) opened_[f] = true;
    next_metadata(slot);
}

void GofsPlane::send(uint32_t slot, IoOp op, uint64_t fs_offset, uint64_t bytes, uint64_t dest) {
    StorageIo io;
    io.offset = fs_offset;
    io.bytes = static_cast<uint32_t>(bytes);
    io.dest = dest;
    io.write = op == IoOp::Write;
    IoRequest cmd = command(io, IoMemory::Gpu);
    // issue() folds it onto the SSD's queue pairs; a batch's commands come from threads
    // on all SMs, each on its SM's queue.
    Pending& p = slots_[slot];
    cmd.queue = p.batch ? (p.sm + p.sent) % s_.sms : p.sm;
    ++p.sent;
    cmd.done = [this, slot](IoRequest&) { piece_done(slot); };
    ready_.push(Ready{slot, false, std::move(cmd)}, p_.sim.now() + s_.sqe_write_latency);
}

void GofsPlane::next_metadata(uint32_t slot) {
    Pending& p = slots_[slot];
    if (p.wave == p.waves.size()) {
        p.in_data = true;
        data(slot);
        if (p.outstanding == 0) complete(slot);  // a batch_open or create moves no data
        return;
    }
    const uint32_t from = p.wave ? p.waves[p.wave - 1] : 0, to = p.waves[p.wave];
    ++p.wave;
    p.outstanding += to - from;
    for (uint32_t i = from; i < to; ++i) {
        const uint64_t m = p.meta[i];
        send(slot, m & kMetaWrite ? IoOp::Write : IoOp::Read, (m & ~kMetaWrite) * kBlockBytes, kBlockBytes, 0);
    }
}

void GofsPlane::data(uint32_t slot) {
    Pending& p = slots_[slot];
    if (!p.batch) {
        data_of(slot, p.sm, p.file, p.first_block, p.blocks, p.io.dest);
    } else if (p.call == BatchCall::Data) {
        // File i of the batch is written by a thread block on SM sm + i (its allocator).
        const uint64_t per_file = p.io.bytes / p.count;
        for (uint64_t i = 0; i < p.count; ++i)
            data_of(slot, static_cast<uint32_t>((p.sm + i) % s_.sms), p.file + i, 0, per_file / kBlockBytes,
                    p.io.dest + i * per_file);
    }
}

void GofsPlane::data_of(uint32_t slot, uint32_t sm, uint64_t file, uint64_t first_block, uint64_t blocks,
                        uint64_t dest) {
    Pending& p = slots_[slot];
    const bool write = p.io.write;
    uint32_t run_start = SegmentLog::kNoBlock, run_len = 0;
    uint64_t run_dest = 0;
    auto flush = [&] {
        if (run_len == 0) return;
        ++p.outstanding;
        send(slot, write ? IoOp::Write : IoOp::Read, data_base_ + uint64_t(run_start) * kBlockBytes,
             uint64_t(run_len) * kBlockBytes, run_dest);
        run_len = 0;
    };
    for (uint64_t k = 0; k < blocks; ++k) {
        const uint64_t b = first_block + k;
        const uint32_t phys = write ? log_.write(sm, file, b) : log_.lookup(file, b);
        if (write && (!log_.gc_moves().empty() || !log_.trims().empty())) {
            for (const SegmentLog::GcMove& m : log_.gc_moves()) {
                p.outstanding += 2;
                send(slot, IoOp::Read, data_base_ + uint64_t(m.from) * kBlockBytes, kBlockBytes, 0);
                send(slot, IoOp::Write, data_base_ + uint64_t(m.to) * kBlockBytes, kBlockBytes, 0);
            }
            gc_moves_ += log_.gc_moves().size();
            trims_ += log_.trims().size();
            log_.clear_gc_work();
        }
        if (run_len > 0 && phys == run_start + run_len) {
            ++run_len;
            continue;
        }
        flush();
        run_start = phys;
        run_len = 1;
        run_dest = dest + k * kBlockBytes;
    }
    flush();
}

void GofsPlane::piece_done(uint32_t slot) {
    Pending& p = slots_[slot];
    --p.outstanding;
    if (!p.in_data) {  // a metadata block: the next wave needs this one's
        if (p.outstanding == 0) next_metadata(slot);
        return;
    }
    if (p.outstanding == 0) complete(slot);
}

void GofsPlane::complete(uint32_t slot) {
    Pending& p = slots_[slot];
    granted_.clear();
    if (!p.batch) locks_[p.file].release(slot, granted_);
    StorageIo io = p.io;
    if (p.batch && p.call != BatchCall::Data) io.bytes = 0;  // no data moved
    StorageIoClient* client = p.client;
    const Tick taken_at = p.taken;
    free_slots_.push_back(slot);
    for (uint64_t g : granted_) locked(static_cast<uint32_t>(g));
    finish(*client, io, taken_at);
}

void GofsPlane::register_stats(StatGroup g) const {
    ControlPlane::register_stats(g);
    g.formula("metadata_reads", "4 KB dentry and node blocks read because the metadata cache lacked them", "blocks",
              [this] { return double(metadata_reads_); });
    g.formula("metadata_writes", "4 KB dentry and inode blocks written by batched file creation", "blocks",
              [this] { return double(metadata_writes_); });
    g.formula("batches", "batched calls (batch_open, batch_read/batch_write, batched create) served", "calls",
              [this] { return double(batches_); });
    g.formula("lock_waits", "requests that waited for an overlapping range lock", "requests",
              [this] { return double(lock_waits_); });
    g.formula("gc_moves", "valid blocks foreground GC moved", "blocks", [this] { return double(gc_moves_); });
    g.formula("trims", "segments foreground GC freed and trimmed", "segments", [this] { return double(trims_); });
    g.formula("metadata_cache_hits", "metadata cache lookups that hit", "lookups",
              [this] { return double(ns_.cache().hits()); });
}

}  // namespace zng::storage::gofs
