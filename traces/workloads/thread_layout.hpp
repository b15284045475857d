// Where the lanes of a warp sit inside a CUDA thread block: warps take consecutive
// linear thread ids (x fastest, then y, then z), 32 at a time.
#pragma once

#include <array>
#include <cstdint>

#include "traces/trace.hpp"
#include "traces/workloads/lane_mask.hpp"

namespace zng::workloads {

struct WarpThreads {
    std::array<uint32_t, trace::kWarpSize> x{}, y{}, z{};
    uint32_t live = 0;   // lanes that map to a thread of the block
};

inline WarpThreads warp_threads(const trace::Dim3& block, uint32_t warp) {
    WarpThreads t;
    const uint64_t threads = block.count();
    for (int lane = 0; lane < trace::kWarpSize; ++lane) {
        const uint64_t linear = uint64_t(warp) * trace::kWarpSize + lane;
        if (linear >= threads) break;
        t.x[lane] = static_cast<uint32_t>(linear % block.x);
        t.y[lane] = static_cast<uint32_t>((linear / block.x) % block.y);
        t.z[lane] = static_cast<uint32_t>(linear / (uint64_t(block.x) * block.y));
        t.live |= 1u << lane;
    }
    return t;
}

// Per-lane addresses addr_of(lane) for the lanes in mask (others left 0).
template <typename F>
inline std::array<uint64_t, trace::kWarpSize> lane_addresses(uint32_t mask, F&& addr_of) {
    std::array<uint64_t, trace::kWarpSize> a{};
    for_each_lane(mask, [&](int lane) { a[lane] = addr_of(lane); });
    return a;
}

}  // namespace zng::workloads
