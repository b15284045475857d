#include "mmu_ftl/register.hpp"

#include "mmu_ftl/hetero/hetero_gpu_memory.hpp"
#include "mmu_ftl/ssd/hybridgpu_backend.hpp"
#include "mmu_ftl/wear/free_block_pool.hpp"
#include "mmu_ftl/zng/zng_dbmt_translator.hpp"

namespace zng::ftl {

void register_mmu_ftl_components() {
    register_wear_leveling_policies();
    translator_slot().add(ZngDbmtTranslator::schema(),
                          [](const Params& p, Simulator& sim, const TranslatorContext& ctx) {
                              return std::make_unique<ZngDbmtTranslator>(sim, p, ctx);
                          });
    memory_backend_slot().add(HybridGpuBackend::schema(),
                              [](const Params& p, Simulator& sim, const BackendContext& ctx) {
                                  return std::make_unique<HybridGpuBackend>(sim, p, ctx);
                              });
    memory_backend_slot().add(HeteroGpuMemory::schema(),
                              [](const Params& p, Simulator& sim, const BackendContext& ctx) {
                                  return std::make_unique<HeteroGpuMemory>(sim, p, ctx);
                              });
}

}  // namespace zng::ftl
