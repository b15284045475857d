#include "traces/workloads/storage/gnn_gather.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "traces/workloads/graph/graph_inputs.hpp"
#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/storage/storage_workload.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kBatchSize{"batch_size", "seed nodes per mini-batch", 1, 1 << 20,
                               "the preset's: small 32, paper 128 (seed 000 Table V trains with 8000)"};
const ProgramOption kBatches{"batches", "mini-batches", 1, 4096, "the preset's: small 2, paper 4"};
const ProgramOption kFeatureBytes{"feature_bytes", "bytes of a node's feature row: 512 or 4096", 512, 4096, "4096"};
const ProgramOption kFanout1{"fanout1", "neighbours sampled per seed node", 0, 1024,
                             "25 (seed 000 Table V: fan-outs 25, 10)"};
const ProgramOption kFanout2{"fanout2", "neighbours sampled per hop-1 node", 0, 1024, "10"};
const ProgramOption kCtas{"grid_ctas", "CTAs of 256 threads the rows are spread over", 1, 65535, "64"};
const ProgramOption kRowCompute{"row_compute", "compute warp instructions per gathered row", 0, 1 << 24,
                                "feature_bytes: the row's feature_bytes / 4 values x 128 hidden units (seed 000 "
                                "Table V) multiply-adds over 32 lanes"};
const ProgramOption kOverlap{"overlap",
                             "1: CAM's pipeline (batch b + 1's reads during batch b's compute); 0: a gather "
                             "kernel then a compute kernel per batch (GIDS on BaM)",
                             0, 1, "0"};

constexpr uint32_t kThreads = 256;
constexpr uint32_t kWarps = kThreads / trace::kWarpSize;
constexpr uint32_t kLineBytes = 128;  // one warp load: 32 lanes x 4 B
constexpr uint64_t kSubmitPc = 0x100, kWaitPc = 0x110, kLoadPc = 0x120;
constexpr uint32_t kAddressCompute = 4;  // a lane's row index, node id and offset

struct Plan {
    uint64_t feature_bytes = 0;
    uint32_t row_compute = 0;
    uint32_t warps = 0;                       // grid warps
    std::vector<std::vector<uint64_t>> rows;  // per batch: its distinct nodes
    uint64_t buffer[2] = {0, 0};              // the double buffer's halves
};

// Chunk k of batch b (rows 32k..32k+31) belongs to grid warp k mod warps.
void submit_chunks(WarpEmitter& we, const Plan& p, uint32_t b, uint32_t gw, uint32_t tag) {
    const std::vector<uint64_t>& rows = p.rows[b];
    const uint64_t chunks = (rows.size() + trace::kWarpSize - 1) / trace::kWarpSize;
    for (uint64_t k = gw; k < chunks; k += p.warps) {
        LaneAddrs off{};
        uint32_t mask = 0;
        for (uint32_t l = 0; l < trace::kWarpSize && k * trace::kWarpSize + l < rows.size(); ++l) {
            off[l] = rows[k * trace::kWarpSize + l] * p.feature_bytes;
            mask |= 1u << l;
        }
        we.compute(kAddressCompute);
        we.io_submit(kSubmitPc, mask, false, static_cast<uint32_t>(p.feature_bytes), tag, off,
                     p.buffer[b % 2] + k * trace::kWarpSize * p.feature_bytes,
                     static_cast<int64_t>(p.feature_bytes));
    }
}

void compute_chunks(WarpEmitter& we, const Plan& p, uint32_t b, uint32_t gw) {
    const uint64_t rows = p.rows[b].size();
    const uint64_t chunks = (rows + trace::kWarpSize - 1) / trace::kWarpSize;
    const uint32_t loads = static_cast<uint32_t>(p.feature_bytes / kLineBytes);
    for (uint64_t k = gw; k < chunks; k += p.warps) {
        for (uint64_t r = k * trace::kWarpSize; r < std::min(rows, (k + 1) * trace::kWarpSize); ++r) {
            const uint64_t row = p.buffer[b % 2] + r * p.feature_bytes;
            for (uint32_t j = 0; j < loads; ++j) {
                // The row's compute spread over its loads, the remainder on the first.
                we.compute(p.row_compute / loads + (j == 0 ? p.row_compute % loads : 0));
                we.load_strided(kLoadPc, kFullMask, row + uint64_t{j} * kLineBytes, 4, 4);
            }
        }
    }
}

trace::KernelInfo kernel(const std::string& name, uint32_t ctas) {
    trace::KernelInfo k;
    k.name = name;
    k.grid = {ctas, 1, 1};
    k.block = {kThreads, 1, 1};
    k.regs_per_thread = 32;
    return k;
}

// `body(we, gw, wi)` for every warp of a `ctas`-CTA launch.
template <typename Body>
void launch(WorkloadContext& ctx, const std::string& name, uint32_t ctas, Body body) {
    KernelEmitter ke(ctx.writer(), kernel(name, ctas));
    for (uint32_t c = 0; c < ctas; ++c) {
        ke.begin_cta(c);
        for (uint32_t wi = 0; wi < kWarps; ++wi) body(ke.warp(wi), c * kWarps + wi, wi);
        ke.end_cta();
    }
    ke.end();
}

void generate_gnn_gather(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    const bool paper = o.preset == "paper";
    Plan p;
    p.feature_bytes = static_cast<uint64_t>(option_or(ctx, kFeatureBytes, 4096));
    if (p.feature_bytes != 512 && p.feature_bytes != 4096)
        throw std::invalid_argument("gnn_gather: option 'feature_bytes' must be 512 or 4096");
    p.row_compute = static_cast<uint32_t>(option_or(ctx, kRowCompute, static_cast<int64_t>(p.feature_bytes)));
    const uint64_t batch_size = static_cast<uint64_t>(option_or(ctx, kBatchSize, paper ? 128 : 32));
    const uint32_t batches = static_cast<uint32_t>(option_or(ctx, kBatches, paper ? 4 : 2));
    const uint32_t fanout1 = static_cast<uint32_t>(option_or(ctx, kFanout1, 25));
    const uint32_t fanout2 = static_cast<uint32_t>(option_or(ctx, kFanout2, 10));
    const uint32_t ctas = static_cast<uint32_t>(option_or(ctx, kCtas, 64));
    const bool overlap = option_or(ctx, kOverlap, 0) != 0;
    p.warps = ctas * kWarps;

    const graph::CsrGraph g = graph::workload_graph(o, graph::GraphKind::Kronecker);
    graph::RandomStream rng(o.seed);
    uint64_t most = 0;
    for (uint32_t b = 0; b < batches; ++b) {
        p.rows.push_back(sample_batch(g, batch_size, fanout1, fanout2, rng));
        most = std::max<uint64_t>(most, p.rows.back().size());
    }
    const uint64_t half = (most + trace::kWarpSize - 1) / trace::kWarpSize * trace::kWarpSize * p.feature_bytes;
    p.buffer[0] = ctx.allocator().alloc("feature_buffer0", half);
    p.buffer[1] = ctx.allocator().alloc("feature_buffer1", half);

    // Each warp waits on its own tag per buffer half: its requests only.
    auto tag = [](uint32_t wi, uint32_t b) { return wi * 2 + b % 2; };
    if (overlap) {
        launch(ctx, "gnn_pipeline", ctas, [&](WarpEmitter& we, uint32_t gw, uint32_t wi) {
            submit_chunks(we, p, 0, gw, tag(wi, 0));
            for (uint32_t b = 0; b < batches; ++b) {
                we.io_wait(kWaitPc, tag(wi, b));
                if (b + 1 < batches) submit_chunks(we, p, b + 1, gw, tag(wi, b + 1));
                compute_chunks(we, p, b, gw);
            }
        });
    } else {
        for (uint32_t b = 0; b < batches; ++b) {
            launch(ctx, "gnn_gather", ctas, [&](WarpEmitter& we, uint32_t gw, uint32_t wi) {
                submit_chunks(we, p, b, gw, tag(wi, b));
                we.io_wait(kWaitPc, tag(wi, b));
            });
            launch(ctx, "gnn_compute", ctas,
                   [&](WarpEmitter& we, uint32_t gw, uint32_t) { compute_chunks(we, p, b, gw); });
        }
    }
}

}  // namespace

std::vector<uint64_t> sample_batch(const graph::CsrGraph& g, uint64_t seeds, uint32_t fanout1, uint32_t fanout2,
                                   graph::RandomStream& rng) {
    const uint64_t n = g.vertex_count();
    if (n == 0) throw std::invalid_argument("gnn_gather: the graph has no vertices");
    std::vector<uint64_t> rows;
    std::unordered_set<uint64_t> seen;
    auto add = [&](uint64_t v) {
        if (seen.insert(v).second) rows.push_back(v);
    };
    auto neighbour = [&](uint64_t v) { return g.edges[g.offsets[v] + rng.next_below(g.degree(v))]; };
    std::vector<uint64_t> seed_nodes(seeds), hop1;
    for (uint64_t& s : seed_nodes) {
        s = rng.next_below(n);
        add(s);
    }
    for (uint64_t s : seed_nodes) {
        if (g.degree(s) == 0) continue;
        for (uint32_t i = 0; i < fanout1; ++i) {
            const uint64_t v = neighbour(s);
            hop1.push_back(v);
            add(v);
        }
    }
    for (uint64_t v : hop1) {
        if (g.degree(v) == 0) continue;
        for (uint32_t i = 0; i < fanout2; ++i) add(neighbour(v));
    }
    return rows;
}

void register_gnn_gather(WorkloadRegistry& registry) {
    registry.add({"gnn_gather", "storage",
                  "GNN training's feature gather from storage (2-hop 25/10 sampling over a Kronecker graph, a read "
                  "per sampled node) and its first-layer compute, serial (GIDS/BaM) or pipelined (CAM) (seed 000 "
                  "IV-C)",
                  0, 0, {kBatchSize, kBatches, kFeatureBytes, kFanout1, kFanout2, kCtas, kRowCompute, kOverlap}},
                 generate_gnn_gather);
}

}  // namespace zng::workloads
