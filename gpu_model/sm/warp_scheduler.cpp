#include "gpu_model/sm/warp_scheduler.hpp"

#include <algorithm>

namespace zng::gpu {

WarpSchedulerSlot& warp_scheduler_slot() {
    static WarpSchedulerSlot slot("warp_scheduler");
    return slot;
}

GtoScheduler::GtoScheduler(uint32_t max_warps) { by_age_.reserve(max_warps); }

void GtoScheduler::warp_started(uint32_t slot, uint64_t age) {
    // The slot's previous warp (if any) leaves the order; the new one enters at its age,
    // ties broken by slot as the candidates' order did.
    std::erase_if(by_age_, [slot](const Aged& a) { return a.slot == slot; });
    const Aged entry{age, slot};
    const auto at = std::upper_bound(by_age_.begin(), by_age_.end(), entry, [](const Aged& x, const Aged& y) {
        return x.age != y.age ? x.age < y.age : x.slot < y.slot;
    });
    by_age_.insert(at, entry);
}

uint32_t GtoScheduler::pick(const WarpMask& candidates) {
    if (last_ != WarpMask::kNone && candidates.test(last_)) return last_;
    for (const Aged& a : by_age_)
        if (candidates.test(a.slot)) return a.slot;
    return WarpMask::kNone;
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
