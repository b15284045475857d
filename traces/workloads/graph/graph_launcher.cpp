#include "traces/workloads/graph/graph_launcher.hpp"

namespace zng::workloads::graph {

LaunchShape one_thread_per_item(uint64_t items) {
    if (items == 0) return LaunchShape{0, 0};
    const uint32_t threads = items < kMaxThreadsPerBlock ? static_cast<uint32_t>(items)
                                                         : kMaxThreadsPerBlock;
    return LaunchShape{static_cast<uint32_t>((items + threads - 1) / threads), threads};
}

GraphLauncher::GraphLauncher(WorkloadContext* ctx, int default_cap, bool profile_skips_init)
    : ctx_(ctx), cap_(default_cap) {
    skip_init_ = ctx_ && (ctx_->options().skip_init ||
                          (profile_skips_init && ctx_->options().max_launches == -1));
}

}  // namespace zng::workloads::graph
