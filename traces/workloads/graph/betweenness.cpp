#include "traces/workloads/graph/betweenness.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint32_t kInit = 0x01, kForward = 0x02, kBackward = 0x03, kBacksum = 0x04;
constexpr uint64_t kPcInitDist = kernel_pc(kInit, 1);
constexpr uint64_t kPcInitSigma = kernel_pc(kInit, 2);
constexpr uint64_t kPcInitDelta = kernel_pc(kInit, 3);
constexpr uint64_t kPcInitRootDist = kernel_pc(kInit, 4);
constexpr uint64_t kPcInitRootSigma = kernel_pc(kInit, 5);
constexpr uint64_t kPcFwdOwnDist = kernel_pc(kForward, 1);
constexpr uint64_t kPcFwdFirstEdge = kernel_pc(kForward, 2);
constexpr uint64_t kPcFwdEdgeEnd = kernel_pc(kForward, 3);
constexpr uint64_t kPcFwdEdgeDest = kernel_pc(kForward, 4);
constexpr uint64_t kPcFwdNbrDist = kernel_pc(kForward, 5);
constexpr uint64_t kPcFwdSetDist = kernel_pc(kForward, 6);
constexpr uint64_t kPcFwdOver = kernel_pc(kForward, 7);
constexpr uint64_t kPcFwdOwnSigma = kernel_pc(kForward, 8);
constexpr uint64_t kPcFwdAddSigma = kernel_pc(kForward, 9);
constexpr uint64_t kPcBwdOwnDist = kernel_pc(kBackward, 1);
constexpr uint64_t kPcBwdFirstEdge = kernel_pc(kBackward, 2);
constexpr uint64_t kPcBwdEdgeEnd = kernel_pc(kBackward, 3);
constexpr uint64_t kPcBwdEdgeDest = kernel_pc(kBackward, 4);
constexpr uint64_t kPcBwdNbrDist = kernel_pc(kBackward, 5);
constexpr uint64_t kPcBwdOwnSigma = kernel_pc(kBackward, 6);
constexpr uint64_t kPcBwdNbrSigma = kernel_pc(kBackward, 7);
constexpr uint64_t kPcBwdNbrDelta = kernel_pc(kBackward, 8);
constexpr uint64_t kPcBwdOwnDelta = kernel_pc(kBackward, 9);
constexpr uint64_t kPcBwdStoreDelta = kernel_pc(kBackward, 10);
constexpr uint64_t kPcSumDist = kernel_pc(kBacksum, 1);
constexpr uint64_t kPcSumBc = kernel_pc(kBacksum, 2);
constexpr uint64_t kPcSumDelta = kernel_pc(kBacksum, 3);
constexpr uint64_t kPcSumStore = kernel_pc(kBacksum, 4);
}  // namespace

BetweennessResult run_betweenness(GpuRun& run, const CsrGraph& g, uint64_t root) {
    const uint64_t n = g.vertex_count();
    // cudaMalloc order of the host code: BC (memset to 0 by the host), delta, dist,
    // sigma, over, then the graph.
    const DeviceArray bc = run.memory.alloc("BC", 4, n);
    const DeviceArray delta = run.memory.alloc("delta", 4, n);
    const DeviceArray dist = run.memory.alloc("dist", 4, n);
    const DeviceArray sigma = run.memory.alloc("sigma", 4, n);
    const DeviceArray over = run.memory.alloc("over", 1, 1);
    const DeviceGraph dg = DeviceGraph::allocate(run.memory, g);
    const LaunchShape shape = one_thread_per_item(n);

    BetweennessResult r;
    r.bc.assign(n, 0.0f);
    r.delta.assign(n, 0.0f);
    r.dist.assign(n, kMyInfinity);
    r.sigma.assign(n, 0);
    run.launcher.launch_init(KernelDesc{"betweenness::kernel_init"}, shape, [&](WarpOps& w, const WarpThreads& t) {
        Lanes<uint64_t> tid;
        const uint32_t m = thread_ids(t, n, tid);
        w.compute(kTidCompute);
        w.store_seq(kPcInitDist, m, dist, t.first_tid());
        w.store_seq(kPcInitSigma, m, sigma, t.first_tid());
        w.store_seq(kPcInitDelta, m, delta, t.first_tid());
        const uint32_t is_root = lanes_where(m, [&](int l) { return tid[l] == root; });
        w.compute(kTestCompute);
        w.store(kPcInitRootDist, is_root, dist, tid);
        w.store(kPcInitRootSigma, is_root, sigma, tid);
    });
    r.dist[root] = 0;
    r.sigma[root] = 1;

    // Forward phase: level `curr` labels level curr+1 and adds path counts; a kernel
    // that labels a vertex clears the host's `stop` (writes `over`).
    const bool forward_done = repeat_while_changed(r.forward_launches, [&](uint32_t curr, bool& changed) {
        return run.launcher.launch(
            KernelDesc{"betweenness::kernel_forward_phase"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, begin, end, nbr;
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                const uint32_t act =
                    load_and_test(w, kPcFwdOwnDist, m, dist, tid, [&](uint64_t v) { return r.dist[v] == curr; });
                if (act == 0) return;
                dg.load_edge_range(w, kPcFwdFirstEdge, kPcFwdEdgeEnd, act, tid, begin, end);
                thread_edge_loop(w, act, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    dg.load_edge_dest(w, kPcFwdEdgeDest, live, i, nbr);
                    const uint32_t fresh = load_and_test(w, kPcFwdNbrDist, live, dist, nbr,
                                                         [&](uint64_t v) { return r.dist[v] == kMyInfinity; });
                    w.store(kPcFwdSetDist, fresh, dist, nbr);
                    w.store_one(kPcFwdOver, fresh, over, 0);
                    for_each_lane(fresh, [&](int l) { r.dist[nbr[l]] = curr + 1; });
                    if (fresh) changed = true;
                    // The second test reuses the loaded (or just stored) dist[w].
                    const uint32_t child = lanes_where(live, [&](int l) { return r.dist[nbr[l]] == curr + 1; });
                    w.compute(kTestCompute);
                    w.load(kPcFwdOwnSigma, child, sigma, tid);
                    w.atomic(kPcFwdAddSigma, child, sigma, nbr);
                    for_each_lane(child, [&](int l) { r.sigma[nbr[l]] += r.sigma[tid[l]]; });
                    return 0u;
                });
            });
    });
    if (!forward_done) return r;

    // Backward phase: levels curr-1 down to 0 gather their successors' dependencies.
    uint32_t curr = static_cast<uint32_t>(r.forward_launches);
    while (curr > 1) {
        --curr;
        const bool ran = run.launcher.launch(
            KernelDesc{"betweenness::kernel_backward_phase"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, begin, end, nbr;
                Lanes<float> sum{};
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                const uint32_t act =
                    load_and_test(w, kPcBwdOwnDist, m, dist, tid, [&](uint64_t v) { return r.dist[v] == curr - 1; });
                if (act == 0) return;
                dg.load_edge_range(w, kPcBwdFirstEdge, kPcBwdEdgeEnd, act, tid, begin, end);
                thread_edge_loop(w, act, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    dg.load_edge_dest(w, kPcBwdEdgeDest, live, i, nbr);
                    const uint32_t succ =
                        load_and_test(w, kPcBwdNbrDist, live, dist, nbr, [&](uint64_t v) { return r.dist[v] == curr; });
                    w.load(kPcBwdOwnSigma, succ, sigma, tid);
                    w.load(kPcBwdNbrSigma, succ, sigma, nbr);
                    w.load(kPcBwdNbrDelta, succ, delta, nbr);
                    w.compute(8);   // conversions to double, divide, multiply-add
                    // sum += 1.0*sigma[u]/sigma[w]*(1.0+delta[w]): double arithmetic
                    // rounded back into the float accumulator.
                    for_each_lane(succ, [&](int l) {
                        const double term = 1.0 * r.sigma[tid[l]] / r.sigma[nbr[l]] * (1.0 + r.delta[nbr[l]]);
                        sum[l] = static_cast<float>(sum[l] + term);
                    });
                    return 0u;
                });
                w.load(kPcBwdOwnDelta, act, delta, tid);
                w.compute(1);
                w.store(kPcBwdStoreDelta, act, delta, tid);
                for_each_lane(act, [&](int l) { r.delta[tid[l]] += sum[l]; });
            });
        if (!ran) return r;
        ++r.backward_launches;
    }

    const bool ran = run.launcher.launch(
        KernelDesc{"betweenness::kernel_backsum_phase"}, shape, [&](WarpOps& w, const WarpThreads& t) {
            Lanes<uint64_t> tid;
            const uint32_t m = thread_ids(t, n, tid);
            const uint32_t not_root = lanes_where(m, [&](int l) { return tid[l] != root; });
            w.compute(kTidCompute + kTestCompute);
            const uint32_t act = load_and_test(w, kPcSumDist, not_root, dist, tid,
                                               [&](uint64_t v) { return r.dist[v] != kMyInfinity; });
            w.load(kPcSumBc, act, bc, tid);
            w.load(kPcSumDelta, act, delta, tid);
            w.compute(1);
            w.store(kPcSumStore, act, bc, tid);
            for_each_lane(act, [&](int l) { r.bc[tid[l]] += r.delta[tid[l]]; });
        });
    r.backsum_ran = ran;
    return r;
}

}  // namespace zng::workloads::graph
