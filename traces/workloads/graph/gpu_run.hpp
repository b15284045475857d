// What every graph kernel needs to run: the device memory placement, the launcher, and
// kernel code shared by all GraphBIG benchmarks.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "traces/workloads/graph/device_graph.hpp"
#include "traces/workloads/graph/graph_launcher.hpp"

namespace zng::workloads::graph {

struct GpuRun {
    // ctx null: a functional run (nothing traced, no cap).
    GpuRun(WorkloadContext* ctx, int default_cap, bool profile_skips_init = false)
        : memory(ctx), launcher(ctx, default_cap, profile_skips_init) {}
    DeviceMemory memory;
    GraphLauncher launcher;
};

// Program counter of memory instruction `site` of kernel `kernel`: every instruction
// site gets its own PC, and PCs of different kernels never collide.
constexpr uint64_t kernel_pc(uint32_t kernel, uint32_t site) {
    return (uint64_t{kernel} << 12) | (uint64_t{site} << 4);
}

// Rough SASS instruction counts between memory instructions, shared by the kernels so
// their compute density is consistent: thread-id arithmetic and bounds test, one loop
// trip (increment, compare, branch), a property test with its branch.
constexpr uint32_t kTidCompute = 5;
constexpr uint32_t kLoopCompute = 3;
constexpr uint32_t kTestCompute = 2;

// Thread-centric edge loop `for (i = begin; i < end; i++)` of the lanes in mask: the
// warp iterates until its last lane is done. body(live, i) handles one trip for the
// live lanes and returns the lanes that `break` out.
template <class Body>
inline void thread_edge_loop(WarpOps& w, uint32_t mask, Lanes<uint64_t> i,
                             const Lanes<uint64_t>& end, Body&& body) {
    for (;;) {
        const uint32_t live = lanes_where(mask, [&](int l) { return i[l] < end[l]; });
        w.compute(kLoopCompute);
        if (live == 0) return;
        const uint32_t broke = body(live, static_cast<const Lanes<uint64_t>&>(i));
        mask &= ~broke;
        for_each_lane(live & ~broke, [&](int l) { ++i[l]; });
    }
}

// Warp-centric edge loop `for (i = lane_id; i < num; i += 32)` over the edges
// [offset, offset + num) of each lane's vertex: body(live, edge) gets edge = offset + i.
template <class Body>
inline void warp_edge_loop(WarpOps& w, uint32_t mask, const Lanes<uint64_t>& lane_id,
                           const Lanes<uint64_t>& offset, const Lanes<uint64_t>& num,
                           Body&& body) {
    Lanes<uint64_t> i = lane_id;
    Lanes<uint64_t> edge{};
    for (;;) {
        const uint32_t live = lanes_where(mask, [&](int l) { return i[l] < num[l]; });
        w.compute(kLoopCompute);
        if (live == 0) return;
        for_each_lane(live, [&](int l) { edge[l] = offset[l] + i[l]; });
        const uint32_t broke = body(live, static_cast<const Lanes<uint64_t>&>(edge));
        mask &= ~broke;
        for_each_lane(live & ~broke, [&](int l) { i[l] += kLanes; });
    }
}

// `if (test(a[idx]))` of the lanes in mask, the step every GraphBIG kernel takes on a
// vertex property (its own level, colour or flag, or a neighbour's): the load of each
// lane's a[idx], the compare and branch, and the lanes whose element passes.
// passes(i) gets the element index.
template <class Test>
inline uint32_t load_and_test(WarpOps& w, uint64_t pc, uint32_t mask, const DeviceArray& a,
                              const Lanes<uint64_t>& idx, Test&& passes) {
    w.load(pc, mask, a, idx);
    const uint32_t hit = lanes_where(mask, [&](int l) { return passes(idx[l]); });
    w.compute(kTestCompute);
    return hit;
}

// The prologue of GraphBIG's warp-centric kernels (CHUNK_SZ == WARP_SZ): lane_id =
// tid % 32; warp w takes the items [32w, 32w + 32) that are below n, one after another.
struct WarpChunk {
    Lanes<uint64_t> lane_id{};
    Lanes<uint64_t> first{};   // the warp's first item, 32w
    Lanes<uint64_t> size{};    // items of the chunk: 32, fewer for the last
    uint32_t active = 0;       // lanes whose chunk is not empty
};

inline WarpChunk warp_chunk(WarpOps& w, const WarpThreads& t, uint64_t n) {
    WarpChunk c;
    for_each_lane(t.live, [&](int l) {
        const uint64_t tid = t.tid(l);
        c.lane_id[l] = tid % kLanes;
        c.first[l] = tid / kLanes * kLanes;
        if (c.first[l] < n) {
            c.active |= 1u << l;
            c.size[l] = c.first[l] + kLanes > n ? n - c.first[l] : kLanes;
        }
    });
    w.compute(kTidCompute + 3);
    return c;
}

// The chunk loop `for (k = 0; k < chunk size; k++)` of the active lanes: body(mask,
// item) gets item = first + k for the lanes still in their chunk.
template <class Body>
inline void for_each_chunk_item(WarpOps& w, const WarpChunk& c, Body&& body) {
    Lanes<uint64_t> item{};
    for (uint64_t k = 0;; ++k) {
        const uint32_t m = lanes_where(c.active, [&](int l) { return k < c.size[l]; });
        w.compute(kLoopCompute);
        if (m == 0) return;
        for_each_lane(m, [&](int l) { item[l] = c.first[l] + k; });
        body(m, static_cast<const Lanes<uint64_t>&>(item));
    }
}

// The host loop of the topology-driven kernels, `do { changed = false; kernel<<<>>>(...,
// curr, changed); curr++; } while (changed)`: launch_level(curr, changed) launches
// level `curr` and returns whether the launch ran; a kernel sets `changed`. `launches`
// counts the launches that ran. Returns false when the launch cap ended the loop.
template <class LaunchLevel>
inline bool repeat_while_changed(int& launches, LaunchLevel&& launch_level) {
    uint32_t curr = 0;
    bool changed = false;
    do {
        changed = false;
        if (!launch_level(curr, changed)) return false;
        ++launches;
        ++curr;
    } while (changed);
    return true;
}

struct StoreSite {
    uint64_t pc;
    const DeviceArray* array;
};

// GraphBIG's initialize<<<>>> kernels: every thread tid < n stores element tid of each
// array in turn. The values are the caller's to set on the host side.
inline void init_kernel(GraphLauncher& launcher, const char* name, uint64_t n,
                        std::initializer_list<StoreSite> stores) {
    launcher.launch_init(KernelDesc{name}, one_thread_per_item(n),
                         [&](WarpOps& w, const WarpThreads& t) {
                             Lanes<uint64_t> tid;
                             const uint32_t m = thread_ids(t, n, tid);
                             w.compute(kTidCompute);
                             for (const StoreSite& s : stores) w.store_seq(s.pc, m, *s.array, t.first_tid());
                         });
}

}  // namespace zng::workloads::graph
