#include "traces/workloads/storage/merge_sort.hpp"

#include <bit>
#include <stdexcept>
#include <string>

#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/storage/storage_workload.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kElements{"elements", "int32 keys to sort", 2048, int64_t{1} << 34,
                              "the preset's: small 262144 (1 MiB), paper 2097152 (8 MiB)"};
const ProgramOption kRuns{"runs", "sorted runs of the first phase (each sorted in GPU memory), a power of two", 1,
                          65536, "8"};
const ProgramOption kRequestSize{"request_size", "bytes per request, a power of two (512 B - 128 KiB)", 512, 131072,
                                 "4096"};
const ProgramOption kCtas{"grid_ctas", "CTAs of 256 threads the requests, the sort and the merges are spread over", 1,
                          65535, "64"};
const ProgramOption kOverlap{"overlap",
                             "1: one kernel per phase, step s + 1's reads during step s's sort or merge (CAM, "
                             "SPDK); 0: per step a read kernel, then a compute kernel that writes and waits",
                             0, 1, "1"};

constexpr uint64_t kKeyBytes = 4;
constexpr uint64_t kLineBytes = 128;                      // one warp load: 32 lanes x 4 B
constexpr uint64_t kLineKeys = kLineBytes / kKeyBytes;    // 32
// Assumption: a ModernGPU-style CTA tile of 256 threads x 8 keys is sorted in shared
// memory (log2(2048) = 11 merge levels) before the global merge passes.
constexpr uint64_t kTileKeys = 2048;
constexpr uint32_t kTileLevels = 11;
// Assumption: one merge level costs each key a compare, a select, two index updates and a
// shared-memory read and write: 6 warp instructions per 32 keys (one key per lane).
constexpr uint32_t kMergeInstructionsPerLine = 6;
constexpr uint32_t kAddressCompute = 4;  // a lane's storage offset and buffer address
constexpr uint64_t kReadPc = 0x100, kWritePc = 0x104, kWaitPc = 0x110, kLoadPc = 0x120, kStorePc = 0x124;

struct Sort {
    uint64_t elements = 0, runs = 0, run_keys = 0, run_bytes = 0, request = 0;
    uint32_t warps = 0;
    uint64_t in_buffer[2] = {0, 0};   // a step's input, double-buffered
    uint64_t out_buffer[2] = {0, 0};  // a step's output, double-buffered
    uint64_t region_bytes() const { return elements * kKeyBytes; }
    uint32_t merge_passes() const { return static_cast<uint32_t>(std::countr_zero(runs)); }
    // Storage regions: 0 the input, 1 and 2 the scratch the phases ping-pong between.
    // Phase 0 (run formation) reads region 0 and writes 1; merge pass p reads what pass
    // p - 1 wrote and writes the other scratch region.
    uint64_t source(uint32_t phase) const { return phase == 0 ? 0 : (1 + (phase - 1) % 2) * region_bytes(); }
    uint64_t destination(uint32_t phase) const { return (1 + phase % 2) * region_bytes(); }
};

// The storage pieces step s of `phase` reads: run s (phase 0), or half a run from each
// of the two segments it merges (pass p merges segments of L = run x 2^(p-1) keys in
// pairs; output chunk c of a pair takes keys [c x run / 2, (c + 1) x run / 2) of each).
uint32_t step_pieces(const Sort& g, uint32_t phase, uint64_t s, uint64_t src[2], uint64_t& piece_bytes) {
    const uint64_t base = g.source(phase);
    if (phase == 0) {
        src[0] = base + s * g.run_bytes;
        piece_bytes = g.run_bytes;
        return 1;
    }
    const uint64_t segment = g.run_keys << (phase - 1);  // keys of an input segment
    const uint64_t chunks = uint64_t{1} << phase;        // output runs per pair
    const uint64_t pair = s / chunks, c = s % chunks;
    const uint64_t first = pair * 2 * segment + c * g.run_keys / 2;
    src[0] = base + first * kKeyBytes;
    src[1] = base + (first + segment) * kKeyBytes;
    piece_bytes = g.run_bytes / 2;
    return 2;
}

// Requests covering `npieces` pieces of `piece_bytes` (numbered one after the other) to
// or from GPU `buffer`; chunk c of 32 to grid warp c mod warps.
void submit_pieces(WarpEmitter& we, const Sort& g, uint32_t gw, uint32_t tag, bool write, const uint64_t* src,
                   uint32_t npieces, uint64_t piece_bytes, uint64_t buffer) {
    workloads::submit_pieces(we, OocIo{g.warps, g.request, kReadPc, kWritePc, kAddressCompute}, gw, tag, write, src,
                             npieces, piece_bytes, buffer);
}

void read_step(WarpEmitter& we, const Sort& g, uint32_t phase, uint64_t s, uint32_t gw, uint32_t tag) {
    uint64_t src[2], piece = 0;
    const uint32_t n = step_pieces(g, phase, s, src, piece);
    submit_pieces(we, g, gw, tag, false, src, n, piece, g.in_buffer[s % 2]);
}

void write_step(WarpEmitter& we, const Sort& g, uint32_t phase, uint64_t s, uint32_t gw, uint32_t tag) {
    const uint64_t dst = g.destination(phase) + s * g.run_bytes;
    submit_pieces(we, g, gw, tag, true, &dst, 1, g.run_bytes, g.out_buffer[s % 2]);
}

// One pass over the step's keys: warp gw loads its lines (gw, gw + warps, ...) of the
// input buffer, spends `levels` merge levels on each and stores it to the output buffer.
void line_pass(WarpEmitter& we, const Sort& g, uint64_t s, uint32_t gw, uint32_t levels) {
    const uint64_t lines = g.run_keys / kLineKeys;
    for (uint64_t line = gw; line < lines; line += g.warps) {
        we.load_strided(kLoadPc, kFullMask, g.in_buffer[s % 2] + line * kLineBytes, 4, 4);
        we.compute(levels * kMergeInstructionsPerLine);
        we.store_strided(kStorePc, kFullMask, g.out_buffer[s % 2] + line * kLineBytes, 4, 4);
    }
}

// Run formation sorts a run: the tiles in shared memory, then log2(run / tile) global
// merge passes; a merge step merges its two halves in one pass.
void compute_step(WarpEmitter& we, const Sort& g, uint32_t phase, uint64_t s, uint32_t gw) {
    if (phase > 0) {
        line_pass(we, g, s, gw, 1);
        return;
    }
    line_pass(we, g, s, gw, kTileLevels);
    for (uint64_t k = kTileKeys; k < g.run_keys; k *= 2) line_pass(we, g, s, gw, 1);
}

// Each warp waits on its own tags: one per half of the input and of the output buffer.
uint32_t in_tag(uint32_t wi, uint64_t s) { return static_cast<uint32_t>(wi * 4 + s % 2); }
uint32_t out_tag(uint32_t wi, uint64_t s) { return static_cast<uint32_t>(wi * 4 + 2 + s % 2); }

void generate_merge_sort(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "merge_sort");
    Sort g;
    g.elements = static_cast<uint64_t>(option_or(ctx, kElements, o.preset == "paper" ? 2097152 : 262144));
    g.runs = static_cast<uint64_t>(option_or(ctx, kRuns, 8));
    g.request = static_cast<uint64_t>(option_or(ctx, kRequestSize, 4096));
    if (!std::has_single_bit(g.runs)) throw std::invalid_argument("merge_sort: option 'runs' must be a power of two");
    if (!std::has_single_bit(g.request))
        throw std::invalid_argument("merge_sort: option 'request_size' must be a power of two");
    if (g.elements % g.runs) throw std::invalid_argument("merge_sort: option 'elements' must be a multiple of 'runs'");
    g.run_keys = g.elements / g.runs;
    if (g.run_keys < kTileKeys || !std::has_single_bit(g.run_keys))
        throw std::invalid_argument("merge_sort: options 'elements' / 'runs' must be a power of two of at least " +
                                    std::to_string(kTileKeys) + " keys");
    g.run_bytes = g.run_keys * kKeyBytes;
    if (g.run_bytes / 2 % g.request)
        throw std::invalid_argument("merge_sort: option 'request_size' must divide half a run's bytes");
    const uint32_t ctas = static_cast<uint32_t>(option_or(ctx, kCtas, 64));
    g.warps = ctas * kOocWarps;
    const bool overlap = option_or(ctx, kOverlap, 1) != 0;
    for (int h = 0; h < 2; ++h) {
        g.in_buffer[h] = ctx.allocator().alloc("in_buffer" + std::to_string(h), g.run_bytes);
        g.out_buffer[h] = ctx.allocator().alloc("out_buffer" + std::to_string(h), g.run_bytes);
    }

    const uint64_t steps = g.runs;  // every phase: one run's worth of keys per step
    for (uint32_t phase = 0; phase <= g.merge_passes(); ++phase) {
        const std::string name = phase == 0 ? "sort_runs" : "merge_pass" + std::to_string(phase);
        if (overlap) {
            launch_ooc_kernel(ctx, name, ctas, [&](WarpEmitter& we, uint32_t gw, uint32_t wi) {
                read_step(we, g, phase, 0, gw, in_tag(wi, 0));
                for (uint64_t s = 0; s < steps; ++s) {
                    we.io_wait(kWaitPc, in_tag(wi, s));
                    if (s + 1 < steps) read_step(we, g, phase, s + 1, gw, in_tag(wi, s + 1));
                    if (s >= 2) we.io_wait(kWaitPc, out_tag(wi, s));  // step s - 2's writes left the buffer
                    compute_step(we, g, phase, s, gw);
                    write_step(we, g, phase, s, gw, out_tag(wi, s));
                }
                // The next phase reads what this one wrote.
                for (uint64_t s = steps > 2 ? steps - 2 : 0; s < steps; ++s) we.io_wait(kWaitPc, out_tag(wi, s));
            });
            continue;
        }
        for (uint64_t s = 0; s < steps; ++s) {
            launch_ooc_kernel(ctx, name + "_read", ctas, [&](WarpEmitter& we, uint32_t gw, uint32_t wi) {
                read_step(we, g, phase, s, gw, in_tag(wi, s));
                we.io_wait(kWaitPc, in_tag(wi, s));
            });
            launch_ooc_kernel(ctx, name, ctas, [&](WarpEmitter& we, uint32_t gw, uint32_t wi) {
                compute_step(we, g, phase, s, gw);
                write_step(we, g, phase, s, gw, out_tag(wi, s));
                we.io_wait(kWaitPc, out_tag(wi, s));
            });
        }
    }
}

}  // namespace

void register_merge_sort(WorkloadRegistry& registry) {
    registry.add({"merge_sort", "storage",
                  "external merge sort of int32 keys in storage: runs read, sorted in GPU memory and written, then "
                  "pairwise merge passes reading and writing every key; pipelined (CAM, SPDK) or synchronous "
                  "(seed 000 IV-D)",
                  0, 0, {kElements, kRuns, kRequestSize, kCtas, kOverlap}},
                 generate_merge_sort);
}

}  // namespace zng::workloads
