#include "traces/workloads/storage/gemm_ooc.hpp"

#include <stdexcept>
#include <string>

#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/storage/storage_workload.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kOrder{"n", "matrix order (fp32), a multiple of 'tile'", 32, 1 << 20,
                           "the preset's: small 1024, paper 2048"};
const ProgramOption kTile{"tile", "tile order, a power of two", 32, 8192, "512"};
const ProgramOption kRequestSize{"request_size", "bytes per request, a power of two (512 B - 128 KiB)", 512, 131072,
                                 "4096"};
const ProgramOption kCtas{"grid_ctas", "CTAs of 256 threads the requests and the multiply are spread over", 1, 65535,
                          "64"};
const ProgramOption kOverlap{"overlap",
                             "1: CAM's pipeline (step s + 1's reads during step s's multiply); 0: a read kernel "
                             "then a compute kernel per step (BaM, GDS)",
                             0, 1, "0"};

constexpr uint32_t kWarps = kOocWarps;
constexpr uint64_t kLineBytes = 128;  // one warp load: 32 lanes x 4 B
constexpr uint64_t kReadPc = 0x100, kWritePc = 0x104, kWaitPc = 0x110, kLoadPc = 0x120;
constexpr uint32_t kAddressCompute = 4;  // a lane's tile offset and buffer address

struct Gemm {
    uint64_t tiles = 0;       // tiles per matrix side
    uint64_t tile_bytes = 0;  // tile x tile x 4
    uint64_t tile = 0;
    uint64_t request = 0;
    uint32_t warps = 0;
    uint64_t ab_buffer[2] = {0, 0};  // each half holds an A and a B tile
    uint64_t c_buffer = 0;
    // Storage offset of tile (r, c) of matrix m (0 A, 1 B, 2 C).
    uint64_t tile_offset(uint32_t m, uint64_t r, uint64_t c) const {
        return ((uint64_t{m} * tiles + r) * tiles + c) * tile_bytes;
    }
    uint64_t steps() const { return tiles * tiles * tiles; }
};

// Requests of `count` x request bytes from storage offsets `src[0..1]` (two tiles, one
// after the other in the request numbering) to/from GPU `dest`; chunk c to warp c mod warps.
void submit_tiles(WarpEmitter& we, const Gemm& g, uint32_t gw, uint32_t tag, bool write, const uint64_t* src,
                  uint32_t ntiles, uint64_t dest) {
    submit_pieces(we, OocIo{g.warps, g.request, kReadPc, kWritePc, kAddressCompute}, gw, tag, write, src, ntiles,
                  g.tile_bytes, dest);
}

// Step s = (i, j, k) with k fastest.
void step_tiles(const Gemm& g, uint64_t s, uint64_t src[2]) {
    const uint64_t i = s / (g.tiles * g.tiles), j = s / g.tiles % g.tiles, k = s % g.tiles;
    src[0] = g.tile_offset(0, i, k);
    src[1] = g.tile_offset(1, k, j);
}

void read_step(WarpEmitter& we, const Gemm& g, uint64_t s, uint32_t gw, uint32_t tag) {
    uint64_t src[2];
    step_tiles(g, s, src);
    submit_tiles(we, g, gw, tag, false, src, 2, g.ab_buffer[s % 2]);
}

// Warp gw's share of step s's multiply: the two tiles' lines k = gw, gw + warps, ... and
// tile^3 / 32 multiply-add instructions spread over the grid's warps (and over its loads).
void multiply_step(WarpEmitter& we, const Gemm& g, uint64_t s, uint32_t gw) {
    const uint64_t lines = 2 * g.tile_bytes / kLineBytes;
    const uint64_t total = g.tile * g.tile * g.tile / trace::kWarpSize;
    const uint64_t mine = total / g.warps + (gw < total % g.warps ? 1 : 0);
    const uint64_t my_lines = lines / g.warps + (gw < lines % g.warps ? 1 : 0);
    uint64_t left = mine;
    for (uint64_t n = 0, line = gw; line < lines; ++n, line += g.warps) {
        const uint64_t share = mine / my_lines + (n == 0 ? mine % my_lines : 0);
        we.compute(static_cast<uint32_t>(share));
        left -= share;
        we.load_strided(kLoadPc, kFullMask, g.ab_buffer[s % 2] + line * kLineBytes, 4, 4);
    }
    if (left) we.compute(static_cast<uint32_t>(left));  // a warp with no line of its own
}

// After the last k of a C tile: write it back and wait for the writes.
void write_back(WarpEmitter& we, const Gemm& g, uint64_t s, uint32_t gw, uint32_t wi) {
    if (s % g.tiles != g.tiles - 1) return;
    const uint64_t i = s / (g.tiles * g.tiles), j = s / g.tiles % g.tiles;
    const uint64_t dst = g.tile_offset(2, i, j);
    submit_tiles(we, g, gw, 2 * kWarps + wi, true, &dst, 1, g.c_buffer);
    we.io_wait(kWaitPc, 2 * kWarps + wi);
}

void generate_gemm_ooc(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "gemm_ooc");
    Gemm g;
    const uint64_t n = static_cast<uint64_t>(option_or(ctx, kOrder, o.preset == "paper" ? 2048 : 1024));
    g.tile = static_cast<uint64_t>(option_or(ctx, kTile, 512));
    g.request = static_cast<uint64_t>(option_or(ctx, kRequestSize, 4096));
    if (g.tile & (g.tile - 1)) throw std::invalid_argument("gemm_ooc: option 'tile' must be a power of two");
    if (g.request & (g.request - 1))
        throw std::invalid_argument("gemm_ooc: option 'request_size' must be a power of two");
    if (n % g.tile) throw std::invalid_argument("gemm_ooc: option 'n' must be a multiple of 'tile'");
    g.tile_bytes = g.tile * g.tile * 4;
    if (g.tile_bytes % g.request)
        throw std::invalid_argument("gemm_ooc: option 'request_size' must divide a tile's bytes");
    g.tiles = n / g.tile;
    const uint32_t ctas = static_cast<uint32_t>(option_or(ctx, kCtas, 64));
    g.warps = ctas * kWarps;
    const bool overlap = option_or(ctx, kOverlap, 0) != 0;
    g.ab_buffer[0] = ctx.allocator().alloc("ab_buffer0", 2 * g.tile_bytes);
    g.ab_buffer[1] = ctx.allocator().alloc("ab_buffer1", 2 * g.tile_bytes);
    g.c_buffer = ctx.allocator().alloc("c_buffer", g.tile_bytes);

    // Each warp waits on its own tags: one per half of the double buffer, one for writes.
    auto tag = [](uint32_t wi, uint64_t s) { return static_cast<uint32_t>(wi * 2 + s % 2); };
    const uint64_t steps = g.steps();
    if (overlap) {
        launch_ooc_kernel(ctx, "gemm_pipeline", ctas, [&](WarpEmitter& we, uint32_t gw, uint32_t wi) {
            read_step(we, g, 0, gw, tag(wi, 0));
            for (uint64_t s = 0; s < steps; ++s) {
                we.io_wait(kWaitPc, tag(wi, s));
                if (s + 1 < steps) read_step(we, g, s + 1, gw, tag(wi, s + 1));
                multiply_step(we, g, s, gw);
                write_back(we, g, s, gw, wi);
            }
        });
    } else {
        for (uint64_t s = 0; s < steps; ++s) {
            launch_ooc_kernel(ctx, "gemm_read", ctas, [&](WarpEmitter& we, uint32_t gw, uint32_t wi) {
                read_step(we, g, s, gw, tag(wi, s));
                we.io_wait(kWaitPc, tag(wi, s));
            });
            launch_ooc_kernel(ctx, "gemm_multiply", ctas, [&](WarpEmitter& we, uint32_t gw, uint32_t wi) {
                multiply_step(we, g, s, gw);
                write_back(we, g, s, gw, wi);
            });
        }
    }
}

}  // namespace

void register_gemm_ooc(WorkloadRegistry& registry) {
    registry.add({"gemm_ooc", "storage",
                  "out-of-core blocked GEMM: tiles read from storage into a double buffer, multiplied, C tiles "
                  "written back; serial (BaM, GDS) or pipelined (CAM) (seed 000 IV-E)",
                  0, 0, {kOrder, kTile, kRequestSize, kCtas, kOverlap}},
                 generate_gemm_ooc);
}

}  // namespace zng::workloads
