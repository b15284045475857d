#include "traces/workloads/graph/degree_centrality.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x91, kKernel = 0x92;
constexpr uint64_t kPcInit = kernel_pc(kInit, 1);
constexpr uint64_t kPcFirstEdge = kernel_pc(kKernel, 1);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kKernel, 2);
constexpr uint64_t kPcEdgeDest = kernel_pc(kKernel, 3);
constexpr uint64_t kPcAtomicAdd = kernel_pc(kKernel, 4);
}  // namespace

DegreeResult run_degree_centrality(GpuRun& run, const CsrGraph& g) {
    const uint64_t n = g.vertex_count();
    const DeviceArray vpl = run.memory.alloc("vproplist", 4, n);
    const DeviceGraph dg = DeviceGraph::allocate(run.memory, g);
    const LaunchShape shape = one_thread_per_item(n);

    DegreeResult r;
    r.degree.assign(n, 0);
    init_kernel(run.launcher, "degree_centr::initialize", n, {{kPcInit, &vpl}});
    r.ran = run.launcher.launch(KernelDesc{"degree_centr::kernel"}, shape, [&](WarpOps& w, const WarpThreads& t) {
        Lanes<uint64_t> tid, begin, end, dest;
        const uint32_t m = thread_ids(t, n, tid);
        w.compute(kTidCompute);
        if (m == 0) return;
        dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, m, tid, begin, end);
        thread_edge_loop(w, m, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
            dg.load_edge_dest(w, kPcEdgeDest, live, i, dest);
            w.compute(1);
            w.atomic(kPcAtomicAdd, live, vpl, dest);
            for_each_lane(live, [&](int l) { ++r.degree[dest[l]]; });
            return 0u;
        });
    });
    return r;
}

}  // namespace zng::workloads::graph
