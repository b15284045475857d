// bfs5: bfs_topo_unroll.cu (LonestarGPU bfs_atomic). Each thread relaxes its vertex's
// edges with atomicMin and keeps relaxing the vertices it lowered, through a private
// queue in shared memory (VERTICALWORKPERTHREAD = 12 slots, strided by the block
// size), so one launch can advance several levels.
#include <array>

#include "traces/workloads/graph/bfs_kernels.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x51, kKernel = 0x52;
constexpr uint32_t kBlockSize = 1024;       // BLKSIZE = BANKSIZE
constexpr uint32_t kUnroll = 12;            // VERTICALWORKPERTHREAD, the unroll parameter
constexpr uint32_t kSmCount = 16;           // multiProcessorCount of the paper's GPU
constexpr uint64_t kPcInitStore = kernel_pc(kInit, 1);
constexpr uint64_t kPcSeedQueue = kernel_pc(kKernel, 1);    // changedv[iichangedv] = nn
constexpr uint64_t kPcPopQueue = kernel_pc(kKernel, 2);     // nn = changedv[anotheriichangedv]
constexpr uint64_t kPcFirstEdge = kernel_pc(kKernel, 3);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kKernel, 4);
constexpr uint64_t kPcEdgeDest = kernel_pc(kKernel, 5);
// vplist[u], vplist[v], atomicMin(&vplist[v], vplist[u] + 1)
constexpr RelaxPcs kRelax{kernel_pc(kKernel, 6), kernel_pc(kKernel, 7), kernel_pc(kKernel, 8)};
constexpr uint64_t kPcPushQueue = kernel_pc(kKernel, 9);    // changedv[iichangedv] = v
constexpr uint64_t kPcChanged = kernel_pc(kKernel, 10);
}  // namespace

BfsResult run_bfs_topo_unroll(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    const LevelArrays a = LevelArrays::allocate(run, g);

    // factor = ceil(V / (BLKSIZE * SMs)); the grid is SMs * factor blocks of BLKSIZE.
    const uint64_t factor = (n + uint64_t{kBlockSize} * kSmCount - 1) / (uint64_t{kBlockSize} * kSmCount);
    const LaunchShape shape{static_cast<uint32_t>(kSmCount * factor), kBlockSize};

    BfsResult r;
    r.level.assign(n, kMyInfinity);
    run.launcher.launch_init(KernelDesc{"bfs_topo_unroll::initialize"}, shape,
                             [&](WarpOps& w, const WarpThreads& t) {
                                 Lanes<uint64_t> tid;
                                 const uint32_t m = thread_ids(t, n, tid);
                                 w.compute(kTidCompute);
                                 w.store_seq(kPcInitStore, m, a.vpl, t.first_tid());
                             });
    r.level[root] = 0;

    const KernelDesc desc{"bfs_topo_unroll::kernel", kUnroll * kBlockSize * 4};
    repeat_while_changed(r.iterations, [&](uint32_t, bool& changed) {
        return run.launcher.launch(desc, shape, [&](WarpOps& w, const WarpThreads& t) {
            Lanes<std::array<uint32_t, kUnroll>> queue;   // this thread's changedv slots
            Lanes<uint32_t> pushed{}, popped{}, nprocessed{}, offset{};
            Lanes<uint64_t> node{}, begin{}, end{}, dst{};
            for_each_lane(t.live, [&](int l) {
                queue[l][0] = static_cast<uint32_t>(t.tid(l));
                pushed[l] = 1;
                offset[l] = t.thread_idx(l) * 4;
            });
            w.compute(kTidCompute + 2);
            w.shared_store(kPcSeedQueue, t.live, offset, 4);
            for (;;) {
                const uint32_t busy = lanes_where(t.live, [&](int l) { return popped[l] < pushed[l]; });
                w.compute(kLoopCompute);
                if (busy == 0) break;
                for_each_lane(busy, [&](int l) {
                    offset[l] = (popped[l] * kBlockSize + t.thread_idx(l)) * 4;
                    node[l] = queue[l][popped[l]++];
                });
                w.shared_load(kPcPopQueue, busy, offset, 4);
                const uint32_t valid = lanes_where(busy, [&](int l) { return node[l] < n; });
                w.compute(kTestCompute + 1);
                if (valid == 0) continue;
                a.dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, valid, node, begin, end);
                thread_edge_loop(w, valid, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    a.dg.load_edge_dest(w, kPcEdgeDest, live, i, dst);
                    const uint32_t lower = relax_edge(w, kRelax, live, a.vpl, node, dst, r.level).issued;
                    const uint32_t enqueue = lanes_where(lower, [&](int l) { return ++nprocessed[l] < kUnroll; });
                    w.compute(kTestCompute);
                    for_each_lane(enqueue, [&](int l) {
                        offset[l] = (pushed[l] * kBlockSize + t.thread_idx(l)) * 4;
                        queue[l][pushed[l]++] = static_cast<uint32_t>(dst[l]);
                    });
                    w.shared_store(kPcPushQueue, enqueue, offset, 4);
                    return 0u;
                });
            }
            const uint32_t any = lanes_where(t.live, [&](int l) { return nprocessed[l] != 0; });
            w.compute(kTestCompute);
            w.store_one(kPcChanged, any, a.over, 0);
            if (any) changed = true;
        });
    });
    return r;
}

}  // namespace zng::workloads::graph
