// The GraphBIG rows of the paper's Table II: names, Table II figures, inputs and roots.
#include "traces/workloads/graph/graph_workloads.hpp"

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

WorkloadInfo info(const char* name, const char* description, double ratio, int kernels) {
    return WorkloadInfo{name, "GraphBIG", description, ratio, kernels};
}

void add_bfs(WorkloadRegistry& reg, const char* name, const char* description, double ratio,
             int kernels, BfsVariant variant, GraphKind kind) {
    reg.add(info(name, description, ratio, kernels),
            [=](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), kind);
                const uint64_t root = peripheral_root(g);
                GpuRun run(&ctx, kernels);
                run_bfs(variant, run, g, root);
            },
            kGeneratorVersion);
}

}  // namespace

void register_graph_workloads(WorkloadRegistry& reg) {
    reg.add(info("betw", "betweenness centrality from one root (betweenness.cu): init, forward and "
                         "backward levels, back-sum; Kronecker input",
                 0.98, 11),
            [](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), GraphKind::Kronecker);
                GpuRun run(&ctx, 11);
                run_betweenness(run, g, central_root(g, kBetweennessDepth));
            },
            kGeneratorVersion);
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
    reg.add(info("gc1", "graph colouring, topology-driven warp-centric (gc_topo_warp_centric.cu); Kronecker input",
                 0.98, 8),
            [](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), GraphKind::Kronecker);
                GpuRun run(&ctx, 8);
                run_gc_topo_warp_centric(run, g);
            },
            kGeneratorVersion);
    reg.add(info("gc2", "graph colouring, topology-driven thread-centric (gc_topo_thread_centric.cu); Kronecker input",
                 0.99, 10),
            [](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), GraphKind::Kronecker);
                GpuRun run(&ctx, 10);
                run_gc_topo_thread_centric(run, g);
            },
            kGeneratorVersion);
    reg.add(info("sssp3", "SSSP, data-driven thread-centric worklist, unit weights (sssp_data_thread_centric.cu); "
                          "Kronecker input",
                 0.98, 8),
            [](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), GraphKind::Kronecker);
                GpuRun run(&ctx, 8);
                run_sssp_data_thread_centric(run, g, hub_root(g));
            },
            kGeneratorVersion);
    reg.add(info("deg", "degree centrality, atomicAdd per edge (degree_centr.cu); the Table II profile leaves out "
                        "the zeroing init kernel; Kronecker input",
                 1.0, 1),
            [](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), GraphKind::Kronecker);
                GpuRun run(&ctx, 1, /*profile_skips_init=*/true);
                run_degree_centrality(run, g);
            },
            kGeneratorVersion);
    reg.add(info("pr", "push-style PageRank in GraphBIG's GPU style: init, then 26 x (atomicAdd push, copy); "
                       "Kronecker input",
                 0.99, 53),
            [](WorkloadContext& ctx) {
                const CsrGraph g = workload_graph(ctx.options(), GraphKind::Kronecker);
                GpuRun run(&ctx, 53);
                run_pagerank(run, g, kPageRankIterations);
            },
            kGeneratorVersion);
}

}  // namespace zng::workloads
