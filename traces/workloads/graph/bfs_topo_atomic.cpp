// bfs2: bfs_topo_atomic.cu. Topology-driven relaxation: every launch, every thread
// relaxes all edges of its vertex with atomicMin (no frontier test), until no
// launch lowers a level.
#include "traces/workloads/graph/bfs.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x21, kKernel = 0x22;
constexpr uint64_t kPcInitStore = kernel_pc(kInit, 1);
constexpr uint64_t kPcFirstEdge = kernel_pc(kKernel, 1);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kKernel, 2);
constexpr uint64_t kPcEdgeDest = kernel_pc(kKernel, 3);
constexpr uint64_t kPcOwnLevel = kernel_pc(kKernel, 4);     // vplist[vid] + 1
constexpr uint64_t kPcNbrLevel = kernel_pc(kKernel, 5);     // vplist[dest]
constexpr uint64_t kPcAtomicMin = kernel_pc(kKernel, 6);    // atomicMin(&vplist[dest], newlevel)
constexpr uint64_t kPcChanged = kernel_pc(kKernel, 7);      // *changed = true
}  // namespace

BfsResult run_bfs_topo_atomic(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    const DeviceArray vpl = run.memory.alloc("vproplist", 4, n);
    const DeviceArray over = run.memory.alloc("over", 1, 1);
    const DeviceGraph dg = DeviceGraph::allocate(run.memory, g);

    BfsResult r;
    r.level.assign(n, kMyInfinity);
    init_kernel(run.launcher, "bfs_topo_atomic::initialize", n, {{kPcInitStore, &vpl}});
    r.level[root] = 0;

    const LaunchShape shape = one_thread_per_item(n);
    bool changed = false;
    do {
        changed = false;
        const bool ran = run.launcher.launch(
            KernelDesc{"bfs_topo_atomic::kernel"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, begin, end, dest;
                Lanes<uint32_t> newlevel{};
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                if (m == 0) return;
                dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, m, tid, begin, end);
                uint32_t improved = 0;   // processnode() returned true
                thread_edge_loop(w, m, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    dg.load_edge_dest(w, kPcEdgeDest, live, i, dest);
                    w.load(kPcOwnLevel, live, vpl, tid);
                    for_each_lane(live, [&](int l) { newlevel[l] = r.level[tid[l]] + 1; });
                    w.load(kPcNbrLevel, live, vpl, dest);
                    const uint32_t lower =
                        lanes_where(live, [&](int l) { return newlevel[l] < r.level[dest[l]]; });
                    w.compute(kTestCompute + 1);
                    w.atomic(kPcAtomicMin, lower, vpl, dest);
                    for_each_lane(lower, [&](int l) {   // lanes served in order
                        const uint32_t old = r.level[dest[l]];
                        if (newlevel[l] < old) {
                            r.level[dest[l]] = newlevel[l];
                            improved |= 1u << l;
                        }
                    });
                    return 0u;
                });
                w.compute(kTestCompute);
                w.store_one(kPcChanged, improved, over, 0);
                if (improved) changed = true;
            });
        if (!ran) break;
        ++r.iterations;
    } while (changed);
    return r;
}

}  // namespace zng::workloads::graph
