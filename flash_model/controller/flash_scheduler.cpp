#include "flash_model/controller/flash_scheduler.hpp"

namespace zng::flash {

FlashSchedulerSlot& flash_scheduler_slot() {
    static FlashSchedulerSlot slot("flash_scheduler");
    return slot;
}

namespace {

class FifoScheduler final : public FlashScheduler {
public:
    size_t pick(const RingQueue<uint32_t>&, const IndexPool<FlashTxn>&) override { return 0; }
};

class ReadPriorityScheduler final : public FlashScheduler {
public:
    size_t pick(const RingQueue<uint32_t>& q, const IndexPool<FlashTxn>& txns) override {
        for (size_t i = 0; i < q.size(); ++i)
            if (is_read(txns[q[i]].kind)) return i;
        return 0;
    }
};

}  // namespace

void register_flash_schedulers() {
    auto& slot = flash_scheduler_slot();
    slot.add({"", "fifo", "commands of a plane issued in arrival order", {}, {}},
             [](const Params&) { return std::make_unique<FifoScheduler>(); });
    slot.add({"", "read_priority", "the oldest waiting read of a plane first, then writes in order", {}, {}},
             [](const Params&) { return std::make_unique<ReadPriorityScheduler>(); });
}

}  // namespace zng::flash
