// Timing constraints of a DRAM-like device, in cycles of the controller's command
// clock. Datasheets give most of them in ns; a controller programs them as whole
// cycles rounded up, which is what cycles_at_least() does.
#pragma once
#include <cstdint>

#include "sim/core/clock_domain.hpp"

namespace zng::memory {

// Smallest number of cycles of `clock` that lasts at least `t` ticks.
inline Cycle cycles_at_least(const ClockDomain& clock, Tick t) {
    Cycle n = clock.tick_to_cycle(t);
    return clock.cycles(n) >= t ? n : n + 1;
}

// Bursts a request of `size` bytes needs (at least one).
inline uint16_t bursts_for(uint32_t size, uint32_t burst_bytes) {
    const uint32_t n = size == 0 ? 1 : (size + burst_bytes - 1) / burst_bytes;
    return static_cast<uint16_t>(n > 0xffff ? 0xffff : n);
}

struct DramTiming {
    Cycle tRCD = 0;   // ACT -> column command (Optane: media read of one line)
    Cycle tCL = 0;    // read command -> first data beat
    Cycle tCWL = 0;   // write command -> first data beat
    Cycle tRP = 0;    // PRE -> ACT; 0 = closing a row is free (the ACT replaces it)
    Cycle tRAS = 0;   // ACT -> PRE
    Cycle tRTP = 0;   // read command -> PRE
    Cycle tWR = 0;    // end of write data -> PRE
    Cycle tCCD = 0;   // column command -> next column command (per burst)
    Cycle tRRD = 0;   // ACT -> ACT, different banks
    Cycle tFAW = 0;   // window holding at most four ACTs; 0 = no limit
    Cycle tWTR = 0;   // end of write data -> read command
    Cycle tRTW = 0;   // idle bus cycles between read data and write data
    Cycle tREFI = 0;  // refresh interval; 0 = no refresh
    Cycle tRFC = 0;   // refresh duration (all banks)
    Cycle tPROG = 0;  // media program of a buffered line (Optane write-back); bank busy
    Cycle burst = 1;  // data-bus cycles one burst takes
    uint32_t burst_bytes = 64;  // bytes one burst moves
    Cycle frontend = 0;         // arrival -> first cycle the scheduler may act on a request
};

}  // namespace zng::memory
