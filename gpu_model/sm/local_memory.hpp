// Placement of local memory. Local memory is private to a resident thread: the hardware
// reserves it per hardware thread, not per launched thread, so a thread's local address
// is relocated by the SM into a frame owned by the warp slot it runs in, and the CTAs
// that later occupy that slot reuse the same frame. Frames are packed in the order
// (SM, warp slot) from trace::kLocalRegionBase:
//   frame base = kLocalRegionBase + (sm * max_warps + slot) * frame_bytes
// and a Local record's lane addresses (offsets in the warp's window, see trace.hpp) are
// added to it.
#pragma once
#include <cstdint>

#include "traces/trace.hpp"

namespace zng::gpu {

class LocalFrames {
public:
    LocalFrames(uint32_t sm, uint32_t max_warps, uint64_t frame_bytes)
        : sm_(sm), max_warps_(max_warps), frame_bytes_(frame_bytes) {}

    uint64_t frame_bytes() const { return frame_bytes_; }
    // Bytes of the local region the frames of SMs 0..sm use.
    uint64_t region_end() const { return (uint64_t{sm_} + 1) * max_warps_ * frame_bytes_; }
    uint64_t base(uint32_t slot) const {
        return trace::kLocalRegionBase + (uint64_t{sm_} * max_warps_ + slot) * frame_bytes_;
    }
    // Moves Local record `r` into the frame of `slot`. False (r unchanged) when an active
    // lane's access does not lie inside the frame.
    bool relocate(trace::WarpRecord& r, uint32_t slot) const {
        for (int l = 0; l < trace::kWarpSize; ++l) {
            if (!(r.active_mask >> l & 1u)) continue;
            const uint64_t off = r.lane_addr(l);
            if (off >= frame_bytes_ || frame_bytes_ - off < r.access_size) return false;
        }
        const uint64_t b = base(slot);
        if (r.strided) {
            r.base += b;
        } else {
            for (int l = 0; l < trace::kWarpSize; ++l)
                if (r.active_mask >> l & 1u) r.addr[l] += b;
        }
        return true;
    }

private:
    uint32_t sm_;
    uint32_t max_warps_;
    uint64_t frame_bytes_;
};

}  // namespace zng::gpu
