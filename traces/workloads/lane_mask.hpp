// Active masks of a warp run in lockstep on the host: the lanes of a mask one by one,
// and the mask that a branch leaves.
#pragma once

#include <bit>
#include <cstdint>

namespace zng::workloads {

// Calls f(lane) for every lane set in mask, lowest lane first (the order in which the
// hardware serialises conflicting atomics of one warp instruction).
template <class F>
inline void for_each_lane(uint32_t mask, F&& f) {
    for (uint32_t m = mask; m != 0; m &= m - 1) f(std::countr_zero(m));
}

// The lanes of `mask` for which pred(lane) holds: the active mask after a branch.
template <class P>
inline uint32_t lanes_where(uint32_t mask, P&& pred) {
    uint32_t out = 0;
    for_each_lane(mask, [&](int lane) {
        if (pred(lane)) out |= 1u << lane;
    });
    return out;
}

}  // namespace zng::workloads
