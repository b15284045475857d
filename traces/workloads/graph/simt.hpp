// Per-lane values and masks for running a CUDA warp in lockstep on the host: a kernel
// keeps one value per lane and executes every instruction for the lanes of a mask,
// so divergence (loops that run until the last lane finishes, early exits, breaks)
// falls out of the masks, as on SIMT hardware.
#pragma once

#include <array>
#include <cstdint>

#include "traces/trace.hpp"
#include "traces/workloads/lane_mask.hpp"

namespace zng::workloads::graph {

constexpr int kLanes = trace::kWarpSize;
template <class T>
using Lanes = std::array<T, kLanes>;

// GraphBIG's "not reached" marker for 32-bit vertex properties (cudaGraph.h).
constexpr uint32_t kMyInfinity = 0xffffff00u;

}  // namespace zng::workloads::graph
