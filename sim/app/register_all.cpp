// Every library's components, registered explicitly (static libraries would drop
// self-registering objects that nothing references).
#include "flash_model/register.hpp"
#include "gpu_model/register.hpp"
#include "memory/register_memory.hpp"
#include "mmu_ftl/register.hpp"
#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"
#include "storage/register.hpp"

namespace zng::cli {

void register_all_components() {
    register_gpu_model_components();
    memory::register_gpu_memory_components();
    register_flash_model_components();
    ftl::register_mmu_ftl_components();
    storage::register_storage_components();
    register_platform_schemas();
}

}  // namespace zng::cli
