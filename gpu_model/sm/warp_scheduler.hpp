// Warp scheduler policy (slot "warp_scheduler", chosen with `scheduler: {type: gto}`).
// The SM owns the mechanics (which warps can issue this cycle); the policy only orders
// the candidates. An SM has several schedulers, each over its own subset of warp slots.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu_model/common/warp_mask.hpp"
#include "sim/config/registry.hpp"

namespace zng::gpu {

class WarpScheduler {
public:
    virtual ~WarpScheduler() = default;
    // A new warp entered `slot`; `age` grows with launch order (smaller = older).
    virtual void warp_started(uint32_t slot, uint64_t age) = 0;
    // The candidate to issue next among `candidates` (non-empty), or WarpMask::kNone.
    virtual uint32_t pick(const WarpMask& candidates) = 0;
    // `slot` issued an instruction this cycle.
    virtual void issued(uint32_t slot) = 0;
};

struct SchedulerContext {
    uint32_t max_warps = 0;
};

using WarpSchedulerSlot = Slot<WarpScheduler, const SchedulerContext&>;
WarpSchedulerSlot& warp_scheduler_slot();

// Greedy-then-oldest: keep issuing the last warp while it can issue, else the oldest
// ready warp (Rogers et al., MICRO'12; GPGPU-Sim's "gto").
class GtoScheduler final : public WarpScheduler {
public:
    explicit GtoScheduler(uint32_t max_warps);
    void warp_started(uint32_t slot, uint64_t age) override;
    uint32_t pick(const WarpMask& candidates) override;
    void issued(uint32_t slot) override { last_ = slot; }

private:
    // A warp's key is its age above its slot number: the smallest key is the oldest warp,
    // the lower slot among equal ages.
    static constexpr uint32_t kSlotBits = 8;
    static constexpr uint64_t kSlotMask = (uint64_t{1} << kSlotBits) - 1;
    static_assert(WarpMask::kMaxWarps <= kSlotMask + 1);
    std::vector<uint64_t> key_;  // per slot
    uint32_t last_ = WarpMask::kNone;
};

// Loose round-robin: the first candidate after the warp that issued last.
class LrrScheduler final : public WarpScheduler {
public:
    void warp_started(uint32_t, uint64_t) override {}
    uint32_t pick(const WarpMask& candidates) override;
    void issued(uint32_t slot) override { last_ = slot; }

private:
    uint32_t last_ = WarpMask::kNone;
};

void register_warp_schedulers();

}  // namespace zng::gpu
