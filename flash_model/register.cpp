#include "flash_model/register.hpp"

#include "flash_model/network/flash_network.hpp"
#include "flash_model/controller/flash_scheduler.hpp"
#include "flash_model/flash_spec.hpp"
#include "flash_model/array/register_interconnect.hpp"
#include "flash_model/array/register_replacement.hpp"
#include "flash_model/controller/zng_flash_backend.hpp"

namespace zng {

void register_flash_model_components() {
    (void)flash::flash_section_schema();
    (void)flash::ThrashingCheckerConfig::schema();  // a subsection of flash:, listed by config describe
    flash::register_flash_networks();
    flash::register_flash_schedulers();
    flash::register_register_interconnects();
    flash::register_replacement_policies();
    memory_backend_slot().add(flash::ZngFlashBackend::schema(),
                              [](const Params& p, Simulator& sim, const BackendContext& ctx) {
                                  return std::make_unique<flash::ZngFlashBackend>(sim, ctx, p);
                              });
}

}  // namespace zng
