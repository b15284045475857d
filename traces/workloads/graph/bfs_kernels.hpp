// Steps that several of GraphBIG's BFS kernels share: their arrays, the level set-up
// around the initialize kernel, and the atomicMin relaxation of an edge.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/graph/bfs.hpp"

namespace zng::workloads::graph {

// The arrays of the variants that keep a level per vertex and a `changed` flag
// (bfs_topo_atomic, _thread_centric, _unroll, _warp_centric), in their host code's
// cudaMalloc order: vproplist, over, then the graph (cudaGraphCopy).
struct LevelArrays {
    DeviceArray vpl;
    DeviceArray over;
    DeviceGraph dg;

    static LevelArrays allocate(GpuRun& run, const CsrGraph& g) {
        LevelArrays a;
        a.vpl = run.memory.alloc("vproplist", 4, g.vertex_count());
        a.over = run.memory.alloc("over", 1, 1);
        a.dg = DeviceGraph::allocate(run.memory, g);
        return a;
    }
};

// The initialize kernel storing vproplist[tid] (MY_INFINITY), then the host's
// vproplist[root] = 0: every level unreached but the root's.
inline BfsResult init_levels(GraphLauncher& launcher, const char* init_name, uint64_t pc,
                             const DeviceArray& vpl, uint64_t root) {
    BfsResult r;
    r.level.assign(vpl.count, kMyInfinity);
    init_kernel(launcher, init_name, vpl.count, {{pc, &vpl}});
    r.level[root] = 0;
    return r;
}

struct RelaxPcs {
    uint64_t src_level;    // vplist[src]
    uint64_t dst_level;    // vplist[dst]
    uint64_t atomic_min;   // atomicMin(&vplist[dst], vplist[src] + 1)
};

struct Relaxation {
    uint32_t issued = 0;    // lanes that issued the atomicMin
    uint32_t lowered = 0;   // lanes whose atomicMin lowered the level
};

// `if (vplist[src] + 1 < vplist[dst]) atomicMin(&vplist[dst], vplist[src] + 1)` of the
// live lanes (bfs_topo_atomic's processnode, bfs_topo_unroll's relaxation). The
// atomics are served lowest lane first.
inline Relaxation relax_edge(WarpOps& w, const RelaxPcs& pc, uint32_t live, const DeviceArray& vpl,
                             const Lanes<uint64_t>& src, const Lanes<uint64_t>& dst,
                             std::vector<uint32_t>& level) {
    Lanes<uint32_t> alt{};
    w.load(pc.src_level, live, vpl, src);
    for_each_lane(live, [&](int l) { alt[l] = level[src[l]] + 1; });
    w.load(pc.dst_level, live, vpl, dst);
    Relaxation out;
    out.issued = lanes_where(live, [&](int l) { return alt[l] < level[dst[l]]; });
    w.compute(kTestCompute + 1);
    w.atomic(pc.atomic_min, out.issued, vpl, dst);
    for_each_lane(out.issued, [&](int l) {
        if (alt[l] < level[dst[l]]) {
            level[dst[l]] = alt[l];
            out.lowered |= 1u << l;
        }
    });
    return out;
}

}  // namespace zng::workloads::graph
