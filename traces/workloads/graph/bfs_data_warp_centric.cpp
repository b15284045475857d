// bfs1: bfs_data_warp_centric.cu. Data-driven: the frontier is a worklist; warp w
// takes items [32w, 32w+32), its lanes splitting each item's edges. Newly labelled
// vertices go to a per-thread local buffer, flushed to the out-worklist by pushRange
// (atomicAdd on the end counter, then a copy loop) when full and at the end.
#include "traces/workloads/graph/bfs_kernels.hpp"
#include "traces/workloads/graph/device_worklist.hpp"

#include <algorithm>
#include <memory>

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x11, kKernel = 0x12;
constexpr uint64_t kWorklistSize = 16777216;   // WORKLIST_SIZE
constexpr uint64_t kPcInitStore = kernel_pc(kInit, 1);
constexpr uint64_t kPcItemNum = kernel_pc(kKernel, 1);      // *inworklist.end
constexpr uint64_t kPcItem = kernel_pc(kKernel, 2);         // item_array[id]
constexpr uint64_t kPcFirstEdge = kernel_pc(kKernel, 3);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kKernel, 4);
constexpr uint64_t kPcEdgeDest = kernel_pc(kKernel, 5);
constexpr uint64_t kPcNbrLevel = kernel_pc(kKernel, 6);
constexpr uint64_t kPcNbrStore = kernel_pc(kKernel, 7);
constexpr uint64_t kPcLocalPush = kernel_pc(kKernel, 8);    // local_worklist[work_size] = vid
constexpr WorklistPcs kFullPush{kernel_pc(kKernel, 9), kernel_pc(kKernel, 10), kernel_pc(kKernel, 11)};
constexpr WorklistPcs kFinalPush{kernel_pc(kKernel, 12), kernel_pc(kKernel, 13), kernel_pc(kKernel, 14)};
}  // namespace

BfsResult run_bfs_data_warp_centric(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    const DeviceArray vpl = run.memory.alloc("vproplist", 4, n);
    run.memory.alloc("over", 1, 1);   // allocated by the host code, never used
    DeviceWorklist wl1(run.memory, "worklist1", kWorklistSize);
    DeviceWorklist wl2(run.memory, "worklist2", kWorklistSize);
    const DeviceGraph dg = DeviceGraph::allocate(run.memory, g);

    BfsResult r = init_levels(run.launcher, "bfs_data_warp_centric::initialize", kPcInitStore, vpl, root);
    DeviceWorklist* in = &wl1;
    DeviceWorklist* out = &wl2;
    in->host_push(root);

    auto local = std::make_unique<LocalWorklists>();
    uint32_t curr = 0;
    uint32_t wl_size = 1;
    while (wl_size != 0) {
        // Grid as the host code sizes it: one thread per item, rounded up to whole
        // chunks of 32 blocks.
        LaunchShape shape = one_thread_per_item(wl_size);
        shape.blocks = (shape.blocks + kLanes - 1) / kLanes * kLanes;
        const bool ran = run.launcher.launch(
            KernelDesc{"bfs_data_warp_centric::kernel"}, shape,
            [&](WarpOps& w, const WarpThreads& t) {
                const WarpChunk c = warp_chunk(w, t, in->size());
                Lanes<uint64_t> v{}, begin{}, end{}, num{}, vid{};
                Lanes<uint32_t> work{};
                w.load_one(kPcItemNum, t.live, in->end_counter(), 0);
                w.compute(kTestCompute);
                if (c.active == 0) return;
                for_each_chunk_item(w, c, [&](uint32_t m, const Lanes<uint64_t>& slot) {
                    for_each_lane(m, [&](int l) { v[l] = in->item(slot[l]); });
                    w.load(kPcItem, m, in->items(), slot);
                    dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, m, v, begin, end);
                    for_each_lane(m, [&](int l) { num[l] = end[l] - begin[l]; });
                    w.compute(1);
                    warp_edge_loop(w, m, c.lane_id, begin, num, [&](uint32_t live, const Lanes<uint64_t>& e) {
                        dg.load_edge_dest(w, kPcEdgeDest, live, e, vid);
                        const uint32_t fresh = load_and_test(w, kPcNbrLevel, live, vpl, vid,
                                                             [&](uint64_t u) { return r.level[u] == kMyInfinity; });
                        w.compute(1);
                        w.store(kPcNbrStore, fresh, vpl, vid);
                        for_each_lane(fresh, [&](int l) { r.level[vid[l]] = curr + 1; });
                        out->push_local(w, kPcLocalPush, kFullPush, fresh, vid, *local, work);
                        return 0u;
                    });
                });
                out->push_range(w, kFinalPush, c.active, *local, work);
            });
        if (!ran) break;
        ++r.iterations;
        std::swap(in, out);
        wl_size = in->size();
        out->clear();
        ++curr;
    }
    return r;
}

}  // namespace zng::workloads::graph
