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
    // A policy whose choice among any candidates is the first of them in one order of
    // all registers that it keeps (and whose choice moves no state) says so, and lets a
    // search walk that order and stop at the first register it may take, instead of
    // listing every candidate and asking about each (a package holds up to 512
    // registers, and whether a dirty one may be programmed is a question to the FTL).
    // Past the last register the walk gets kEndOfOrder. Other policies (random) keep no
    // such order.
    static constexpr uint32_t kEndOfOrder = UINT32_MAX;
    virtual bool keeps_order() const { return false; }
    virtual uint32_t first_in_order() const { return kEndOfOrder; }
    // The register after each register in that order (valid while no register is
    // filled or accessed), or null.
    virtual const uint32_t* next_in_order() const { return nullptr; }
};

using RegisterReplacementSlot = Slot<RegisterReplacementPolicy>;
RegisterReplacementSlot& register_replacement_slot();
void register_replacement_policies();

}  // namespace zng::flash
