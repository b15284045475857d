#include <memory>

#include "traces/workloads/graph/device_worklist.hpp"
#include "traces/workloads/graph/sssp.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x81, kRelax = 0x82, kApply = 0x83;
constexpr uint64_t kWorklistSize = 8777216;   // WORKLIST_SIZE of the SSSP benchmark
constexpr uint64_t kPcInitDist = kernel_pc(kInit, 1);
constexpr uint64_t kPcInitUpdate = kernel_pc(kInit, 2);
constexpr uint64_t kPcItemNum = kernel_pc(kRelax, 1);
constexpr uint64_t kPcItem = kernel_pc(kRelax, 2);
constexpr uint64_t kPcFirstEdge = kernel_pc(kRelax, 3);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kRelax, 4);
constexpr uint64_t kPcCost = kernel_pc(kRelax, 5);          // vplist[v]
constexpr uint64_t kPcEdgeDest = kernel_pc(kRelax, 6);
constexpr uint64_t kPcWeight = kernel_pc(kRelax, 7);        // eplist[i]
constexpr uint64_t kPcUpdate = kernel_pc(kRelax, 8);        // update[vid]
constexpr uint64_t kPcAtomicMin = kernel_pc(kRelax, 9);
constexpr uint64_t kPcLocalPush = kernel_pc(kRelax, 10);
constexpr WorklistPcs kFullPush{kernel_pc(kRelax, 11), kernel_pc(kRelax, 12), kernel_pc(kRelax, 13)};
constexpr WorklistPcs kFinalPush{kernel_pc(kRelax, 14), kernel_pc(kRelax, 15), kernel_pc(kRelax, 16)};
constexpr uint64_t kPcApplyNum = kernel_pc(kApply, 1);
constexpr uint64_t kPcApplyItem = kernel_pc(kApply, 2);
constexpr uint64_t kPcApplyDist = kernel_pc(kApply, 3);
constexpr uint64_t kPcApplyUpdate = kernel_pc(kApply, 4);
constexpr uint64_t kPcApplyStore = kernel_pc(kApply, 5);
}  // namespace

SsspResult run_sssp_data_thread_centric(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    const DeviceArray vpl = run.memory.alloc("vproplist", 4, n);
    const DeviceArray update = run.memory.alloc("update", 4, n);
    const DeviceArray epl = run.memory.alloc("eproplist", 4, g.edge_count());
    run.memory.alloc("over", 1, 1);   // allocated by the host code, never used
    DeviceWorklist wl1(run.memory, "worklist1", kWorklistSize);
    DeviceWorklist wl2(run.memory, "worklist2", kWorklistSize);
    const DeviceGraph dg = DeviceGraph::allocate(run.memory, g);
    constexpr uint32_t kWeight = 1;   // unit weights: distances are BFS levels

    SsspResult r;
    r.distance.assign(n, kMyInfinity);
    std::vector<uint32_t> upd(n, kMyInfinity);
    init_kernel(run.launcher, "sssp_data_thread_centric::initialize", n,
                {{kPcInitDist, &vpl}, {kPcInitUpdate, &update}});
    DeviceWorklist* in = &wl1;
    DeviceWorklist* out = &wl2;
    in->host_push(root);
    r.distance[root] = 0;

    auto local = std::make_unique<LocalWorklists>();
    LaunchShape shape{1, 1};   // the first launch is a single thread
    uint32_t wl_size = 1;
    while (wl_size != 0) {
        bool ran = run.launcher.launch(
            KernelDesc{"sssp_data_thread_centric::kernel"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, v, begin, end, vid;
                Lanes<uint32_t> cost{}, work{}, nd{};
                const uint32_t m = in->thread_items(w, kPcItemNum, kPcItem, t, tid, v);
                if (m == 0) return;
                dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, m, v, begin, end);
                w.load(kPcCost, m, vpl, v);
                for_each_lane(m, [&](int l) { cost[l] = r.distance[v[l]]; });
                thread_edge_loop(w, m, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    dg.load_edge_dest(w, kPcEdgeDest, live, i, vid);
                    w.load(kPcWeight, live, epl, i);
                    for_each_lane(live, [&](int l) { nd[l] = cost[l] + kWeight; });
                    w.load(kPcUpdate, live, update, vid);
                    const uint32_t lower = lanes_where(live, [&](int l) { return upd[vid[l]] > nd[l]; });
                    w.compute(kTestCompute + 1);
                    w.atomic(kPcAtomicMin, lower, update, vid);
                    uint32_t pushed = 0;
                    for_each_lane(lower, [&](int l) {   // atomicMin returns the old value
                        if (upd[vid[l]] > nd[l]) {
                            upd[vid[l]] = nd[l];
                            pushed |= 1u << l;
                        }
                    });
                    w.compute(kTestCompute);
                    out->push_local(w, kPcLocalPush, kFullPush, pushed, vid, *local, work);
                    return 0u;
                });
                out->push_range(w, kFinalPush, m, *local, work);
            });
        if (!ran) break;
        ++r.iterations;
        std::swap(in, out);
        wl_size = in->size();
        out->clear();
        // With an empty worklist the host's grid computation yields 0 threads per block,
        // an invalid launch that does not run: kernel2 only runs for a non-empty list.
        if (wl_size == 0) break;
        shape = one_thread_per_item(wl_size);
        ran = run.launcher.launch(
            KernelDesc{"sssp_data_thread_centric::kernel2"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, v;
                const uint32_t m = in->thread_items(w, kPcApplyNum, kPcApplyItem, t, tid, v);
                if (m == 0) return;
                w.load(kPcApplyDist, m, vpl, v);
                w.load(kPcApplyUpdate, m, update, v);
                const uint32_t lower = lanes_where(m, [&](int l) { return r.distance[v[l]] > upd[v[l]]; });
                w.compute(kTestCompute);
                w.store(kPcApplyStore, lower, vpl, v);
                for_each_lane(lower, [&](int l) { r.distance[v[l]] = upd[v[l]]; });
            });
        if (!ran) break;
    }
    return r;
}

}  // namespace zng::workloads::graph
