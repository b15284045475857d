#include "mmu_ftl/wear/fifo_pool.hpp"
#include "mmu_ftl/wear/least_erased_pool.hpp"

namespace zng::ftl {

void register_wear_leveling_policies() {
    auto& slot = wear_leveling_slot();
    slot.add(LeastErasedPool::schema(), [](const Params&, uint32_t units, uint32_t blocks) {
        return std::make_unique<LeastErasedPool>(units, blocks);
    });
    slot.add(FifoPool::schema(), [](const Params&, uint32_t units, uint32_t blocks) {
        return std::make_unique<FifoPool>(units, blocks);
    });
}

}  // namespace zng::ftl
