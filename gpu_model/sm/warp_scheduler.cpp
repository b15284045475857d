#include "gpu_model/sm/warp_scheduler.hpp"

namespace zng::gpu {

WarpSchedulerSlot& warp_scheduler_slot() {
    static WarpSchedulerSlot slot("warp_scheduler");
    return slot;
}

GtoScheduler::GtoScheduler(uint32_t max_warps) : age_(new uint64_t[max_warps]()) {}

void GtoScheduler::warp_started(uint32_t slot, uint64_t age) { age_[slot] = age; }

uint32_t GtoScheduler::pick(const WarpMask& candidates) {
    if (last_ != WarpMask::kNone && candidates.test(last_)) return last_;
    uint32_t best = WarpMask::kNone;
    for (uint32_t i = candidates.next(0); i != WarpMask::kNone; i = candidates.next(i + 1))
        if (best == WarpMask::kNone || age_[i] < age_[best]) best = i;
    return best;
}

uint32_t LrrScheduler::pick(const WarpMask& candidates) {
    return candidates.next_wrapping(last_ == WarpMask::kNone ? 0 : last_ + 1);
}

void register_warp_schedulers() {
    auto& slot = warp_scheduler_slot();
    slot.add({.slot = "",
              .name = "gto",
              .description = "greedy-then-oldest: the last warp keeps issuing while it can, then the oldest ready warp",
              .params = {},
              .ports = {}},
             [](const Params&, const SchedulerContext& c) { return std::make_unique<GtoScheduler>(c.max_warps); });
    slot.add({.slot = "",
              .name = "lrr",
              .description = "loose round-robin: the first ready warp after the one that issued last",
              .params = {},
              .ports = {}},
             [](const Params&, const SchedulerContext&) { return std::make_unique<LrrScheduler>(); });
}

}  // namespace zng::gpu
