// What the storage workloads (io_bench, file_bench, gnn_gather, gemm_ooc, merge_sort)
// share: reading their program options with a default, refusing the graph inputs the
// synthetic ones do not take, and launching a grid of 256-thread CTAs warp by warp.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/workload_context.hpp"
#include "traces/workloads/workload_options.hpp"

namespace zng::workloads {

// The value given for program option `o`, or `fallback` when none was given.
inline int64_t option_or(const WorkloadContext& ctx, const ProgramOption& o, int64_t fallback) {
    return ctx.options().program_value(o.name).value_or(fallback);
}

// A workload that makes its own requests takes no graph input, edge factor or scale.
inline void refuse_graph_inputs(const WorkloadContext& ctx, const std::string& workload) {
    const WorkloadOptions& o = ctx.options();
    if (!o.input.empty() || o.edge_factor != 0 || o.scale != 0)
        throw std::invalid_argument("workload '" + workload + "' takes no input, edge_factor or scale");
}

// CTAs of the out-of-core programs (gemm_ooc, merge_sort): 256 threads, 64 registers each.
constexpr uint32_t kOocThreads = 256;
constexpr uint32_t kOocWarps = kOocThreads / trace::kWarpSize;

// One kernel `name` of `ctas` CTAs of kOocThreads threads; body(warp emitter, grid warp
// index, warp index in its CTA) emits each warp's records.
template <typename Body>
void launch_ooc_kernel(WorkloadContext& ctx, const std::string& name, uint32_t ctas, Body body) {
    trace::KernelInfo k;
    k.name = name;
    k.grid = {ctas, 1, 1};
    k.block = {kOocThreads, 1, 1};
    k.regs_per_thread = 64;
    KernelEmitter ke(ctx.writer(), k);
    for (uint32_t c = 0; c < ctas; ++c) {
        ke.begin_cta(c);
        for (uint32_t wi = 0; wi < kOocWarps; ++wi) body(ke.warp(wi), c * kOocWarps + wi, wi);
        ke.end_cta();
    }
    ke.end();
}

// The out-of-core programs' I/O: requests of `request` bytes covering `npieces` pieces of
// `piece_bytes` each (numbered one after the other), piece i starting at storage offset
// src[i], to or from GPU memory at `buffer`. Chunk c of 32 requests is issued by grid warp
// c mod `warps`; this emits grid warp `gw`'s chunks, each after `address_compute`
// instructions of address arithmetic.
struct OocIo {
    uint32_t warps;
    uint64_t request;
    uint64_t read_pc, write_pc;
    uint32_t address_compute;
};
inline void submit_pieces(WarpEmitter& we, const OocIo& io, uint32_t gw, uint32_t tag, bool write,
                          const uint64_t* src, uint32_t npieces, uint64_t piece_bytes, uint64_t buffer) {
    const uint64_t per_piece = piece_bytes / io.request;
    const uint64_t requests = per_piece * npieces;
    const uint64_t chunks = (requests + trace::kWarpSize - 1) / trace::kWarpSize;
    for (uint64_t c = gw; c < chunks; c += io.warps) {
        LaneAddrs off{};
        uint32_t mask = 0;
        for (uint32_t l = 0; l < trace::kWarpSize && c * trace::kWarpSize + l < requests; ++l) {
            const uint64_t r = c * trace::kWarpSize + l;
            off[l] = src[r / per_piece] + r % per_piece * io.request;
            mask |= 1u << l;
        }
        we.compute(io.address_compute);
        we.io_submit(write ? io.write_pc : io.read_pc, mask, write, static_cast<uint32_t>(io.request), tag, off,
                     buffer + c * trace::kWarpSize * io.request, static_cast<int64_t>(io.request));
    }
}

}  // namespace zng::workloads
