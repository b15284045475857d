#include "traces/workloads/graph/bfs.hpp"

#include <stdexcept>

namespace zng::workloads::graph {

BfsResult run_bfs(BfsVariant variant, GpuRun& run, const CsrGraph& g, uint64_t root) {
    if (root >= g.vertex_count())
        throw std::invalid_argument("bfs: root " + std::to_string(root) + " is not one of the " +
                                    std::to_string(g.vertex_count()) + " vertices");
    switch (variant) {
        case BfsVariant::DataWarpCentric: return run_bfs_data_warp_centric(run, g, root);
        case BfsVariant::TopoAtomic: return run_bfs_topo_atomic(run, g, root);
        case BfsVariant::TopoFrontier: return run_bfs_topo_frontier(run, g, root);
        case BfsVariant::TopoThreadCentric: return run_bfs_topo_thread_centric(run, g, root);
        case BfsVariant::TopoUnroll: return run_bfs_topo_unroll(run, g, root);
        case BfsVariant::TopoWarpCentric: return run_bfs_topo_warp_centric(run, g, root);
    }
    throw std::invalid_argument("bfs: unknown variant");
}

}  // namespace zng::workloads::graph
