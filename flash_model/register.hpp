// Registers every flash_model component implementation in its slot (memory back end,
// flash networks, controller schedulers, register interconnects and replacement
// policies) and the `flash:` section schema. Safe to call more than once.
#pragma once

namespace zng {
void register_flash_model_components();
}
