// The instruction-issue side of one warp of a graph kernel: turns per-lane element
// indices into a warp memory record. When the launch is not traced (a skipped init
// kernel) the same kernel code runs with issuing switched off.
#pragma once

#include <cstdint>

#include "traces/workloads/graph/simt.hpp"
#include "traces/workloads/kernel_emitter.hpp"

namespace zng::workloads::graph {

// One cudaMalloc'ed array as the kernels index it.
struct DeviceArray {
    uint64_t base = 0;
    uint8_t elem = 0;       // element size in bytes (8 for CSR arrays, 4 for properties, 1 for flags)
    uint64_t count = 0;
    uint64_t addr(uint64_t i) const { return base + i * elem; }
};

class WarpOps {
public:
    explicit WarpOps(WarpEmitter* e = nullptr) : e_(e) {}
    void bind(WarpEmitter* e) { e_ = e; }
    bool traced() const { return e_ != nullptr; }

    void compute(uint32_t n) {
        if (e_) e_->compute(n);
    }
    // Global accesses: lane l touches a[idx[l]] for l in mask.
    void load(uint64_t pc, uint32_t mask, const DeviceArray& a, const Lanes<uint64_t>& idx) {
        if (e_) e_->load(pc, mask, gather(mask, a, idx), a.elem);
    }
    void store(uint64_t pc, uint32_t mask, const DeviceArray& a, const Lanes<uint64_t>& idx) {
        if (e_) e_->store(pc, mask, gather(mask, a, idx), a.elem);
    }
    void atomic(uint64_t pc, uint32_t mask, const DeviceArray& a, const Lanes<uint64_t>& idx) {
        if (e_) e_->atomic(pc, mask, gather(mask, a, idx), a.elem);
    }
    // Every active lane touches the same element (a warp-uniform index, a flag, a counter).
    void load_one(uint64_t pc, uint32_t mask, const DeviceArray& a, uint64_t i) {
        if (e_) e_->load_strided(pc, mask, a.addr(i), 0, a.elem);
    }
    void store_one(uint64_t pc, uint32_t mask, const DeviceArray& a, uint64_t i) {
        if (e_) e_->store_strided(pc, mask, a.addr(i), 0, a.elem);
    }
    void atomic_one(uint64_t pc, uint32_t mask, const DeviceArray& a, uint64_t i) {
        if (e_) e_->atomic_strided(pc, mask, a.addr(i), 0, a.elem);
    }
    // Lane l touches a[first + l] (thread-indexed, coalesced).
    void load_seq(uint64_t pc, uint32_t mask, const DeviceArray& a, uint64_t first) {
        if (e_) e_->load_strided(pc, mask, a.addr(first), a.elem, a.elem);
    }
    void store_seq(uint64_t pc, uint32_t mask, const DeviceArray& a, uint64_t first) {
        if (e_) e_->store_strided(pc, mask, a.addr(first), a.elem, a.elem);
    }

    // Per-thread local memory (arrays indexed at run time). The hardware interleaves a
    // thread's elements across the lanes of its warp so that the same index is
    // coalesced: element i of lane l lives at i * 32 * size + l * size of the warp's
    // window (trace::local_window_offset); the SM places the window in the frame of
    // the warp slot that runs it.
    void local_load(uint64_t pc, uint32_t mask, const Lanes<uint32_t>& idx, uint8_t size) {
        if (e_) e_->load(pc, mask, local(mask, idx, size), size, trace::MemSpace::Local);
    }
    void local_store(uint64_t pc, uint32_t mask, const Lanes<uint32_t>& idx, uint8_t size) {
        if (e_) e_->store(pc, mask, local(mask, idx, size), size, trace::MemSpace::Local);
    }
    // __shared__ memory: byte offsets within the CTA's allocation.
    void shared_load(uint64_t pc, uint32_t mask, const Lanes<uint32_t>& offset, uint8_t size) {
        if (e_) e_->load(pc, mask, widen(mask, offset), size, trace::MemSpace::Shared);
    }
    void shared_store(uint64_t pc, uint32_t mask, const Lanes<uint32_t>& offset, uint8_t size) {
        if (e_) e_->store(pc, mask, widen(mask, offset), size, trace::MemSpace::Shared);
    }

private:
    const LaneAddrs& gather(uint32_t mask, const DeviceArray& a, const Lanes<uint64_t>& idx) {
        for_each_lane(mask, [&](int l) { addr_[l] = a.base + idx[l] * a.elem; });
        return addr_;
    }
    const LaneAddrs& local(uint32_t mask, const Lanes<uint32_t>& idx, uint8_t size) {
        for_each_lane(mask, [&](int l) {
            addr_[l] = trace::local_window_offset(uint64_t{idx[l]} * size, l, size);
        });
        return addr_;
    }
    const LaneAddrs& widen(uint32_t mask, const Lanes<uint32_t>& offset) {
        for_each_lane(mask, [&](int l) { addr_[l] = offset[l]; });
        return addr_;
    }

    WarpEmitter* e_;
    LaneAddrs addr_{};
};

}  // namespace zng::workloads::graph
