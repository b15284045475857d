#include "traces/workloads/graph/graph_coloring.hpp"

#include "traces/workloads/graph/glibc_random.hpp"

namespace zng::workloads::graph {

namespace {

// Arrays and host-side set-up shared by both variants (same cudaMalloc order).
struct ColoringDevice {
    DeviceArray vpl, rand, over;
    DeviceGraph dg;
};

ColoringDevice allocate(GpuRun& run, const CsrGraph& g, ColoringResult& r) {
    const uint64_t n = g.vertex_count();
    ColoringDevice d;
    d.vpl = run.memory.alloc("vproplist", 4, n);
    d.rand = run.memory.alloc("randlist", 4, n);
    d.over = run.memory.alloc("over", 1, 1);
    d.dg = DeviceGraph::allocate(run.memory, g);
    r.color.assign(n, kMyInfinity);
    r.priority.resize(n);
    GlibcRandom rng(kColoringSeed);
    for (auto& p : r.priority) p = static_cast<uint32_t>(rng.next());
    return d;
}

// The neighbour test of both kernels: true when `dest` keeps `vid` from taking the
// colour (an uncoloured or just-coloured neighbour with a higher priority).
inline bool beaten(const ColoringResult& r, uint64_t vid, uint64_t dest) {
    return r.priority[dest] > r.priority[vid] || (r.priority[dest] == r.priority[vid] && dest < vid);
}

constexpr uint32_t kWarpInit = 0x71, kWarpKernel = 0x72, kThreadInit = 0x75, kThreadKernel = 0x76;

}  // namespace

ColoringResult run_gc_topo_warp_centric(GpuRun& run, const CsrGraph& g) {
    constexpr uint64_t kPcInit = kernel_pc(kWarpInit, 1);
    constexpr uint64_t kPcOwnColor = kernel_pc(kWarpKernel, 1);
    constexpr uint64_t kPcFirstEdge = kernel_pc(kWarpKernel, 2);
    constexpr uint64_t kPcEdgeEnd = kernel_pc(kWarpKernel, 3);
    constexpr uint64_t kPcOwnRand = kernel_pc(kWarpKernel, 4);
    constexpr uint64_t kPcEdgeDest = kernel_pc(kWarpKernel, 5);
    constexpr uint64_t kPcNbrColor = kernel_pc(kWarpKernel, 6);
    constexpr uint64_t kPcNbrRand = kernel_pc(kWarpKernel, 7);
    constexpr uint64_t kPcSetColor = kernel_pc(kWarpKernel, 8);
    constexpr uint64_t kPcOver = kernel_pc(kWarpKernel, 9);

    ColoringResult r;
    const ColoringDevice d = allocate(run, g, r);
    const uint64_t n = g.vertex_count();
    // Threads per block: V rounded up to whole warps, at most 1024; one block per
    // 1024 threads (CHUNK_SZ == WARP_SZ, so no extra blocks).
    LaunchShape shape = one_thread_per_item((n + kLanes - 1) / kLanes * kLanes);
    shape.blocks = static_cast<uint32_t>((n + shape.threads - 1) / shape.threads);
    init_kernel(run.launcher, "gc_topo_warp_centric::initialize", n, {{kPcInit, &d.vpl}});

    uint32_t color = 0;
    bool stop = true;
    do {
        stop = true;
        const bool ran = run.launcher.launch(
            KernelDesc{"gc_topo_warp_centric::kernel"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> lane_id{}, first{}, chunk{}, v{}, begin{}, end{}, num{}, dest{};
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
                    w.load(kPcOwnColor, m, d.vpl, v);
                    const uint32_t open = lanes_where(m, [&](int l) { return r.color[v[l]] == kMyInfinity; });
                    w.compute(kTestCompute);
                    if (open == 0) continue;
                    d.dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, open, v, begin, end);
                    for_each_lane(open, [&](int l) { num[l] = end[l] - begin[l]; });
                    w.load(kPcOwnRand, open, d.rand, v);
                    uint32_t found_larger = 0;
                    warp_edge_loop(w, open, lane_id, begin, num, [&](uint32_t live, const Lanes<uint64_t>& e) {
                        d.dg.load_edge_dest(w, kPcEdgeDest, live, e, dest);
                        w.load(kPcNbrColor, live, d.vpl, dest);
                        const uint32_t contender =
                            lanes_where(live, [&](int l) { return r.color[dest[l]] >= color; });
                        w.compute(kTestCompute);
                        w.load(kPcNbrRand, contender, d.rand, dest);
                        const uint32_t lost = lanes_where(contender, [&](int l) { return beaten(r, v[l], dest[l]); });
                        w.compute(kTestCompute + 2);
                        found_larger |= lost;
                        return lost;   // break
                    });
                    // __all(!found_larger) is a vote over the lanes that reach it.
                    w.compute(2);
                    if ((found_larger & open) == 0) {
                        w.store(kPcSetColor, open, d.vpl, v);
                        for_each_lane(open, [&](int l) { r.color[v[l]] = color; });
                    } else {
                        w.store_one(kPcOver, open, d.over, 0);
                        stop = false;
                    }
                }
            });
        if (!ran) break;
        ++r.iterations;
        ++color;
    } while (!stop);
    return r;
}

ColoringResult run_gc_topo_thread_centric(GpuRun& run, const CsrGraph& g) {
    constexpr uint64_t kPcInit = kernel_pc(kThreadInit, 1);
    constexpr uint64_t kPcOwnColor = kernel_pc(kThreadKernel, 1);
    constexpr uint64_t kPcFirstEdge = kernel_pc(kThreadKernel, 2);
    constexpr uint64_t kPcEdgeEnd = kernel_pc(kThreadKernel, 3);
    constexpr uint64_t kPcOwnRand = kernel_pc(kThreadKernel, 4);
    constexpr uint64_t kPcEdgeDest = kernel_pc(kThreadKernel, 5);
    constexpr uint64_t kPcNbrColor = kernel_pc(kThreadKernel, 6);
    constexpr uint64_t kPcNbrRand = kernel_pc(kThreadKernel, 7);
    constexpr uint64_t kPcSetColor = kernel_pc(kThreadKernel, 8);
    constexpr uint64_t kPcOver = kernel_pc(kThreadKernel, 9);

    ColoringResult r;
    const ColoringDevice d = allocate(run, g, r);
    const uint64_t n = g.vertex_count();
    const LaunchShape shape = one_thread_per_item(n);
    init_kernel(run.launcher, "gc_topo_thread_centric::initialize", n, {{kPcInit, &d.vpl}});

    uint32_t color = 0;
    bool stop = true;
    do {
        stop = true;
        const bool ran = run.launcher.launch(
            KernelDesc{"gc_topo_thread_centric::kernel"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, begin, end, dest;
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                w.load(kPcOwnColor, m, d.vpl, tid);
                const uint32_t open = lanes_where(m, [&](int l) { return r.color[tid[l]] == kMyInfinity; });
                w.compute(kTestCompute);
                if (open == 0) return;
                d.dg.load_edge_range(w, kPcFirstEdge, kPcEdgeEnd, open, tid, begin, end);
                w.load(kPcOwnRand, open, d.rand, tid);
                uint32_t found_larger = 0;
                thread_edge_loop(w, open, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    d.dg.load_edge_dest(w, kPcEdgeDest, live, i, dest);
                    w.load(kPcNbrColor, live, d.vpl, dest);
                    const uint32_t contender = lanes_where(live, [&](int l) { return r.color[dest[l]] >= color; });
                    w.compute(kTestCompute);
                    w.load(kPcNbrRand, contender, d.rand, dest);
                    const uint32_t lost = lanes_where(contender, [&](int l) { return beaten(r, tid[l], dest[l]); });
                    w.compute(kTestCompute + 2);
                    found_larger |= lost;
                    return lost;
                });
                const uint32_t win = open & ~found_larger;
                w.compute(kTestCompute);
                w.store(kPcSetColor, win, d.vpl, tid);
                for_each_lane(win, [&](int l) { r.color[tid[l]] = color; });
                w.store_one(kPcOver, found_larger, d.over, 0);
                if (found_larger) stop = false;
            });
        if (!ran) break;
        ++r.iterations;
        ++color;
    } while (!stop);
    return r;
}

}  // namespace zng::workloads::graph
