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

// The memory instruction sites of both kernels: gc_topo_warp_centric.cu and
// gc_topo_thread_centric.cu issue the same accesses in the same order.
struct ColoringPcs {
    uint64_t init, own_color, first_edge, edge_end, own_rand, edge_dest, nbr_color, nbr_rand, set_color, over;

    static constexpr ColoringPcs of(uint32_t init_kernel, uint32_t kernel) {
        return {kernel_pc(init_kernel, 1), kernel_pc(kernel, 1), kernel_pc(kernel, 2), kernel_pc(kernel, 3),
                kernel_pc(kernel, 4),      kernel_pc(kernel, 5), kernel_pc(kernel, 6), kernel_pc(kernel, 7),
                kernel_pc(kernel, 8),      kernel_pc(kernel, 9)};
    }
};

constexpr ColoringPcs kWarpPcs = ColoringPcs::of(0x71, 0x72);
constexpr ColoringPcs kThreadPcs = ColoringPcs::of(0x75, 0x76);

// `if (color[vid] == MY_INFINITY)`: the lanes whose vertex has no colour yet.
inline uint32_t uncoloured(WarpOps& w, const ColoringPcs& pc, const ColoringDevice& d, const ColoringResult& r,
                           uint32_t mask, const Lanes<uint64_t>& v) {
    return load_and_test(w, pc.own_color, mask, d.vpl, v, [&](uint64_t u) { return r.color[u] == kMyInfinity; });
}

// One trip of the neighbour loop of both kernels: dest = get_edge_dest(e); a neighbour
// that is uncoloured or coloured this round (color[dest] >= color) with a higher
// priority (rand, then index) keeps `vid` from taking the colour. Returns those lanes
// (they break out of the loop).
inline uint32_t beaten_by_neighbour(WarpOps& w, const ColoringPcs& pc, const ColoringDevice& d,
                                    const ColoringResult& r, uint32_t color, uint32_t live,
                                    const Lanes<uint64_t>& vid, const Lanes<uint64_t>& e, Lanes<uint64_t>& dest) {
    d.dg.load_edge_dest(w, pc.edge_dest, live, e, dest);
    const uint32_t contender =
        load_and_test(w, pc.nbr_color, live, d.vpl, dest, [&](uint64_t u) { return r.color[u] >= color; });
    w.load(pc.nbr_rand, contender, d.rand, dest);
    const uint32_t lost = lanes_where(contender, [&](int l) {
        const uint32_t mine = r.priority[vid[l]], theirs = r.priority[dest[l]];
        return theirs > mine || (theirs == mine && dest[l] < vid[l]);
    });
    w.compute(kTestCompute + 2);
    return lost;
}

}  // namespace

ColoringResult run_gc_topo_warp_centric(GpuRun& run, const CsrGraph& g) {
    const ColoringPcs& pc = kWarpPcs;
    ColoringResult r;
    const ColoringDevice d = allocate(run, g, r);
    const uint64_t n = g.vertex_count();
    // Threads per block: V rounded up to whole warps, at most 1024; one block per
    // 1024 threads (CHUNK_SZ == WARP_SZ, so no extra blocks).
    LaunchShape shape = one_thread_per_item((n + kLanes - 1) / kLanes * kLanes);
    shape.blocks = static_cast<uint32_t>((n + shape.threads - 1) / shape.threads);
    init_kernel(run.launcher, "gc_topo_warp_centric::initialize", n, {{pc.init, &d.vpl}});

    // The host loops while a kernel cleared `stop` (wrote `over`), one colour a launch.
    repeat_while_changed(r.iterations, [&](uint32_t color, bool& changed) {
        return run.launcher.launch(
            KernelDesc{"gc_topo_warp_centric::kernel"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                const WarpChunk c = warp_chunk(w, t, n);
                Lanes<uint64_t> begin{}, end{}, num{}, dest{};
                for_each_chunk_item(w, c, [&](uint32_t m, const Lanes<uint64_t>& v) {
                    const uint32_t open = uncoloured(w, pc, d, r, m, v);
                    if (open == 0) return;
                    d.dg.load_edge_range(w, pc.first_edge, pc.edge_end, open, v, begin, end);
                    for_each_lane(open, [&](int l) { num[l] = end[l] - begin[l]; });
                    w.load(pc.own_rand, open, d.rand, v);
                    uint32_t found_larger = 0;
                    warp_edge_loop(w, open, c.lane_id, begin, num, [&](uint32_t live, const Lanes<uint64_t>& e) {
                        const uint32_t lost = beaten_by_neighbour(w, pc, d, r, color, live, v, e, dest);
                        found_larger |= lost;
                        return lost;   // break
                    });
                    // __all(!found_larger) is a vote over the lanes that reach it.
                    w.compute(2);
                    if ((found_larger & open) == 0) {
                        w.store(pc.set_color, open, d.vpl, v);
                        for_each_lane(open, [&](int l) { r.color[v[l]] = color; });
                    } else {
                        w.store_one(pc.over, open, d.over, 0);
                        changed = true;
                    }
                });
            });
    });
    return r;
}

ColoringResult run_gc_topo_thread_centric(GpuRun& run, const CsrGraph& g) {
    const ColoringPcs& pc = kThreadPcs;
    ColoringResult r;
    const ColoringDevice d = allocate(run, g, r);
    const uint64_t n = g.vertex_count();
    const LaunchShape shape = one_thread_per_item(n);
    init_kernel(run.launcher, "gc_topo_thread_centric::initialize", n, {{pc.init, &d.vpl}});

    repeat_while_changed(r.iterations, [&](uint32_t color, bool& changed) {
        return run.launcher.launch(
            KernelDesc{"gc_topo_thread_centric::kernel"}, shape, [&](WarpOps& w, const WarpThreads& t) {
                Lanes<uint64_t> tid, begin, end, dest;
                const uint32_t m = thread_ids(t, n, tid);
                w.compute(kTidCompute);
                const uint32_t open = uncoloured(w, pc, d, r, m, tid);
                if (open == 0) return;
                d.dg.load_edge_range(w, pc.first_edge, pc.edge_end, open, tid, begin, end);
                w.load(pc.own_rand, open, d.rand, tid);
                uint32_t found_larger = 0;
                thread_edge_loop(w, open, begin, end, [&](uint32_t live, const Lanes<uint64_t>& i) {
                    const uint32_t lost = beaten_by_neighbour(w, pc, d, r, color, live, tid, i, dest);
                    found_larger |= lost;
                    return lost;
                });
                const uint32_t win = open & ~found_larger;
                w.compute(kTestCompute);
                w.store(pc.set_color, win, d.vpl, tid);
                for_each_lane(win, [&](int l) { r.color[tid[l]] = color; });
                w.store_one(pc.over, found_larger, d.over, 0);
                if (found_larger) changed = true;
            });
    });
    return r;
}

}  // namespace zng::workloads::graph
