// Registers the memory back ends of this folder (gddr5, optane, fixed_latency) in the
// "memory" slot. Safe to call more than once.
#pragma once

namespace zng::memory {

void register_gpu_memory_components();

}  // namespace zng::memory
