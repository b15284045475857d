#include "traces/workloads/storage/file_graph.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "traces/workloads/graph/graph_inputs.hpp"
#include "traces/workloads/kernel_emitter.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kAlgo{"algo", "0: BFS, 1: connected components (label propagation)", 0, 1, "0"};
const ProgramOption kCtas{"ctas", "most CTAs of 256 threads a step's kernel launches", 1, 1 << 16, "108"};

constexpr uint32_t kThreads = 256;
constexpr uint32_t kWarps = kThreads / trace::kWarpSize;
constexpr uint64_t kPage = 4096;
constexpr uint64_t kReadOffsetsPc = 0x100, kReadEdgesPc = 0x104, kWaitPc = 0x110, kLoadPc = 0x120,
                   kAtomicPc = 0x130;
constexpr uint32_t kVertexCompute = 4;  // the vertex's offsets from the page
constexpr uint32_t kEdgeCompute = 2;    // an edge's destination and the comparison

struct FileGraph {
    const graph::CsrGraph* g = nullptr;
    uint64_t edges_at = 0;  // file offset of the edge array
    uint64_t scratch = 0;   // per warp: 32 pages the reads land in
    uint64_t offsets = 0;   // the offsets, read into GPU memory at the start
    uint64_t values = 0;    // levels or labels, 4 B per vertex, in GPU memory

    uint64_t first_edge_page(uint64_t v) const { return (edges_at + g->offsets[v] * 8) / kPage; }
    uint64_t edge_pages(uint64_t v) const {
        const uint64_t d = g->degree(v);
        return d == 0 ? 0 : (edges_at + (g->offsets[v] + d) * 8 - 1) / kPage - first_edge_page(v) + 1;
    }
};

// Rounds of one request per lane: lane l's r-th page is first(l) + r, for r < pages(l).
template <typename First, typename Pages>
void read_pages(WarpEmitter& we, uint64_t pc, uint32_t tag, uint64_t dest, const std::vector<uint64_t>& vs,
                First first, Pages pages) {
    uint64_t most = 0;
    for (uint64_t v : vs) most = std::max(most, pages(v));
    for (uint64_t r = 0; r < most; ++r) {
        LaneAddrs off{};
        uint32_t mask = 0;
        for (uint32_t l = 0; l < vs.size(); ++l)
            if (r < pages(vs[l])) {
                off[l] = (first(vs[l]) + r) * kPage;
                mask |= 1u << l;
            }
        we.io_submit(pc, mask, false, static_cast<uint32_t>(kPage), tag, off, dest, static_cast<int64_t>(kPage));
    }
}

// One warp's chunk of a step: the vertices' offsets from GPU memory, their edge pages
// from the file, then the edges. `touch(v, u)` is called for every edge v -> u in order
// (the algorithm's update).
template <typename Touch>
void chunk(WarpEmitter& we, const FileGraph& f, uint32_t wi, uint64_t gw, const std::vector<uint64_t>& vs,
           Touch touch) {
    const uint64_t dest = f.scratch + gw * trace::kWarpSize * kPage;
    LaneAddrs at{};
    for (uint32_t l = 0; l < vs.size(); ++l) at[l] = f.offsets + vs[l] * 8;
    we.compute(kVertexCompute);
    we.load(kLoadPc, lanes_below(static_cast<int>(vs.size())), at, 8);
    read_pages(we, kReadEdgesPc, wi, dest, vs, [&](uint64_t v) { return f.first_edge_page(v); },
               [&](uint64_t v) { return f.edge_pages(v); });
    we.io_wait(kWaitPc, wi);
    for (uint64_t v : vs) {
        const uint64_t begin = f.g->offsets[v], end = f.g->offsets[v + 1];
        for (uint64_t e = begin; e < end; e += trace::kWarpSize) {
            const uint64_t n = std::min<uint64_t>(trace::kWarpSize, end - e);
            LaneAddrs addr{};
            for (uint64_t l = 0; l < n; ++l) {
                addr[l] = f.values + f.g->edges[e + l] * 4;
                touch(v, f.g->edges[e + l]);
            }
            we.compute(kEdgeCompute);
            we.atomic(kAtomicPc, lanes_below(static_cast<int>(n)), addr, 4);
        }
    }
}

// A step's kernel over `active`.
template <typename Touch>
void step_kernel(WorkloadContext& ctx, const FileGraph& f, const std::string& name, const std::vector<uint64_t>& active,
                 uint32_t max_ctas, Touch touch) {
    const uint64_t chunks = (active.size() + trace::kWarpSize - 1) / trace::kWarpSize;
    const uint32_t ctas = static_cast<uint32_t>(std::min<uint64_t>(max_ctas, (chunks + kWarps - 1) / kWarps));
    const uint64_t warps = uint64_t{ctas} * kWarps;
    trace::KernelInfo k;
    k.name = name;
    k.grid = {ctas, 1, 1};
    k.block = {kThreads, 1, 1};
    k.regs_per_thread = 32;
    KernelEmitter ke(ctx.writer(), k);
    std::vector<uint64_t> vs;
    for (uint32_t c = 0; c < ctas; ++c) {
        ke.begin_cta(c);
        for (uint32_t wi = 0; wi < kWarps; ++wi) {
            const uint64_t gw = uint64_t{c} * kWarps + wi;
            for (uint64_t ch = gw; ch < chunks; ch += warps) {
                vs.assign(active.begin() + ch * trace::kWarpSize,
                          active.begin() + std::min<uint64_t>(active.size(), (ch + 1) * trace::kWarpSize));
                chunk(ke.warp(wi), f, wi, gw, vs, touch);
            }
        }
        ke.end_cta();
    }
    ke.end();
}

void generate_file_graph(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    const bool cc = ctx.options().program_value(kAlgo.name).value_or(0) != 0;
    const uint32_t max_ctas = static_cast<uint32_t>(ctx.options().program_value(kCtas.name).value_or(108));
    const graph::CsrGraph g = graph::workload_graph(o, graph::GraphKind::Kronecker);
    const uint64_t n = g.vertex_count();
    if (n == 0) throw std::invalid_argument("file_graph: the graph has no vertices");
    FileGraph f;
    f.g = &g;
    f.edges_at = ((n + 1) * 8 + kPage - 1) / kPage * kPage;
    const uint64_t max_warps = uint64_t{max_ctas} * kWarps;
    f.scratch = ctx.allocator().alloc("page_scratch", max_warps * trace::kWarpSize * kPage);
    f.values = ctx.allocator().alloc(cc ? "labels" : "levels", n * 4);

    f.offsets = ctx.allocator().alloc("offsets", f.edges_at);

    // The offsets into GPU memory, one 4 KiB page per thread.
    {
        const uint64_t pages = f.edges_at / kPage;
        const uint64_t chunks = (pages + trace::kWarpSize - 1) / trace::kWarpSize;
        const uint32_t ctas = static_cast<uint32_t>(std::min<uint64_t>(max_ctas, (chunks + kWarps - 1) / kWarps));
        trace::KernelInfo k;
        k.name = "file_graph_offsets";
        k.grid = {ctas, 1, 1};
        k.block = {kThreads, 1, 1};
        k.regs_per_thread = 32;
        KernelEmitter ke(ctx.writer(), k);
        const uint64_t warps = uint64_t{ctas} * kWarps;
        for (uint32_t c = 0; c < ctas; ++c) {
            ke.begin_cta(c);
            for (uint32_t wi = 0; wi < kWarps; ++wi) {
                WarpEmitter& we = ke.warp(wi);
                for (uint64_t ch = uint64_t{c} * kWarps + wi; ch < chunks; ch += warps) {
                    const uint64_t first = ch * trace::kWarpSize;
                    const int n = static_cast<int>(std::min<uint64_t>(trace::kWarpSize, pages - first));
                    we.io_submit_strided(kReadOffsetsPc, lanes_below(n), false, static_cast<uint32_t>(kPage), wi,
                                         first * kPage, static_cast<int64_t>(kPage), f.offsets + first * kPage,
                                         static_cast<int64_t>(kPage));
                    we.io_wait(kWaitPc, wi);
                }
            }
            ke.end_cta();
        }
        ke.end();
    }

    std::vector<uint64_t> active, next;
    if (!cc) {
        // Level-synchronous BFS from the peripheral root (deep traversals, as bfs1).
        std::vector<uint32_t> level(n, ~0u);
        const uint64_t root = graph::peripheral_root(g);
        level[root] = 0;
        active = {root};
        for (uint32_t depth = 0; !active.empty(); ++depth) {
            next.clear();
            step_kernel(ctx, f, "file_bfs_level", active, max_ctas, [&](uint64_t, uint64_t u) {
                if (level[u] == ~0u) {
                    level[u] = depth + 1;
                    next.push_back(u);
                }
            });
            active.swap(next);
        }
        return;
    }
    // Label propagation: a vertex's label falls to the least label of its
    // neighbours; vertices whose label fell push theirs in the next step.
    std::vector<uint64_t> label(n), pushed(n);
    std::vector<bool> queued(n, false);
    for (uint64_t v = 0; v < n; ++v) label[v] = v;
    active.resize(n);
    for (uint64_t v = 0; v < n; ++v) active[v] = v;
    while (!active.empty()) {
        next.clear();
        // Labels pushed in this step are those at its start.
        for (uint64_t v : active) pushed[v] = label[v];
        step_kernel(ctx, f, "file_cc_step", active, max_ctas, [&](uint64_t from, uint64_t u) {
            if (pushed[from] < label[u]) {
                label[u] = pushed[from];
                if (!queued[u]) {
                    queued[u] = true;
                    next.push_back(u);
                }
            }
        });
        for (uint64_t u : next) queued[u] = false;
        std::sort(next.begin(), next.end());
        active.swap(next);
    }
}

}  // namespace

void register_file_graph(WorkloadRegistry& registry) {
    registry.add({"file_graph", "storage",
                  "BFS or connected components over a Kronecker graph kept in file 0 and read through "
                  "data-dependent 4 KB file reads (the vertex's offsets, then its edges) (seed 001 §4.3.3)",
                  0, 0, {kAlgo, kCtas}},
                 generate_file_graph);
}

}  // namespace zng::workloads
