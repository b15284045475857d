// bfs4: bfs_topo_thread_centric.cu. Level-synchronous: each launch, every thread
// whose vertex sits on the current level scans its edges and labels unvisited
// neighbours; the host loops while a kernel raised `changed`.
#include "traces/workloads/graph/bfs_kernels.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x41, kKernel = 0x42;
constexpr uint64_t kPcInitStore = kernel_pc(kInit, 1);
constexpr uint64_t kPcOwnLevel = kernel_pc(kKernel, 1);     // vplist[tid]
constexpr uint64_t kPcFirstEdge = kernel_pc(kKernel, 2);    // vlist[tid]
constexpr uint64_t kPcEdgeEnd = kernel_pc(kKernel, 3);      // vlist[tid+1]
constexpr uint64_t kPcEdgeDest = kernel_pc(kKernel, 4);     // elist[i]
constexpr uint64_t kPcNbrLevel = kernel_pc(kKernel, 5);     // vplist[vid]
constexpr uint64_t kPcChanged = kernel_pc(kKernel, 6);      // *changed = true
constexpr uint64_t kPcNbrStore = kernel_pc(kKernel, 7);     // vplist[vid] = curr+1
}  // namespace

BfsResult run_bfs_topo_thread_centric(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    const LevelArrays a = LevelArrays::allocate(run, g);
    BfsResult r = init_levels(run.launcher, "bfs_topo_thread_centric::initialize", kPcInitStore, a.vpl, root);

    const LaunchShape shape = one_thread_per_item(n);
    repeat_while_changed(r.iterations, [&](uint32_t curr, bool& changed) {
        return run.launcher.launch(
            KernelDesc{"bfs_topo_thread_centric::kernel"}, shape,
            [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid;
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                const uint32_t frontier =
                    load_and_test(w, kPcOwnLevel, m, a.vpl, tid, [&](uint64_t v) { return r.level[v] == curr; });
                if (frontier == 0) return;
                Lanes<uint64_t> begin, end, vid;
                a.dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, frontier, tid, begin, end);
                thread_edge_loop(w, frontier, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    a.dg.load_edge_dest(w, kPcEdgeDest, live, i, vid);
                    const uint32_t fresh = load_and_test(w, kPcNbrLevel, live, a.vpl, vid,
                                                         [&](uint64_t v) { return r.level[v] == kMyInfinity; });
                    w.store_one(kPcChanged, fresh, a.over, 0);
                    w.compute(1);
                    w.store(kPcNbrStore, fresh, a.vpl, vid);
                    for_each_lane(fresh, [&](int l) { r.level[vid[l]] = curr + 1; });
                    if (fresh) changed = true;
                    return 0u;
                });
            });
    });
    return r;
}

}  // namespace zng::workloads::graph
