#include "gpu_model/l2/l2_policy.hpp"

#include <memory>

namespace zng::gpu {

L2PolicySlot& l2_policy_slot() {
    static L2PolicySlot slot("l2_policy");
    return slot;
}

namespace {
// The plain cache: every hook keeps its default.
class NoL2Policy final : public L2Policy {};
}  // namespace

void register_l2_policies() {
    l2_policy_slot().add({.slot = "",
                          .name = "none",
                          .description = "no prefetch, no bypass, no pinning: a plain write-back cache",
                          .params = {},
                          .ports = {}},
                         [](const Params&, Simulator&, const L2PolicyContext&) {
                             return std::make_unique<NoL2Policy>();
                         });
}

}  // namespace zng::gpu
