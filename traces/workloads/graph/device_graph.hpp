// The device side of a graph workload: cudaMalloc placement of its arrays, the CSR
// arrays themselves (GraphBIG's cudaGraph: 64-bit vlist and elist), and the warp-level
// helpers every GraphBIG kernel shares.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "traces/workloads/device_allocator.hpp"
#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/graph_launcher.hpp"
#include "traces/workloads/graph/warp_ops.hpp"
#include "traces/workloads/workload_context.hpp"

namespace zng::workloads::graph {

// Places arrays through the workload's allocator, or a private one for functional
// runs without a trace.
class DeviceMemory {
public:
    explicit DeviceMemory(WorkloadContext* ctx) : a_(ctx ? &ctx->allocator() : &own_) {}
    DeviceArray alloc(const std::string& name, uint8_t elem, uint64_t count) {
        return DeviceArray{a_->alloc(name, elem * count), elem, count};
    }

private:
    DeviceAllocator own_;
    DeviceAllocator* a_;
};

struct DeviceGraph {
    const CsrGraph* g = nullptr;
    DeviceArray vlist;   // V+1 uint64 offsets
    DeviceArray elist;   // E uint64 destinations

    // cudaGraphCopy: vlist then elist.
    static DeviceGraph allocate(DeviceMemory& mem, const CsrGraph& g) {
        DeviceGraph d;
        d.g = &g;
        d.vlist = mem.alloc("vertexlist", 8, g.vertex_count() + 1);
        d.elist = mem.alloc("edgelist", 8, g.edge_count());
        return d;
    }
    uint64_t vertex_count() const { return g->vertex_count(); }

    // start = get_firstedge_index(v); end = get_edge_index_end(v): two loads of vlist.
    void load_edge_range(WarpOps& w, uint64_t pc_first, uint64_t pc_end, uint32_t mask,
                         const Lanes<uint64_t>& v, Lanes<uint64_t>& begin,
                         Lanes<uint64_t>& end) const {
        w.load(pc_first, mask, vlist, v);
        for_each_lane(mask, [&](int l) { begin[l] = g->offsets[v[l]]; });
        Lanes<uint64_t> next{};
        for_each_lane(mask, [&](int l) { next[l] = v[l] + 1; });
        w.load(pc_end, mask, vlist, next);
        for_each_lane(mask, [&](int l) { end[l] = g->offsets[v[l] + 1]; });
    }
    // The same for a warp-uniform vertex (warp-centric kernels).
    void load_edge_range_one(WarpOps& w, uint64_t pc_first, uint64_t pc_end, uint32_t mask,
                             uint64_t v, uint64_t& begin, uint64_t& end) const {
        w.load_one(pc_first, mask, vlist, v);
        w.load_one(pc_end, mask, vlist, v + 1);
        begin = g->offsets[v];
        end = g->offsets[v + 1];
    }
    // dest = get_edge_dest(i) for each lane's edge index.
    void load_edge_dest(WarpOps& w, uint64_t pc, uint32_t mask, const Lanes<uint64_t>& idx,
                        Lanes<uint64_t>& dest) const {
        w.load(pc, mask, elist, idx);
        for_each_lane(mask, [&](int l) { dest[l] = g->edges[idx[l]]; });
    }
};

// Thread ids of a warp as lane values, and the mask of lanes with tid < limit.
inline uint32_t thread_ids(const WarpThreads& t, uint64_t limit, Lanes<uint64_t>& tid) {
    uint32_t mask = 0;
    for_each_lane(t.live, [&](int l) {
        tid[l] = t.tid(l);
        if (tid[l] < limit) mask |= 1u << l;
    });
    return mask;
}

}  // namespace zng::workloads::graph
