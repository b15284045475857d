#include "storage/gofs/gpufs_plane.hpp"

#include "sim/core/errors.hpp"

namespace zng::storage::gofs {
namespace {
using namespace param_kind;
const auto kCacheSize =
    Param<Size>("cache_size", "1GiB",
                "GPU memory of the file cache, in 4 KiB pages (assumption: GPUfs sizes its buffer cache at "
                "initialisation; seed 001 gives no size, this is the 1 GB it gives GeminiFS's page cache)")
        .min(0);
const Param<Time> kHit{"cache_hit_latency", "1275ns",
                       "a read served by the GPU file cache: its page-table lookup in GPU memory (assumption: three "
                       "dependent loads at the A100's ~600-cycle global memory latency, 3 x 425 ns)"};
}  // namespace

const ComponentSchema& GpufsSettings::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c = BasicSettings::schema();
        c.name = "gpufs";
        c.description = "Seed 001's GPUfs: GPU threads' file calls go by RPC to host threads running F2FS (Basic: "
                        "the inode write lock, a host bounce buffer and a copy); reads of pages in the GPU file "
                        "cache stay on the GPU.";
        // The RPC's hand-over, as CAM's (cpu_managed_plane.cpp): the call written into
        // host memory (1 us), a polling server thread's next pass, the completion written
        // back into GPU memory (1 us).
        for (ParamSpec& ps : c.params) {
            if (ps.key == "gpu_signal_latency" || ps.key == "host_signal_latency") ps.default_value = "1us";
            if (ps.key == "poll_pickup") ps.default_value = "true";
        }
        c.params.push_back(kCacheSize);
        c.params.push_back(kHit);
        return c;
    }();
    return s;
}

GpufsSettings GpufsSettings::read(const Params& p) {
    GpufsSettings s;
    s.basic = BasicSettings::read(p);
    s.cache_bytes = p[kCacheSize];
    s.cache_hit_latency = p[kHit];
    return s;
}

GpufsPlane::GpufsPlane(const StoragePath& path, const GpufsSettings& s)
    : ControlPlane(path, s.basic.host.max_in_flight),
      s_(s),
      host_(path, s.basic),
      cache_(s.cache_bytes / kBlockBytes),
      hits_(path.sim, [this](uint32_t& c) { hit_done(c); }, "gpufs-cache-hit") {}

uint32_t GpufsPlane::new_call(const StorageIo& io, StorageIoClient& client, Tick taken_at) {
    uint32_t c;
    if (!free_calls_.empty()) {
        c = free_calls_.back();
        free_calls_.pop_back();
    } else {
        c = static_cast<uint32_t>(calls_.size());
        calls_.emplace_back();
    }
    calls_[c] = {io, &client, taken_at};
    return c;
}

void GpufsPlane::cache_pages(const StorageIo& io) {
    for (uint64_t o = io.offset; o < io.offset + io.bytes; o += kBlockBytes)
        if (!cache_.lookup(page_key(o))) cache_.insert(page_key(o));
}

void GpufsPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) {
    const Tick now = p_.sim.now();
    taken(batch.count);
    scratch_.clear();
    for (uint32_t i = 0; i < batch.count; ++i) {
        const StorageIo& io = batch.ios[i];
        if (io.offset % kBlockBytes || io.bytes % kBlockBytes || io.bytes == 0)
            throw SimError("GPUfs request of " + std::to_string(io.bytes) + " B at offset " +
                           std::to_string(io.offset) + " is not whole 4 KiB pages");
        bool cached = !io.write;
        for (uint64_t o = io.offset; cached && o < io.offset + io.bytes; o += kBlockBytes)
            cached = cache_.lookup(page_key(o));
        const uint32_t c = new_call(io, client, now);
        if (cached) {
            ++cache_hits_;
            hits_.push(c, now + s_.cache_hit_latency);
            continue;
        }
        ++rpcs_;
        StorageIo rpc = io;
        rpc.token = c;
        scratch_.push_back(rpc);
    }
    if (scratch_.empty()) return;
    StorageIoBatch b = batch;
    b.ios = scratch_.data();
    b.count = static_cast<uint32_t>(scratch_.size());
    host_.submit(b, *this);
}

void GpufsPlane::hit_done(uint32_t c) {
    const Call call = calls_[c];
    free_calls_.push_back(c);
    finish(*call.client, call.io, call.taken);
}

void GpufsPlane::io_done(uint64_t token) {
    const Call call = calls_[token];
    free_calls_.push_back(static_cast<uint32_t>(token));
    cache_pages(call.io);
    finish(*call.client, call.io, call.taken);
}

void GpufsPlane::register_stats(StatGroup g) const {
    ControlPlane::register_stats(g);
    host_.register_stats(g.sub("host"));
    g.formula("cache_hits", "reads served by the GPU file cache", "requests", [this] { return double(cache_hits_); });
    g.formula("rpcs", "calls sent to the host's server threads", "requests", [this] { return double(rpcs_); });
}

}  // namespace zng::storage::gofs
