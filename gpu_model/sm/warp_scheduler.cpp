#include "gpu_model/sm/warp_scheduler.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"

namespace zng::gpu {

WarpSchedulerSlot& warp_scheduler_slot() {
    static WarpSchedulerSlot slot("warp_scheduler");
    return slot;
}

GtoScheduler::GtoScheduler(uint32_t max_warps) : key_(max_warps, 0) {}

void GtoScheduler::warp_started(uint32_t slot, uint64_t age) {
    if (age > (~uint64_t{0} >> kSlotBits) - 1) throw SimError("GTO scheduler: warp age beyond its key's range");
    key_[slot] = age << kSlotBits | slot;
}

uint32_t GtoScheduler::pick(const WarpMask& candidates) {
    if (last_ != WarpMask::kNone && candidates.test(last_)) return last_;
    // The smallest key, taken without branches over the mask's words: comparing ages
    // one by one mispredicted on most candidates.
    uint64_t best = ~uint64_t{0};
    candidates.for_each([&](uint32_t i) { best = std::min(best, key_[i]); });
    return best == ~uint64_t{0} ? WarpMask::kNone : static_cast<uint32_t>(best & kSlotMask);
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
