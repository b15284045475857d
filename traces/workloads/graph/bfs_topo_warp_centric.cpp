// bfs6: bfs_topo_warp_centric.cu. Level-synchronous; warp w owns vertices
// [32w, 32w+32) and walks them one by one, its lanes splitting each frontier
// vertex's edges (lane i takes edges i, i+32, ...).
#include "traces/workloads/graph/bfs_kernels.hpp"

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
    const LevelArrays a = LevelArrays::allocate(run, g);
    BfsResult r = init_levels(run.launcher, "bfs_topo_warp_centric::initialize", kPcInitStore, a.vpl, root);

    // num_block_chunked = ceil(num_block / CHUNK_SZ) * WARP_SZ blocks of the usual size.
    LaunchShape shape = one_thread_per_item(n);
    shape.blocks = (shape.blocks + kLanes - 1) / kLanes * kLanes;

    repeat_while_changed(r.iterations, [&](uint32_t curr, bool& changed) {
        return run.launcher.launch(
            KernelDesc{"bfs_topo_warp_centric::kernel"}, shape,
            [&](WarpOps& w, const WarpThreads& t) {
                const WarpChunk c = warp_chunk(w, t, n);
                Lanes<uint64_t> begin{}, end{}, num{}, vid{};
                for_each_chunk_item(w, c, [&](uint32_t m, const Lanes<uint64_t>& v) {
                    const uint32_t hit =
                        load_and_test(w, kPcOwnLevel, m, a.vpl, v, [&](uint64_t u) { return r.level[u] == curr; });
                    if (hit == 0) return;
                    a.dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, hit, v, begin, end);
                    for_each_lane(hit, [&](int l) { num[l] = end[l] - begin[l]; });
                    w.compute(1);
                    warp_edge_loop(w, hit, c.lane_id, begin, num, [&](uint32_t live, const Lanes<uint64_t>& e) {
                        a.dg.load_edge_dest(w, kPcEdgeDest, live, e, vid);
                        const uint32_t fresh = load_and_test(w, kPcNbrLevel, live, a.vpl, vid,
                                                             [&](uint64_t u) { return r.level[u] == kMyInfinity; });
                        w.compute(1);
                        w.store(kPcNbrStore, fresh, a.vpl, vid);
                        w.store_one(kPcChanged, fresh, a.over, 0);
                        for_each_lane(fresh, [&](int l) { r.level[vid[l]] = curr + 1; });
                        if (fresh) changed = true;
                        return 0u;
                    });
                });
            });
    });
    return r;
}

}  // namespace zng::workloads::graph
