#include "storage/gofs/geminifs_plane.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"
#include "storage/gofs/file_offset.hpp"

namespace zng::storage::gofs {
namespace {
using namespace param_kind;
const auto kFileSize = Param<Size>("file_size", "8GiB",
                                   "bytes between the starts of consecutive files on the device (file f at f x "
                                   "file_size; an ext4 file written in one go is one extent)")
                           .range(4096, 1ull << 40);
const Param<Time> kSqeWrite{"sqe_write_latency", "500ns",
                            "a GPU thread writing one submission entry into a queue in GPU memory (as bam's)"};
const Param<Time> kRpc{"rpc_latency", "1us",
                       "an open's request reaching the host's polling thread, and its completion reaching the GPU "
                       "(each way; assumption: as CAM's signals, two PCIe traversals of ~500 ns)"};
const auto kHostThreads =
    Param<UInt32>("host_threads", "16", "host threads serving opens (seed 001's 16-core CPU)").range(1, 4096);
const auto kInodesPerBlock =
    Param<UInt32>("inodes_per_block", "16",
                  "inodes per 4 KiB block of the host's ext4 inode table, read by the first open of any of them "
                  "(mke2fs's default inode_size of 256 B; files created one after another hold consecutive inodes)")
        .range(1, 4096);
const Param<Time> kCopyCall{"copy_call_cost", "2460ns",
                            "CPU time of the cudaMemcpy call copying an opened file's metadata into GPU memory (as "
                            "the posix plane's copy call, seed 000 II-A)"};
const auto kOpenMetadata = Param<Size>("open_metadata", "8KiB",
                                       "GPU memory an open file's metadata takes (seed 001: \"The metadata in "
                                       "GeminiFS occupies at least 8KB of GPU memory per opened file\")")
                               .range(1, 1ull << 30);
const auto kMetadataMemory =
    Param<Size>("metadata_memory", "16GiB",
                "GPU memory for open files' metadata; beyond it the least recently used file is closed (assumption: "
                "seed 001's TIR keeps 15.3 GB of metadata in its A100's 40 GB, IIR's 404 GB does not fit)")
        .min(0);
const auto kPageCache = Param<Size>("page_cache", "1GiB",
                                    "GPU page cache, 4 KiB pages (seed 001: \"We also allocate a 1GB page cache in "
                                    "the GPU for its prefetching mechanism\")")
                            .min(0);
const Param<Time> kHit{"cache_hit_latency", "1275ns",
                       "a read served by the page cache (assumption: three dependent loads at the A100's ~600-cycle "
                       "global memory latency, as gpufs's)"};
}  // namespace

const ComponentSchema& GeminifsSettings::schema() {
    static const ComponentSchema s = ControlPlane::schema_of(
        "geminifs",
        "Seed 001's GeminiFS: BaM-style data I/O from GPU threads, one warp's requests one at a "
        "time; every open goes to the host file system (a system call, and a cold inode's "
        "inode-table block read), which copies the file's metadata into GPU memory (8 KB per "
        "open file); a 1 GB GPU page cache.",
        {kFileSize, kSqeWrite, kRpc, kHostThreads, kInodesPerBlock, kCopyCall, kOpenMetadata, kMetadataMemory,
         kPageCache, kHit});
    return s;
}

GeminifsSettings GeminifsSettings::read(const Params& p) {
    GeminifsSettings s;
    s.max_in_flight = ControlPlane::read_max_in_flight(p);
    s.file_bytes = p[kFileSize];
    s.sqe_write_latency = p[kSqeWrite];
    s.rpc_latency = p[kRpc];
    s.host_threads = p[kHostThreads];
    s.inodes_per_block = p[kInodesPerBlock];
    s.copy_call_cost = p[kCopyCall];
    s.open_metadata = p[kOpenMetadata];
    s.metadata_memory = p[kMetadataMemory];
    s.page_cache = p[kPageCache];
    s.cache_hit_latency = p[kHit];
    if (s.file_bytes % kBlockBytes) p.fail(kFileSize.key(), "must be a whole number of 4 KiB blocks");
    return s;
}

GeminifsPlane::GeminifsPlane(const StoragePath& path, const GeminifsSettings& s)
    : ControlPlane(path, s.max_in_flight),
      s_(s),
      open_files_(s.metadata_memory / s.open_metadata),
      pages_(s.page_cache / kBlockBytes),
      ready_(path.sim, [this](Ready& r) {
          switch (r.stage) {
              case Stage::Opened: opened(r.slot); break;
              case Stage::Data: data(r.slot); break;
              case Stage::Hit: complete(r.slot); break;
          }
      }, "geminifs-ready"),
      host_opens_(path, s.host_threads, s.inodes_per_block,
                  [this](uint64_t offset, uint32_t thread, std::function<void()> done) {
                      read_into_host(offset, HostFileOpens::kBlockBytes, thread, std::move(done));
                  },
                  [this](uint64_t slot) { opened_on_host(static_cast<uint32_t>(slot)); }) {
    if (s.host_threads > path.host.issuing_cores())
        throw SimError("geminifs: " + std::to_string(s.host_threads) + " host threads but the host CPU has " +
                       std::to_string(path.host.issuing_cores()) + " issuing cores");
}

uint64_t GeminifsPlane::device_offset(const StorageIo& io) const {
    return file_of(io.offset) * s_.file_bytes + offset_in_file(io.offset);
}

void GeminifsPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) {
    for (uint32_t i = 0; i < batch.count; ++i) {
        const StorageIo& io = batch.ios[i];
        const uint64_t off = offset_in_file(io.offset);
        if (is_batch(io.offset) || off % kBlockBytes || io.bytes % kBlockBytes || io.bytes == 0 ||
            off + io.bytes > s_.file_bytes)
            throw SimError("GeminiFS request of " + std::to_string(io.bytes) + " B at offset " + std::to_string(off) +
                           " is not whole 4 KiB blocks inside a file of " + std::to_string(s_.file_bytes) + " B" +
                           namespace_hint("storage.control_plane.file_size"));
    }
    taken(batch.count);
    const Tick now = p_.sim.now();
    if (warp_queue_.size() <= batch.warp) warp_queue_.resize(batch.warp + 1);
    std::deque<uint32_t>& q = warp_queue_[batch.warp];
    for (uint32_t i = 0; i < batch.count; ++i) {
        uint32_t slot;
        if (!free_slots_.empty()) {
            slot = free_slots_.back();
            free_slots_.pop_back();
        } else {
            slot = static_cast<uint32_t>(slots_.size());
            slots_.emplace_back();
        }
        slots_[slot] = Pending{batch.ios[i], &client, now, batch.warp};
        q.push_back(slot);
        if (q.size() == 1) begin(slot);
        else ++warp_waits_;
    }
}

void GeminifsPlane::begin(uint32_t slot) {
    const Pending& p = slots_[slot];
    const uint64_t file = file_of(p.io.offset);
    if (open_files_.lookup(file)) {
        opened(slot);
        return;
    }
    // The open: to the host, the host file system's work on a thread, the metadata's
    // copy into GPU memory, the completion back.
    open_files_.insert(file);
    ++opens_;
    const uint32_t thread = static_cast<uint32_t>(next_thread_++ % s_.host_threads);
    host_opens_.open(thread, file, slot, p_.sim.now() + s_.rpc_latency);
}

void GeminifsPlane::opened_on_host(uint32_t slot) {
    // The metadata lands in the file's block of the per-open GPU memory.
    const uint64_t file = file_of(slots_[slot].io.offset);
    const Tick copied =
        p_.pcie.host_to_gpu(p_.sim.now() + s_.copy_call_cost, s_.open_metadata, file * s_.open_metadata);
    ready_.push(Ready{slot, Stage::Opened}, copied + s_.rpc_latency);
}

void GeminifsPlane::opened(uint32_t slot) {
    const Pending& p = slots_[slot];
    bool cached = !p.io.write;
    for (uint64_t o = p.io.offset; cached && o < p.io.offset + p.io.bytes; o += kBlockBytes)
        cached = pages_.lookup(o / kBlockBytes);
    if (cached) {
        ++cache_hits_;
        ready_.push(Ready{slot, Stage::Hit}, p_.sim.now() + s_.cache_hit_latency);
        return;
    }
    ready_.push(Ready{slot, Stage::Data}, p_.sim.now() + s_.sqe_write_latency);
}

void GeminifsPlane::data(uint32_t slot) {
    StorageIo io = slots_[slot].io;
    io.offset = device_offset(io);
    IoRequest cmd = command(io, IoMemory::Gpu);
    cmd.queue = slots_[slot].warp;  // issue() folds it onto the SSD's queue pairs
    cmd.done = [this, slot](IoRequest&) {
        const StorageIo& done = slots_[slot].io;
        for (uint64_t o = done.offset; o < done.offset + done.bytes; o += kBlockBytes)
            if (!pages_.lookup(o / kBlockBytes)) pages_.insert(o / kBlockBytes);
        complete(slot);
    };
    issue(std::move(cmd));
}

void GeminifsPlane::complete(uint32_t slot) {
    const Pending p = slots_[slot];
    free_slots_.push_back(slot);
    std::deque<uint32_t>& q = warp_queue_[p.warp];
    q.pop_front();
    if (!q.empty()) begin(q.front());  // the warp's next request takes the lock
    finish(*p.client, p.io, p.taken);
}

void GeminifsPlane::register_stats(StatGroup g) const {
    ControlPlane::register_stats(g);
    g.formula("opens", "files opened through the host (first use, or again after being closed for room)", "files",
              [this] { return double(opens_); });
    g.formula("metadata_reads", "cold opens' ext4 inode-table block reads from the SSDs, 4 KiB each", "blocks",
              [this] { return double(host_opens_.block_reads()); });
    g.formula("cache_hits", "reads served by the GPU page cache", "requests", [this] { return double(cache_hits_); });
    g.formula("warp_waits", "requests that waited for an earlier request of their warp", "requests",
              [this] { return double(warp_waits_); });
}

}  // namespace zng::storage::gofs
