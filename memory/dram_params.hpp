// Schema entries and readers shared by the DRAM-like back ends (GDDR5, Optane DC PMM):
// the bus (clock, data rate, width, burst length), the controller (queues, write
// drain watermarks, page policy) and timing parameters written in time units that the
// controller rounds up to whole command-clock cycles.
#pragma once
#include <string>
#include <vector>

#include "memory/dram_channel.hpp"
#include "memory/param_spec.hpp"
#include "sim/config/params.hpp"

namespace zng::memory {

// command_clock, data_rate, bus_width, burst_length.
std::vector<ParamSpec> dram_bus_params(const std::string& clock, const std::string& data_rate);
// read_queue, write_queue, write_high_watermark, write_low_watermark, page_policy,
// row_hit_cap, frontend_latency.
std::vector<ParamSpec> dram_controller_params(const std::string& read_queue, const std::string& write_queue);

// Bus geometry into timing.burst / burst_bytes; checks that the data rate is a whole
// multiple of the command clock and that a burst fills whole clock cycles.
void read_dram_bus(const Params& p, const ClockDomain& clock, DramTiming& t);
// A Time parameter as command-clock cycles, rounded up.
Cycle read_cycles(const Params& p, const std::string& key, const ClockDomain& clock);
// Queue sizes, watermarks and policies (timing and banks are filled by the caller).
void read_dram_controller(const Params& p, const ClockDomain& clock, DramChannelConfig& cfg);

// Peak data-bus bandwidth of one channel, bytes per second.
double dram_bus_peak(const Params& p);

}  // namespace zng::memory
