// Parameters shared by the DRAM-like back ends (GDDR5, Optane DC PMM): the address
// mapping, the bus (clock, data rate, width, burst length) and the controller (queues,
// write drain watermarks, page policy), declared once. Timing parameters, written in
// time units, are each back end's own; the controller rounds them up to whole
// command-clock cycles.
#pragma once
#include <string>
#include <vector>

#include "memory/dram_channel.hpp"
#include "sim/config/params.hpp"

namespace zng::memory {

// The shared parameters with the defaults that differ between back ends (clock, data
// rate, queue sizes); a back end keeps one as a constant next to its schema.
class DramParams {
public:
    DramParams(const std::string& clock, const std::string& data_rate, const std::string& read_queue,
               const std::string& write_queue);
    // address_map, interleave, bank_hash; command_clock, data_rate, bus_width,
    // burst_length; read_queue, write_queue, write_high_watermark, write_low_watermark,
    // page_policy, row_hit_cap, frontend_latency.
    std::vector<ParamSpec> specs() const;
    // A back end's schema parameters: its own `before` (geometry), the shared ones, then
    // its own `after` (timing), in the order config describe lists them.
    std::vector<ParamSpec> around(std::vector<ParamSpec> before, const std::vector<ParamSpec>& after) const;

    uint64_t command_clock(const Params& p) const { return p[clock_]; }
    // Bus geometry into timing.burst / burst_bytes; checks that the data rate is a whole
    // multiple of the command clock and that a burst fills whole clock cycles.
    void read_bus(const Params& p, const ClockDomain& clock, DramTiming& t) const;
    // Queue sizes, watermarks and policies (timing and banks are filled by the caller).
    void read_controller(const Params& p, const ClockDomain& clock, DramChannelConfig& cfg) const;
    // Peak data-bus bandwidth of one channel, bytes per second.
    double bus_peak(const Params& p) const;

private:
    Param<param_kind::Frequency> clock_;
    Param<param_kind::Rate> data_rate_;
    Param<param_kind::UInt32> read_queue_;
    Param<param_kind::UInt32> write_queue_;
};

// A Time parameter as command-clock cycles, rounded up.
Cycle read_cycles(const Params& p, const Param<param_kind::Time>& param, const ClockDomain& clock);

}  // namespace zng::memory
