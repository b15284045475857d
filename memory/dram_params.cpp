#include "memory/dram_params.hpp"

#include <fmt/format.h>

#include <cmath>

namespace zng::memory {

std::vector<ParamSpec> dram_bus_params(const std::string& clock, const std::string& data_rate) {
    return {
        param("command_clock", ParamType::Frequency, clock, "command/address clock (CK) of the channel", 1),
        param("data_rate", ParamType::Rate, data_rate, "data transfers per second per pin (a multiple of the clock)",
              1),
        param("bus_width", ParamType::UInt, "64", "data bus width of one channel, bits (a multiple of 8)", 8, 1024),
        param("burst_length", ParamType::UInt, "8", "data beats per column command", 1, 64),
    };
}

std::vector<ParamSpec> dram_controller_params(const std::string& read_queue, const std::string& write_queue) {
    ParamSpec policy = choice_param("page_policy", "open",
                                    "open: rows stay open until a conflict or refresh; closed: precharge after "
                                    "each access unless another queued request hits the row",
                                    {"open", "closed"});
    return {
        param("read_queue", ParamType::UInt, read_queue, "read queue entries per channel", 1, 65536),
        param("write_queue", ParamType::UInt, write_queue, "write queue entries per channel", 1, 65536),
        param("write_high_watermark", ParamType::Real, "0.75",
              "fraction of the write queue at which the controller switches to draining writes", 0, 1),
        param("write_low_watermark", ParamType::Real, "0.25",
              "fraction of the write queue at which draining stops if reads are waiting", 0, 1),
        policy,
        param("row_hit_cap", ParamType::UInt, "0",
              "column accesses after which an open row loses its FR-FCFS priority (0 = never)", 0, 1e9),
        param("frontend_latency", ParamType::Time, "0ns",
              "time from a request's arrival until the scheduler may act on it", 0),
    };
}

void read_dram_bus(const Params& p, const ClockDomain& clock, DramTiming& t) {
    const uint64_t rate = p.rate("data_rate");
    const uint64_t hz = clock.frequency_hz();
    if (rate % hz != 0)
        p.fail("data_rate", fmt::format("{} T/s is not a whole multiple of the command clock ({} Hz)", rate, hz));
    const uint64_t beats_per_cycle = rate / hz;
    const uint32_t width = p.u32("bus_width");
    if (width % 8 != 0) p.fail("bus_width", fmt::format("{} bits is not a whole number of bytes", width));
    const uint32_t bl = p.u32("burst_length");
    if (bl % beats_per_cycle != 0)
        p.fail("burst_length", fmt::format("a burst of {} beats does not fill whole clock cycles at {} beats/cycle",
                                           bl, beats_per_cycle));
    t.burst = bl / beats_per_cycle;
    t.burst_bytes = width / 8 * bl;
}

Cycle read_cycles(const Params& p, const std::string& key, const ClockDomain& clock) {
    return cycles_at_least(clock, p.time(key));
}

void read_dram_controller(const Params& p, const ClockDomain& clock, DramChannelConfig& cfg) {
    cfg.read_queue = p.u32("read_queue");
    cfg.write_queue = p.u32("write_queue");
    const double hi = p.real("write_high_watermark");
    const double lo = p.real("write_low_watermark");
    if (lo > hi)
        p.fail("write_low_watermark",
               fmt::format("low watermark {} is above the high watermark {}", lo, hi));
    cfg.write_high = std::max<uint32_t>(1, static_cast<uint32_t>(std::ceil(hi * cfg.write_queue)));
    cfg.write_low = static_cast<uint32_t>(std::floor(lo * cfg.write_queue));
    cfg.close_page = p.str("page_policy") == "closed";
    cfg.row_hit_cap = p.u32("row_hit_cap");
    cfg.timing.frontend = read_cycles(p, "frontend_latency", clock);
}

double dram_bus_peak(const Params& p) {
    return static_cast<double>(p.rate("data_rate")) * static_cast<double>(p.u32("bus_width") / 8);
}

}  // namespace zng::memory
