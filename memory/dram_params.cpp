#include "memory/dram_params.hpp"

#include <fmt/format.h>

#include <cmath>

#include "memory/address_mapping.hpp"

namespace zng::memory {

namespace {
using namespace param_kind;
const auto kBusWidth =
    Param<UInt32>("bus_width", "64", "data bus width of one channel, bits (a multiple of 8)").range(8, 1024);
const auto kBurstLength = Param<UInt32>("burst_length", "8", "data beats per column command").range(1, 64);
const auto kWriteHigh =
    Param<Real>("write_high_watermark", "0.75",
                "fraction of the write queue at which the controller switches to draining writes")
        .range(0, 1);
const auto kWriteLow =
    Param<Real>("write_low_watermark", "0.25",
                "fraction of the write queue at which draining stops if reads are waiting")
        .range(0, 1);
const auto kPagePolicy = Param<Choice>("page_policy", "open",
                                       "open: rows stay open until a conflict or refresh; closed: precharge after "
                                       "each access unless another queued request hits the row")
                             .choices({"open", "closed"});
const auto kRowHitCap =
    Param<UInt32>("row_hit_cap", "0", "column accesses after which an open row loses its FR-FCFS priority (0 = never)")
        .range(0, 1e9);
const auto kFrontendLatency =
    Param<Time>("frontend_latency", "0ns", "time from a request's arrival until the scheduler may act on it").min(0);
}  // namespace

DramParams::DramParams(const std::string& clock, const std::string& data_rate, const std::string& read_queue,
                       const std::string& write_queue)
    : clock_(Param<Frequency>("command_clock", clock, "command/address clock (CK) of the channel").min(1)),
      data_rate_(
          Param<Rate>("data_rate", data_rate, "data transfers per second per pin (a multiple of the clock)").min(1)),
      read_queue_(Param<UInt32>("read_queue", read_queue, "read queue entries per channel").range(1, 65536)),
      write_queue_(Param<UInt32>("write_queue", write_queue, "write queue entries per channel").range(1, 65536)) {}

std::vector<ParamSpec> DramParams::specs() const {
    std::vector<ParamSpec> s = AddressMapping::params();
    s.insert(s.end(), {clock_, data_rate_, kBusWidth, kBurstLength, read_queue_, write_queue_, kWriteHigh, kWriteLow,
                       kPagePolicy, kRowHitCap, kFrontendLatency});
    return s;
}

std::vector<ParamSpec> DramParams::around(std::vector<ParamSpec> before, const std::vector<ParamSpec>& after) const {
    const std::vector<ParamSpec> shared = specs();
    before.insert(before.end(), shared.begin(), shared.end());
    before.insert(before.end(), after.begin(), after.end());
    return before;
}

void DramParams::read_bus(const Params& p, const ClockDomain& clock, DramTiming& t) const {
    const uint64_t rate = p[data_rate_];
    const uint64_t hz = clock.frequency_hz();
    if (rate % hz != 0)
        p.fail(data_rate_.key(), fmt::format("{} T/s is not a whole multiple of the command clock ({} Hz)", rate, hz));
    const uint64_t beats_per_cycle = rate / hz;
    const uint32_t width = p[kBusWidth];
    if (width % 8 != 0) p.fail(kBusWidth.key(), fmt::format("{} bits is not a whole number of bytes", width));
    const uint32_t bl = p[kBurstLength];
    if (bl % beats_per_cycle != 0)
        p.fail(kBurstLength.key(), fmt::format("a burst of {} beats does not fill whole clock cycles at {} beats/cycle",
                                               bl, beats_per_cycle));
    t.burst = bl / beats_per_cycle;
    t.burst_bytes = width / 8 * bl;
}

Cycle read_cycles(const Params& p, const Param<param_kind::Time>& param, const ClockDomain& clock) {
    return cycles_at_least(clock, p[param]);
}

void DramParams::read_controller(const Params& p, const ClockDomain& clock, DramChannelConfig& cfg) const {
    cfg.read_queue = p[read_queue_];
    cfg.write_queue = p[write_queue_];
    const double hi = p[kWriteHigh];
    const double lo = p[kWriteLow];
    if (lo > hi)
        p.fail(kWriteLow.key(), fmt::format("low watermark {} is above the high watermark {}", lo, hi));
    cfg.write_high = std::max<uint32_t>(1, static_cast<uint32_t>(std::ceil(hi * cfg.write_queue)));
    cfg.write_low = static_cast<uint32_t>(std::floor(lo * cfg.write_queue));
    cfg.close_page = p[kPagePolicy] == "closed";
    cfg.row_hit_cap = p[kRowHitCap];
    cfg.timing.frontend = read_cycles(p, kFrontendLatency, clock);
}

double DramParams::bus_peak(const Params& p) const {
    return static_cast<double>(p[data_rate_]) * static_cast<double>(p[kBusWidth] / 8);
}

}  // namespace zng::memory
