// Per-lane values and masks for running a CUDA warp in lockstep on the host: a kernel
// keeps one value per lane and executes every instruction for the lanes of a mask,
// so divergence (loops that run until the last lane finishes, early exits, breaks)
// falls out of the masks, as on SIMT hardware.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "traces/trace.hpp"

namespace zng::workloads::graph {

constexpr int kLanes = trace::kWarpSize;
template <class T>
using Lanes = std::array<T, kLanes>;

// Calls f(lane) for every lane set in mask, lowest lane first (the order in which the
// hardware serialises conflicting atomics of one warp instruction).
template <class F>
inline void for_each_lane(uint32_t mask, F&& f) {
    for (uint32_t m = mask; m != 0; m &= m - 1) f(std::countr_zero(m));
}

// The lanes of `mask` for which pred(lane) holds.
template <class P>
inline uint32_t lanes_where(uint32_t mask, P&& pred) {
    uint32_t out = 0;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
        const int lane = std::countr_zero(m);
        if (pred(lane)) out |= 1u << lane;
    }
    return out;
}

// GraphBIG's "not reached" marker for 32-bit vertex properties (cudaGraph.h).
constexpr uint32_t kMyInfinity = 0xffffff00u;

}  // namespace zng::workloads::graph
