// The GraphBIG rows of the paper's Table II: names, Table II figures, inputs and roots.
#include "traces/workloads/graph/graph_workloads.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "traces/workloads/graph/betweenness.hpp"
#include "traces/workloads/graph/bfs.hpp"
#include "traces/workloads/graph/degree_centrality.hpp"
#include "traces/workloads/graph/graph_coloring.hpp"
#include "traces/workloads/graph/graph_inputs.hpp"
#include "traces/workloads/graph/pagerank.hpp"
#include "traces/workloads/graph/sssp.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

namespace {

using namespace graph;

// Depth of betweenness' root: forward launches = depth + 1, backward = depth, so with
// init and back-sum the run is 2 * depth + 3 = 11 launches, Table II's count.
constexpr uint32_t kBetweennessDepth = 4;
// PageRank iterations: init + 26 * (push + copy) = 53 launches.
constexpr int kPageRankIterations = 26;
constexpr uint32_t kGeneratorVersion = 1;

// gpu_BFS and gpu_SSSP main.cpp: arg.add_arg("root", "0", "root/starting vertex").
// Each traversal workload adds its own default (with_default).
const ProgramOption kRootOption{"root", "root/starting vertex of the traversal (GraphBIG's --root)", 0,
                                std::numeric_limits<uint32_t>::max(), ""};
const char* const kPeripheralRoot =
    "a peripheral vertex: the farthest from the vertex farthest from the highest-degree one (two BFS sweeps), "
    "so the traversal has many levels (GraphBIG's default is vertex 0)";
// bench_pageRank main.cpp: arg.add_arg("maxiter", "100", "maximum allowed iteration number").
const ProgramOption kMaxIterOption{"maxiter", "PageRank iterations, each a push and a copy kernel (GraphBIG's --maxiter)",
                                   1, 1 << 20,
                                   "26: init + 26 x 2 = 53 launches, Table II's count (GraphBIG's default is 100)"};

WorkloadInfo info(const char* name, const char* description, double ratio, int kernels,
                  std::vector<ProgramOption> options = {}) {
    return WorkloadInfo{name, "GraphBIG", description, ratio, kernels, std::move(options)};
}

// The traversal's root: the user's --root, else the workload's own choice.
template <class Automatic>
uint64_t traversal_root(const WorkloadContext& ctx, const CsrGraph& g, Automatic automatic) {
    if (const auto root = ctx.options().program_value("root")) {
        if (static_cast<uint64_t>(*root) >= g.vertex_count())
            throw std::invalid_argument("workload option 'root': vertex " + std::to_string(*root) +
                                        " is not one of the " + std::to_string(g.vertex_count()) +
                                        " vertices of the graph");
        return static_cast<uint64_t>(*root);
    }
    return automatic();
}

// A workload that runs GraphBIG kernels on its input graph, capped at its Table II
// launch count: kernels(ctx, run, g) runs the benchmark.
template <class Kernels>
void add_graph_workload(WorkloadRegistry& reg, WorkloadInfo info, GraphKind kind, Kernels kernels,
                        bool profile_skips_init = false) {
    const int cap = info.paper_kernels;
    reg.add(std::move(info),
            [=](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), kind);
                GpuRun run(&ctx, cap, profile_skips_init);
                kernels(ctx, run, g);
            },
            kGeneratorVersion);
}

void add_bfs(WorkloadRegistry& reg, const char* name, const char* description, double ratio,
             int kernels, BfsVariant variant, GraphKind kind) {
    add_graph_workload(reg, info(name, description, ratio, kernels, {kRootOption.with_default(kPeripheralRoot)}),
                       kind, [=](WorkloadContext& ctx, GpuRun& run, const CsrGraph& g) {
                           run_bfs(variant, run, g, traversal_root(ctx, g, [&] { return peripheral_root(g); }));
                       });
}

using ColoringVariant = ColoringResult (*)(GpuRun&, const CsrGraph&);

void add_coloring(WorkloadRegistry& reg, const char* name, const char* description, double ratio, int kernels,
                  ColoringVariant variant) {
    add_graph_workload(reg, info(name, description, ratio, kernels), GraphKind::Kronecker,
                       [=](WorkloadContext&, GpuRun& run, const CsrGraph& g) { variant(run, g); });
}

}  // namespace

void register_graph_workloads(WorkloadRegistry& reg) {
    add_graph_workload(
        reg,
        info("betw", "betweenness centrality from one root (betweenness.cu): init, forward and "
                     "backward levels, back-sum; Kronecker input",
             0.98, 11,
             {kRootOption.with_default("a high-degree vertex whose BFS depth is 4, so that the run has Table II's "
                                       "11 launches (GraphBIG's GPU betweenness has no root option)")}),
        GraphKind::Kronecker, [](WorkloadContext& ctx, GpuRun& run, const CsrGraph& g) {
            run_betweenness(run, g, traversal_root(ctx, g, [&] { return central_root(g, kBetweennessDepth); }));
        });
    add_bfs(reg, "bfs1", "BFS, data-driven warp-centric worklist (bfs_data_warp_centric.cu); Kronecker input",
            0.95, 7, BfsVariant::DataWarpCentric, GraphKind::Kronecker);
    add_bfs(reg, "bfs2", "BFS, topology-driven atomicMin relaxation (bfs_topo_atomic.cu); mesh input",
            0.99, 9, BfsVariant::TopoAtomic, GraphKind::Mesh);
    add_bfs(reg, "bfs3", "BFS, frontier flag arrays, two kernels a level (bfs_topo_frontier.cu); Kronecker input",
            0.88, 10, BfsVariant::TopoFrontier, GraphKind::Kronecker);
    add_bfs(reg, "bfs4", "BFS, level-synchronous thread-centric (bfs_topo_thread_centric.cu); mesh input",
            0.97, 12, BfsVariant::TopoThreadCentric, GraphKind::Mesh);
    add_bfs(reg, "bfs5", "BFS, atomicMin with a shared-memory queue per thread (bfs_topo_unroll.cu); mesh input",
            0.99, 6, BfsVariant::TopoUnroll, GraphKind::Mesh);
    add_bfs(reg, "bfs6", "BFS, level-synchronous warp-centric (bfs_topo_warp_centric.cu); Kronecker input",
            0.97, 7, BfsVariant::TopoWarpCentric, GraphKind::Kronecker);
    add_coloring(reg, "gc1", "graph colouring, topology-driven warp-centric (gc_topo_warp_centric.cu); Kronecker input",
                 0.98, 8, run_gc_topo_warp_centric);
    add_coloring(reg, "gc2", "graph colouring, topology-driven thread-centric (gc_topo_thread_centric.cu); Kronecker input",
                 0.99, 10, run_gc_topo_thread_centric);
    add_graph_workload(
        reg,
        info("sssp3", "SSSP, data-driven thread-centric worklist, unit weights (sssp_data_thread_centric.cu); "
                      "Kronecker input",
             0.98, 8, {kRootOption.with_default("the highest-degree vertex (GraphBIG's default is vertex 0)")}),
        GraphKind::Kronecker, [](WorkloadContext& ctx, GpuRun& run, const CsrGraph& g) {
            run_sssp_data_thread_centric(run, g, traversal_root(ctx, g, [&] { return hub_root(g); }));
        });
    add_graph_workload(
        reg,
        info("deg", "degree centrality, atomicAdd per edge (degree_centr.cu); the Table II profile leaves out "
                    "the zeroing init kernel; Kronecker input",
             1.0, 1),
        GraphKind::Kronecker, [](WorkloadContext&, GpuRun& run, const CsrGraph& g) { run_degree_centrality(run, g); },
        /*profile_skips_init=*/true);
    // PageRank's launch cap follows its --maxiter (1 + 2 x 26 = 53 by default), so it
    // builds its own run.
    reg.add(info("pr", "push-style PageRank in GraphBIG's GPU style: init, then 26 x (atomicAdd push, copy); "
                       "Kronecker input",
                 0.99, 53, {kMaxIterOption}),
            [](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), GraphKind::Kronecker);
                const int iterations =
                    static_cast<int>(ctx.options().program_value("maxiter").value_or(kPageRankIterations));
                GpuRun run(&ctx, 1 + 2 * iterations);
                run_pagerank(run, g, iterations);
            },
            kGeneratorVersion);
}

}  // namespace zng::workloads
