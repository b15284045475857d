// Registers every mmu_ftl component implementation in its slot: the translators
// (zng_dbmt, hetero_host), the memory back end (hybridgpu) and the wear-levelling
// policies. Safe to call more than once.
#pragma once

namespace zng::ftl {
void register_mmu_ftl_components();
}
