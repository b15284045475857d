// A clock domain: a frequency, and the exact conversion between its cycles and ticks.
// Frequencies need not divide 1 THz (1.2 GHz has a period of 833.33.. ps), so the
// tick of cycle n is computed as floor(n * 1e12 / f) rather than n * rounded_period:
// the error stays below one picosecond forever instead of accumulating.
#pragma once
#include <string>

#include "sim/core/tick.hpp"

namespace zng {

class ClockDomain {
public:
    ClockDomain() = default;
    ClockDomain(std::string name, uint64_t frequency_hz);

    const std::string& name() const { return name_; }
    uint64_t frequency_hz() const { return freq_hz_; }
    // Mean period in ps (rounded): for display only, never for arithmetic.
    double period_ps() const { return 1e12 / static_cast<double>(freq_hz_); }

    // Tick at which cycle n starts (edge n).
    Tick cycle_to_tick(Cycle n) const {
        return static_cast<Tick>((static_cast<unsigned __int128>(n) * kSecond) / freq_hz_);
    }
    // The cycle in progress at tick t: the largest n with cycle_to_tick(n) <= t.
    // (floor(t * f / 1e12) would be off by one exactly on rounded-down edges.)
    Cycle tick_to_cycle(Tick t) const {
        return static_cast<Cycle>((static_cast<unsigned __int128>(t + 1) * freq_hz_ - 1) / kSecond);
    }
    // The first edge at or after t.
    Tick next_edge(Tick t) const {
        Cycle c = tick_to_cycle(t);
        Tick e = cycle_to_tick(c);
        return e == t ? e : cycle_to_tick(c + 1);
    }
    // The edge `cycles` cycles after the first edge at or after t.
    Tick edge_after(Tick t, Cycle cycles) const {
        Tick e = next_edge(t);
        return cycle_to_tick(tick_to_cycle(e) + cycles);
    }
    // Duration of `cycles` cycles counted from edge 0 (for latency arithmetic).
    Tick cycles(Cycle n) const { return cycle_to_tick(n); }

private:
    std::string name_ = "unnamed";
    uint64_t freq_hz_ = 1'000'000'000;
};

}  // namespace zng
