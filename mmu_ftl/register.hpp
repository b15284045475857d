// Registers every mmu_ftl component implementation in its slot: the translator
// (zng_dbmt), the memory back ends (hybridgpu, hetero_gpu_memory) and the
// wear-levelling policies. Safe to call more than once. (Hetero's hetero_host
// translator is registered by storage/register.hpp.)
#pragma once

namespace zng::ftl {
void register_mmu_ftl_components();
}
