// Emits one kernel launch into a TraceWriter, CTA by CTA, with a lockstep helper per
// warp: the generator runs the lanes of a warp together and reports each warp
// instruction (one PC per memory instruction site of the CUDA kernel) with its mask.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "traces/trace.hpp"

namespace zng::workloads {

using LaneAddrs = std::array<uint64_t, trace::kWarpSize>;
constexpr uint32_t kFullMask = 0xffffffffu;

// Mask of the first `n` lanes (n clamped to 0..32).
constexpr uint32_t lanes_below(int n) {
    return n <= 0 ? 0u : n >= trace::kWarpSize ? kFullMask : ((1u << n) - 1u);
}

class WarpEmitter {
public:
    // Folds `n` compute instructions into the next record of this warp.
    void compute(uint32_t n) { pending_compute_ += n; }

    // One memory instruction: lane_addr[i] is read for lanes in `mask` only. Records
    // whose active lanes follow base + lane * stride are stored strided. A mask of 0
    // means the warp branched around the instruction: nothing is issued.
    void load(uint64_t pc, uint32_t mask, const LaneAddrs& lane_addr, uint8_t size,
              trace::MemSpace space = trace::MemSpace::Global) {
        memory(trace::RecordKind::Load, pc, mask, lane_addr, size, space);
    }
    void store(uint64_t pc, uint32_t mask, const LaneAddrs& lane_addr, uint8_t size,
               trace::MemSpace space = trace::MemSpace::Global) {
        memory(trace::RecordKind::Store, pc, mask, lane_addr, size, space);
    }
    void atomic(uint64_t pc, uint32_t mask, const LaneAddrs& lane_addr, uint8_t size,
                trace::MemSpace space = trace::MemSpace::Global) {
        memory(trace::RecordKind::Atomic, pc, mask, lane_addr, size, space);
    }

    // Fast paths for addresses already known to be base + lane * stride.
    void load_strided(uint64_t pc, uint32_t mask, uint64_t base, int64_t stride, uint8_t size,
                      trace::MemSpace space = trace::MemSpace::Global) {
        strided(trace::RecordKind::Load, pc, mask, base, stride, size, space);
    }
    void store_strided(uint64_t pc, uint32_t mask, uint64_t base, int64_t stride, uint8_t size,
                       trace::MemSpace space = trace::MemSpace::Global) {
        strided(trace::RecordKind::Store, pc, mask, base, stride, size, space);
    }
    void atomic_strided(uint64_t pc, uint32_t mask, uint64_t base, int64_t stride, uint8_t size,
                        trace::MemSpace space = trace::MemSpace::Global) {
        strided(trace::RecordKind::Atomic, pc, mask, base, stride, size, space);
    }

    // __syncthreads(): every warp of the CTA reaches it (the caller emits it for each),
    // with all its lanes that exist in the block (a partial last warp has fewer).
    void barrier(uint64_t pc) { barrier(pc, live_); }
    void barrier(uint64_t pc, uint32_t mask);

    // Storage I/O (trace format 3): lanes of `mask` each move `bytes` between storage
    // byte offset base + lane * stride and GPU address dest + lane * dest_stride, into
    // group `tag` of the CTA; io_wait blocks the warp until the group's requests
    // submitted before it have completed.
    void io_submit_strided(uint64_t pc, uint32_t mask, bool write, uint32_t bytes, uint32_t tag, uint64_t base,
                           int64_t stride, uint64_t dest, int64_t dest_stride);
    void io_submit(uint64_t pc, uint32_t mask, bool write, uint32_t bytes, uint32_t tag, const LaneAddrs& offsets,
                   uint64_t dest, int64_t dest_stride);
    void io_wait(uint64_t pc, uint32_t tag);
    // Work given as a time (trace format 3): the warp stays busy for `duration_ps`.
    void phase(uint64_t pc, uint64_t duration_ps);

    // Lanes of this warp that are threads of the block.
    uint32_t live_lanes() const { return live_; }

    // Instructions reported for this warp in the current CTA (records' instructions()).
    uint64_t instructions() const { return instructions_; }

private:
    friend class KernelEmitter;
    void reset(trace::TraceWriter* w, uint32_t index, uint32_t live);
    void memory(trace::RecordKind kind, uint64_t pc, uint32_t mask, const LaneAddrs& lane_addr,
                uint8_t size, trace::MemSpace space);
    void strided(trace::RecordKind kind, uint64_t pc, uint32_t mask, uint64_t base, int64_t stride,
                 uint8_t size, trace::MemSpace space);
    void emit(trace::RecordKind kind, uint64_t pc);   // fills kind/pc/compute of rec_, writes it
    void finish();                                    // Exit carrying trailing compute

    trace::TraceWriter* writer_ = nullptr;
    uint32_t index_ = 0;
    uint32_t live_ = kFullMask;
    uint32_t pending_compute_ = 0;
    uint64_t instructions_ = 0;
    trace::WarpRecord rec_;   // reused: no per-record allocation
};

// Address pattern of the active lanes: strided when every active lane's address is
// base + lane * stride (a lone active lane is stride 0). Exposed for testing.
bool detect_stride(uint32_t mask, const LaneAddrs& lane_addr, uint64_t& base, int64_t& stride);

class KernelEmitter {
public:
    KernelEmitter(trace::TraceWriter& w, const trace::KernelInfo& k);   // begin_kernel
    // Ends the launch if end() was not called, unless an exception is unwinding.
    // Prefer end(): errors from the writer then surface as ordinary exceptions even
    // when the emitter lives inside a container whose destructor is noexcept.
    ~KernelEmitter() noexcept(false);
    KernelEmitter(const KernelEmitter&) = delete;
    KernelEmitter& operator=(const KernelEmitter&) = delete;

    void begin_cta(uint64_t cta_id);
    // Warp `w` of the current CTA; throws std::out_of_range past warps_per_cta().
    WarpEmitter& warp(uint32_t w);
    void end_cta();
    // Closes an open CTA and ends the launch (end_kernel). Nothing may follow.
    void end();

    const trace::KernelInfo& info() const { return info_; }
    uint32_t warps_per_cta() const { return static_cast<uint32_t>(warps_.size()); }

private:
    trace::TraceWriter& writer_;
    trace::KernelInfo info_;
    std::vector<WarpEmitter> warps_;
    bool in_cta_ = false;
    bool ended_ = false;
    int uncaught_at_start_;
};

}  // namespace zng::workloads
