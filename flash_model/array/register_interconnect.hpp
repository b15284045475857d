// How a page moves between a register and a plane that is not the register's home
// when the registers of a package are grouped (paper IV-C, Fig. 8c / 9; slot
// "flash_register_interconnect"):
//  - fcnet: fully connected; every register reaches every plane directly, no extra time;
//  - nif:   Network-in-Flash; the page crosses the package's local network between the
//           two planes' data registers (page / width cycles of the NiF clock), one move
//           at a time per data register, moves between other planes in parallel;
//  - swnet: software; the controller copies the page out through an I/O port and the
//           flash network into its buffer and back in to the remote register.
#pragma once
#include <cstdint>
#include <memory>

#include "sim/config/registry.hpp"
#include "sim/core/simulator.hpp"

namespace zng::flash {

class FlashPackage;

class RegisterInterconnect {
public:
    virtual ~RegisterInterconnect() = default;
    // Moves `bytes` between the registers of plane `from` and plane `to` of `pkg`, then
    // calls pkg.migration_done(txn).
    virtual void migrate(FlashPackage& pkg, uint32_t from, uint32_t to, uint32_t bytes, uint32_t txn) = 0;
};

// Created once per package: args are the simulator and the package's plane count.
using RegisterInterconnectSlot = Slot<RegisterInterconnect, Simulator&, uint32_t>;
RegisterInterconnectSlot& register_interconnect_slot();
void register_register_interconnects();

}  // namespace zng::flash
