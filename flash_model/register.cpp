#include "flash_model/register.hpp"

#include "flash_model/flash_spec.hpp"

namespace zng {

void register_flash_model_components() {
    (void)flash::flash_section_schema();
}

}  // namespace zng
