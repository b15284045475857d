// Registers ZnG's L2 policy (`zng`: read prefetch + write redirection) in the l2_policy
// slot. Safe to call more than once.
#pragma once

namespace zng::gpu {
void register_l2_prefetch_components();
}
