// Which waiting command a flash controller sends next to a plane (slot
// "flash_scheduler"): fifo (arrival order) or read_priority (the oldest read first, so
// that reads do not wait behind long programs; writes keep their order).
#pragma once
#include <cstddef>
#include <cstdint>

#include "flash_model/flash_transaction.hpp"
#include "sim/config/registry.hpp"

namespace zng::flash {

class FlashScheduler {
public:
    virtual ~FlashScheduler() = default;
    // Position in `waiting` (non-empty) of the command to issue.
    virtual size_t pick(const RingQueue<uint32_t>& waiting, const IndexPool<FlashTxn>& txns) = 0;
};

using FlashSchedulerSlot = Slot<FlashScheduler>;
FlashSchedulerSlot& flash_scheduler_slot();
void register_flash_schedulers();

}  // namespace zng::flash
