#include "traces/workloads/graph/pagerank.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0xa1, kPush = 0xa2, kCopy = 0xa3;
constexpr uint64_t kPcInitRank = kernel_pc(kInit, 1);
constexpr uint64_t kPcInitSum = kernel_pc(kInit, 2);
constexpr uint64_t kPcInitDangling = kernel_pc(kInit, 3);
constexpr uint64_t kPcFirstEdge = kernel_pc(kPush, 1);
constexpr uint64_t kPcEdgeEnd = kernel_pc(kPush, 2);
constexpr uint64_t kPcRank = kernel_pc(kPush, 3);
constexpr uint64_t kPcDangling = kernel_pc(kPush, 4);
constexpr uint64_t kPcEdgeDest = kernel_pc(kPush, 5);
constexpr uint64_t kPcPushAdd = kernel_pc(kPush, 6);
constexpr uint64_t kPcCopySum = kernel_pc(kCopy, 1);
constexpr uint64_t kPcCopyDangling = kernel_pc(kCopy, 2);
constexpr uint64_t kPcCopyRank = kernel_pc(kCopy, 3);
constexpr uint64_t kPcCopyClear = kernel_pc(kCopy, 4);
constexpr uint64_t kPcCopyNextDangling = kernel_pc(kCopy, 5);
}  // namespace

PageRankResult run_pagerank(GpuRun& run, const CsrGraph& g, int iterations) {
    const uint64_t n = g.vertex_count();
    const DeviceArray rank = run.memory.alloc("rank", 4, n);
    const DeviceArray sum = run.memory.alloc("rank_sum", 4, n);
    const DeviceArray dangling = run.memory.alloc("dangling", 4, 2);
    const DeviceGraph dg = DeviceGraph::allocate(run.memory, g);
    const LaunchShape shape = one_thread_per_item(n);
    const float d = kPageRankDamping;
    const float base = (1.0f - d) / static_cast<float>(n);

    PageRankResult r;
    r.rank.assign(n, 1.0f / static_cast<float>(n));
    std::vector<float> acc(n, 0.0f);
    float dang[2] = {0.0f, 0.0f};
    run.launcher.launch_init(KernelDesc{"pagerank::kernel_init"}, shape, [&](WarpOps& w, const WarpThreads& t) {
        Lanes<uint64_t> tid;
        const uint32_t m = thread_ids(t, n, tid);
        w.compute(kTidCompute + 2);
        w.store_seq(kPcInitRank, m, rank, t.first_tid());
        w.store_seq(kPcInitSum, m, sum, t.first_tid());
        const uint32_t first = lanes_where(m, [&](int l) { return tid[l] == 0; });
        w.store_one(kPcInitDangling, first, dangling, 0);
        w.store_one(kPcInitDangling + 8, first, dangling, 1);
    });

    for (int it = 0; it < iterations; ++it) {
        const uint32_t slot = static_cast<uint32_t>(it) & 1u;
        bool ran = run.launcher.launch(KernelDesc{"pagerank::kernel_push"}, shape, [&](WarpOps& w, const WarpThreads& t) {
            Lanes<uint64_t> tid, begin, end, dest;
            Lanes<float> share{};
            const uint32_t m = thread_ids(t, n, tid);
            w.compute(kTidCompute);
            if (m == 0) return;
            dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, m, tid, begin, end);
            w.load(kPcRank, m, rank, tid);
            const uint32_t sink = lanes_where(m, [&](int l) { return begin[l] == end[l]; });
            w.compute(kTestCompute + 4);   // degree, divide, vote
            if (sink) {
                // Warp reduction of the dangling mass (5 shuffle steps, lane order
                // fixed), then one atomicAdd by the lowest dangling lane.
                float total = 0.0f;
                for_each_lane(sink, [&](int l) { total += d * r.rank[tid[l]]; });
                w.compute(10);
                const uint32_t leader = sink & (~sink + 1);
                w.atomic_one(kPcDangling, leader, dangling, slot);
                dang[slot] += total;
            }
            const uint32_t push = m & ~sink;
            for_each_lane(push, [&](int l) {
                share[l] = d * r.rank[tid[l]] / static_cast<float>(end[l] - begin[l]);
            });
            thread_edge_loop(w, push, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                dg.load_edge_dest(w, kPcEdgeDest, live, i, dest);
                w.compute(1);
                w.atomic(kPcPushAdd, live, sum, dest);
                for_each_lane(live, [&](int l) { acc[dest[l]] += share[l]; });
                return 0u;
            });
        });
        if (!ran) break;
        ran = run.launcher.launch(KernelDesc{"pagerank::kernel_copy"}, shape, [&](WarpOps& w, const WarpThreads& t) {
            Lanes<uint64_t> tid;
            const uint32_t m = thread_ids(t, n, tid);
            w.compute(kTidCompute);
            w.load_seq(kPcCopySum, m, sum, t.first_tid());
            w.load_one(kPcCopyDangling, m, dangling, slot);
            w.compute(4);
            w.store_seq(kPcCopyRank, m, rank, t.first_tid());
            w.store_seq(kPcCopyClear, m, sum, t.first_tid());
            const float spread = dang[slot] / static_cast<float>(n);
            for_each_lane(m, [&](int l) {
                r.rank[tid[l]] = base + acc[tid[l]] + spread;
                acc[tid[l]] = 0.0f;
            });
            const uint32_t first = lanes_where(m, [&](int l) { return tid[l] == 0; });
            w.compute(kTestCompute);
            w.store_one(kPcCopyNextDangling, first, dangling, slot ^ 1u);
            if (first) dang[slot ^ 1u] = 0.0f;
        });
        if (!ran) break;
        ++r.iterations;
    }
    return r;
}

}  // namespace zng::workloads::graph
