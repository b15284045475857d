#include "gpu_model/register.hpp"

#include "gpu_model/cache/l1_data_cache.hpp"
#include "gpu_model/gpu.hpp"
#include "gpu_model/interconnect/crossbar.hpp"
#include "gpu_model/l2/l2_config.hpp"
#include "gpu_model/l2/l2_policy.hpp"
#include "gpu_model/l2/prefetch/register_prefetch.hpp"
#include "gpu_model/sm/sm_config.hpp"
#include "gpu_model/sm/warp_scheduler.hpp"
#include "gpu_model/tlb/first_touch_translator.hpp"
#include "gpu_model/tlb/l1_tlb.hpp"
#include "gpu_model/tlb/mmu.hpp"

namespace zng {

void register_gpu_model_components() {
    gpu::register_warp_schedulers();
    gpu::register_l2_policies();
    gpu::register_l2_prefetch_components();
    gpu::register_first_touch_translator();
    // Sections that are not chosen by `type:` still document themselves.
    SchemaCatalog& catalog = SchemaCatalog::global();
    catalog.add(&gpu::Gpu::schema());
    catalog.add(&gpu::SmConfig::schema());
    catalog.add(&gpu::L1Config::schema());
    catalog.add(&gpu::L1TlbConfig::schema());
    catalog.add(&gpu::MmuConfig::schema());
    catalog.add(&gpu::CrossbarConfig::schema());
    catalog.add(&gpu::L2Config::schema());
}

}  // namespace zng
