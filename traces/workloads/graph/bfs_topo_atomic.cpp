// bfs2: bfs_topo_atomic.cu. Topology-driven relaxation: every launch, every thread
// relaxes all edges of its vertex with atomicMin (no frontier test), until no
// launch lowers a level.
#include "traces/workloads/graph/bfs_kernels.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x21, kKernel = 0x22;
constexpr uint64_t kPcInitStore = kernel_pc(kInit, 1);
constexpr uint64_t kPcFirstEdge = kernel_pc(kKernel, 1);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kKernel, 2);
constexpr uint64_t kPcEdgeDest = kernel_pc(kKernel, 3);
// vplist[vid] + 1, vplist[dest], atomicMin(&vplist[dest], newlevel)
constexpr RelaxPcs kRelax{kernel_pc(kKernel, 4), kernel_pc(kKernel, 5), kernel_pc(kKernel, 6)};
constexpr uint64_t kPcChanged = kernel_pc(kKernel, 7);      // *changed = true
}  // namespace

BfsResult run_bfs_topo_atomic(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    const LevelArrays a = LevelArrays::allocate(run, g);
    BfsResult r = init_levels(run.launcher, "bfs_topo_atomic::initialize", kPcInitStore, a.vpl, root);

    const LaunchShape shape = one_thread_per_item(n);
    repeat_while_changed(r.iterations, [&](uint32_t, bool& changed) {
        return run.launcher.launch(
            KernelDesc{"bfs_topo_atomic::kernel"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, begin, end, dest;
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                if (m == 0) return;
                a.dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, m, tid, begin, end);
                uint32_t improved = 0;   // processnode() returned true
                thread_edge_loop(w, m, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    a.dg.load_edge_dest(w, kPcEdgeDest, live, i, dest);
                    improved |= relax_edge(w, kRelax, live, a.vpl, tid, dest, r.level).lowered;
                    return 0u;
                });
                w.compute(kTestCompute);
                w.store_one(kPcChanged, improved, a.over, 0);
                if (improved) changed = true;
            });
    });
    return r;
}

}  // namespace zng::workloads::graph
