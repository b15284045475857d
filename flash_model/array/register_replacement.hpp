// Which flash register gives up its page when a new page needs one (slot
// "flash_register_replacement": lru, fifo, random). Registers that are busy (data in
// flight) are never candidates; the register file asks only about idle ones.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sim/config/registry.hpp"

namespace zng::flash {

class RegisterReplacementPolicy {
public:
    virtual ~RegisterReplacementPolicy() = default;
    virtual void resize(size_t registers) = 0;
    virtual void on_fill(uint32_t reg) = 0;    // a new page was placed in reg
    virtual void on_access(uint32_t reg) = 0;  // reg served a read or absorbed a write
    // Index (into candidates) of the register to evict; n > 0.
    virtual size_t choose(const uint32_t* candidates, size_t n) = 0;
};

using RegisterReplacementSlot = Slot<RegisterReplacementPolicy>;
RegisterReplacementSlot& register_replacement_slot();
void register_replacement_policies();

}  // namespace zng::flash
