// bfs3: bfs_topo_frontier.cu (Harish & Narayanan). Two kernels per level over 1-byte
// flag arrays: kernel 1 expands the frontier into `updating`, kernel 2 turns
// `updating` into the next frontier and marks it visited.
#include "traces/workloads/graph/bfs.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x31, kExpand = 0x32, kAdvance = 0x33;
constexpr uint64_t kPcInitFrontier = kernel_pc(kInit, 1);
constexpr uint64_t kPcInitUpdating = kernel_pc(kInit, 2);
constexpr uint64_t kPcInitVisited = kernel_pc(kInit, 3);
constexpr uint64_t kPcInitLevel = kernel_pc(kInit, 4);
constexpr uint64_t kPcInFrontier = kernel_pc(kExpand, 1);   // frontier[tid]
constexpr uint64_t kPcClearFrontier = kernel_pc(kExpand, 2);
constexpr uint64_t kPcFirstEdge = kernel_pc(kExpand, 3);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kExpand, 4);
constexpr uint64_t kPcEdgeDest = kernel_pc(kExpand, 5);
constexpr uint64_t kPcVisited = kernel_pc(kExpand, 6);      // visited[vid]
constexpr uint64_t kPcOwnLevel = kernel_pc(kExpand, 7);     // vpl[tid]
constexpr uint64_t kPcNbrStore = kernel_pc(kExpand, 8);     // vpl[vid] = vpl[tid] + 1
constexpr uint64_t kPcMarkUpdating = kernel_pc(kExpand, 9);
constexpr uint64_t kPcUpdating = kernel_pc(kAdvance, 1);    // updating[tid]
constexpr uint64_t kPcSetFrontier = kernel_pc(kAdvance, 2);
constexpr uint64_t kPcSetVisited = kernel_pc(kAdvance, 3);
constexpr uint64_t kPcClearUpdating = kernel_pc(kAdvance, 4);
constexpr uint64_t kPcOver = kernel_pc(kAdvance, 5);
}  // namespace

BfsResult run_bfs_topo_frontier(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    const DeviceArray vpl = run.memory.alloc("vproplist", 4, n);
    const DeviceArray frontier = run.memory.alloc("graph_frontier", 1, n);
    const DeviceArray updating = run.memory.alloc("updating_graph_frontier", 1, n);
    const DeviceArray visited = run.memory.alloc("graph_visited", 1, n);
    const DeviceArray over = run.memory.alloc("over", 1, 1);
    const DeviceGraph dg = DeviceGraph::allocate(run.memory, g);

    BfsResult r;
    r.level.assign(n, kMyInfinity);
    std::vector<uint8_t> in_frontier(n, 0), in_updating(n, 0), is_visited(n, 0);
    init_kernel(run.launcher, "bfs_topo_frontier::initialize", n,
                {{kPcInitFrontier, &frontier},
                 {kPcInitUpdating, &updating},
                 {kPcInitVisited, &visited},
                 {kPcInitLevel, &vpl}});
    in_frontier[root] = 1;
    is_visited[root] = 1;
    r.level[root] = 0;

    const LaunchShape shape = one_thread_per_item(n);
    // Kernel 2 raises `over` (the host's `stop`) when it moves a vertex into the frontier.
    repeat_while_changed(r.iterations, [&](uint32_t, bool& stop) {
        const bool expanded = run.launcher.launch(
            KernelDesc{"bfs_topo_frontier::BFS_kernel_1"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, begin, end, vid;
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                const uint32_t act =
                    load_and_test(w, kPcInFrontier, m, frontier, tid, [&](uint64_t v) { return in_frontier[v] != 0; });
                if (act == 0) return;
                w.store(kPcClearFrontier, act, frontier, tid);
                for_each_lane(act, [&](int l) { in_frontier[tid[l]] = 0; });
                dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, act, tid, begin, end);
                thread_edge_loop(w, act, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    dg.load_edge_dest(w, kPcEdgeDest, live, i, vid);
                    const uint32_t fresh =
                        load_and_test(w, kPcVisited, live, visited, vid, [&](uint64_t v) { return is_visited[v] == 0; });
                    w.load(kPcOwnLevel, fresh, vpl, tid);
                    w.compute(1);
                    w.store(kPcNbrStore, fresh, vpl, vid);
                    w.store(kPcMarkUpdating, fresh, updating, vid);
                    for_each_lane(fresh, [&](int l) {
                        r.level[vid[l]] = r.level[tid[l]] + 1;
                        in_updating[vid[l]] = 1;
                    });
                    return 0u;
                });
            });
        if (!expanded) return false;
        return run.launcher.launch(
            KernelDesc{"bfs_topo_frontier::BFS_kernel_2"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid;
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                const uint32_t act =
                    load_and_test(w, kPcUpdating, m, updating, tid, [&](uint64_t v) { return in_updating[v] != 0; });
                w.store(kPcSetFrontier, act, frontier, tid);
                w.store(kPcSetVisited, act, visited, tid);
                w.store(kPcClearUpdating, act, updating, tid);
                w.store_one(kPcOver, act, over, 0);
                for_each_lane(act, [&](int l) {
                    in_frontier[tid[l]] = 1;
                    is_visited[tid[l]] = 1;
                    in_updating[tid[l]] = 0;
                });
                if (act) stop = true;
            });
    });
    return r;
}

}  // namespace zng::workloads::graph
