// GraphBIG's GPU BFS variants (gpu_bench/gpu_BFS), run in the thread/warp structure of
// their CUDA kernels. The paper's bfs1..bfs6 are these six, in alphabetical order.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/gpu_run.hpp"

namespace zng::workloads::graph {

enum class BfsVariant {
    DataWarpCentric,     // bfs1: worklist, one warp per 32 frontier vertices, one edge per lane
    TopoAtomic,          // bfs2: every vertex relaxes its edges with atomicMin until stable
    TopoFrontier,        // bfs3: frontier / updating / visited flag arrays, two kernels a level
    TopoThreadCentric,   // bfs4: one vertex per thread, level-synchronous
    TopoUnroll,          // bfs5: atomicMin relaxation with a per-thread shared-memory queue
    TopoWarpCentric,     // bfs6: one warp per 32 vertices, one edge per lane
};

struct BfsResult {
    std::vector<uint32_t> level;   // kMyInfinity where not reached
    int iterations = 0;            // host loop trips that launched
};

// Runs the variant from `root` (allocating its arrays in the host code's cudaMalloc
// order, then launching). Stops early when the launcher's cap is reached.
BfsResult run_bfs(BfsVariant variant, GpuRun& run, const CsrGraph& g, uint64_t root);

BfsResult run_bfs_data_warp_centric(GpuRun& run, const CsrGraph& g, uint64_t root);
BfsResult run_bfs_topo_atomic(GpuRun& run, const CsrGraph& g, uint64_t root);
BfsResult run_bfs_topo_frontier(GpuRun& run, const CsrGraph& g, uint64_t root);
BfsResult run_bfs_topo_thread_centric(GpuRun& run, const CsrGraph& g, uint64_t root);
BfsResult run_bfs_topo_unroll(GpuRun& run, const CsrGraph& g, uint64_t root);
BfsResult run_bfs_topo_warp_centric(GpuRun& run, const CsrGraph& g, uint64_t root);

}  // namespace zng::workloads::graph
