#include "gpu_model/l2/prefetch/register_prefetch.hpp"

#include <memory>

#include "gpu_model/l2/prefetch/zng_l2_policy.hpp"

namespace zng::gpu {

void register_l2_prefetch_components() {
    l2_policy_slot().add(ZngL2Policy::schema(), [](const Params& p, Simulator& sim, const L2PolicyContext& ctx) {
        return std::make_unique<ZngL2Policy>(sim, ctx, ZngL2Policy::read(p, ctx));
    });
}

}  // namespace zng::gpu
