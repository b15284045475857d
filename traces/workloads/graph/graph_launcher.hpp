// Runs the kernel launches of a graph workload: grid shapes as GraphBIG's host code
// computes them, the workload's launch cap, skipped init kernels, and the warp loop
// that hands each warp's threads to the kernel body.
#pragma once

#include <cstdint>

#include "traces/workloads/graph/warp_ops.hpp"
#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/workload_context.hpp"

namespace zng::workloads::graph {

// maxThreadsPerBlock of the paper's GTX580-class GPU (and of every GPU since Fermi).
constexpr uint32_t kMaxThreadsPerBlock = 1024;

struct LaunchShape {
    uint32_t blocks = 0;
    uint32_t threads = 0;   // per block
};

// GraphBIG's rule "one thread per item": min(items, 1024) threads per block and
// ceil(items / threads) blocks. Zero items gives an empty grid.
LaunchShape one_thread_per_item(uint64_t items);

// The threads of one warp: lane l is thread warp*32+l of block `block`, and exists
// only if that index is below the block size (`live`).
struct WarpThreads {
    uint64_t block = 0;
    uint32_t block_dim = 0;
    uint32_t warp = 0;
    uint32_t live = 0;
    uint32_t thread_idx(int lane) const { return warp * kLanes + static_cast<uint32_t>(lane); }
    uint64_t tid(int lane) const { return block * block_dim + thread_idx(lane); }
    uint64_t first_tid() const { return tid(0); }
};

struct KernelDesc {
    const char* name = "";
    uint32_t shared_mem_bytes = 0;
};

// Execution model: CTAs run one after another in id order, the warps of a CTA in
// index order, each warp to completion, lanes in lockstep. This is a legal CUDA
// schedule (one resident warp), so the results of racy kernels (atomicMin relaxation,
// unsynchronised flag writes) are ones the real kernels can produce, and every run is
// deterministic.
class GraphLauncher {
public:
    // `ctx` null: nothing is traced and nothing is capped (functional runs).
    // `default_cap`: the workload's Table II kernel count. `profile_skips_init`: the
    // Table II profile (options max_launches == -1) leaves the init kernel out.
    GraphLauncher(WorkloadContext* ctx, int default_cap, bool profile_skips_init = false);

    // A launch of the algorithm proper. Returns false, running nothing, once the
    // launch cap is reached: the caller then stops.
    template <class Body>
    bool launch(const KernelDesc& k, LaunchShape s, Body&& body) {
        if (ctx_ && !ctx_->take_launch(cap_)) return false;
        ++launches_;
        execute(k, s, ctx_ != nullptr, body);
        return true;
    }
    // An initialisation kernel: always computed, traced unless init is skipped or the
    // cap is already reached.
    template <class Body>
    void launch_init(const KernelDesc& k, LaunchShape s, Body&& body) {
        const bool traced = ctx_ && !skip_init_ && ctx_->take_launch(cap_);
        if (traced) ++launches_;
        execute(k, s, traced, body);
    }

    int launches() const { return launches_; }
    bool traced() const { return ctx_ != nullptr; }

private:
    template <class Body>
    void execute(const KernelDesc& k, LaunchShape s, bool traced, Body& body) {
        const uint32_t warps = (s.threads + kLanes - 1) / kLanes;
        WarpThreads t;
        t.block_dim = s.threads;
        if (!traced) {
            for (uint64_t b = 0; b < s.blocks; ++b)
                for (uint32_t w = 0; w < warps; ++w) {
                    t.block = b;
                    t.warp = w;
                    t.live = lanes_below(static_cast<int>(s.threads - w * kLanes));
                    ops_.bind(nullptr);
                    body(ops_, t);
                }
            return;
        }
        trace::KernelInfo info;
        info.name = k.name;
        info.grid.x = s.blocks;
        info.block.x = s.threads;
        info.shared_mem_bytes = k.shared_mem_bytes;
        KernelEmitter ke(ctx_->writer(), info);
        for (uint64_t b = 0; b < s.blocks; ++b) {
            ke.begin_cta(b);
            for (uint32_t w = 0; w < warps; ++w) {
                t.block = b;
                t.warp = w;
                t.live = lanes_below(static_cast<int>(s.threads - w * kLanes));
                ops_.bind(&ke.warp(w));
                body(ops_, t);
            }
            ke.end_cta();
        }
        ops_.bind(nullptr);
    }

    WorkloadContext* ctx_;
    int cap_;
    bool skip_init_;
    int launches_ = 0;
    WarpOps ops_;
};

}  // namespace zng::workloads::graph
