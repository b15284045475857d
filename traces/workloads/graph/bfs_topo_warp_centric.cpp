// bfs6: bfs_topo_warp_centric.cu. Level-synchronous; warp w owns vertices
// [32w, 32w+32) and walks them one by one, its lanes splitting each frontier
// vertex's edges (lane i takes edges i, i+32, ...).
#include "traces/workloads/graph/bfs.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x61, kKernel = 0x62;
constexpr uint64_t kPcInitStore = kernel_pc(kInit, 1);
constexpr uint64_t kPcOwnLevel = kernel_pc(kKernel, 1);     // vplist[v]
constexpr uint64_t kPcFirstEdge = kernel_pc(kKernel, 2);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kKernel, 3);
constexpr uint64_t kPcEdgeDest = kernel_pc(kKernel, 4);
constexpr uint64_t kPcNbrLevel = kernel_pc(kKernel, 5);
constexpr uint64_t kPcNbrStore = kernel_pc(kKernel, 6);     // vplist[vid] = curr+1
constexpr uint64_t kPcChanged = kernel_pc(kKernel, 7);      // *changed = true
}  // namespace

BfsResult run_bfs_topo_warp_centric(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    const DeviceArray vpl = run.memory.alloc("vproplist", 4, n);
    const DeviceArray over = run.memory.alloc("over", 1, 1);
    const DeviceGraph dg = DeviceGraph::allocate(run.memory, g);

    BfsResult r;
    r.level.assign(n, kMyInfinity);
    init_kernel(run.launcher, "bfs_topo_warp_centric::initialize", n, {{kPcInitStore, &vpl}});
    r.level[root] = 0;

    // num_block_chunked = ceil(num_block / CHUNK_SZ) * WARP_SZ blocks of the usual size.
    LaunchShape shape = one_thread_per_item(n);
    shape.blocks = (shape.blocks + kLanes - 1) / kLanes * kLanes;

    uint32_t curr = 0;
    bool changed = false;
    do {
        changed = false;
        const bool ran = run.launcher.launch(
            KernelDesc{"bfs_topo_warp_centric::kernel"}, shape,
            [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> lane_id{}, first{}, chunk{}, v{}, begin{}, end{}, num{}, vid{};
                uint32_t act = 0;
                for_each_lane(t.live, [&](int l) {
                    const uint64_t tid = t.tid(l);
                    lane_id[l] = tid % kLanes;
                    first[l] = tid / kLanes * kLanes;
                    if (first[l] < n) {
                        act |= 1u << l;
                        chunk[l] = first[l] + kLanes > n ? n - first[l] : kLanes;
                    }
                });
                w.compute(kTidCompute + 3);
                for (uint64_t k = 0;; ++k) {
                    const uint32_t m = lanes_where(act, [&](int l) { return k < chunk[l]; });
                    w.compute(kLoopCompute);
                    if (m == 0) break;
                    for_each_lane(m, [&](int l) { v[l] = first[l] + k; });
                    w.load(kPcOwnLevel, m, vpl, v);
                    const uint32_t hit = lanes_where(m, [&](int l) { return r.level[v[l]] == curr; });
                    w.compute(kTestCompute);
                    if (hit == 0) continue;
                    dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, hit, v, begin, end);
                    for_each_lane(hit, [&](int l) { num[l] = end[l] - begin[l]; });
                    w.compute(1);
                    warp_edge_loop(w, hit, lane_id, begin, num, [&](uint32_t live, const Lanes<uint64_t>& e) {
                        dg.load_edge_dest(w, kPcEdgeDest, live, e, vid);
                        w.load(kPcNbrLevel, live, vpl, vid);
                        const uint32_t fresh =
                            lanes_where(live, [&](int l) { return r.level[vid[l]] == kMyInfinity; });
                        w.compute(kTestCompute + 1);
                        w.store(kPcNbrStore, fresh, vpl, vid);
                        w.store_one(kPcChanged, fresh, over, 0);
                        for_each_lane(fresh, [&](int l) { r.level[vid[l]] = curr + 1; });
                        if (fresh) changed = true;
                        return 0u;
                    });
                }
            });
        if (!ran) break;
        ++r.iterations;
        ++curr;
    } while (changed);
    return r;
}

}  // namespace zng::workloads::graph
