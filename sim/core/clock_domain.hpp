// A clock domain: a frequency, and the exact conversion between its cycles and ticks.
// Frequencies need not divide 1 THz (1.2 GHz has a period of 833.33.. ps), so the
// tick of cycle n is computed as floor(n * 1e12 / f) rather than n * rounded_period:
// the error stays below one picosecond forever instead of accumulating.
#pragma once
#include <string>
#include <utility>

#include <libdivide.h>

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

    // Tick at which cycle n starts (edge n): floor(n * 1e12 / f), computed on the
    // reduced fraction ps_per_/cycles_per_ (e.g. 2500/3 at 1.2 GHz). Every event
    // schedule converts, so the common case stays in 64 bits and divides by
    // multiplication (libdivide: a hardware divide costs tens of cycles); the 128-bit
    // formula is kept for products that would overflow.
    Tick cycle_to_tick(Cycle n) const {
        if (n <= max_cycle_fast_) return n * ps_per_ / by_cycles_per_;
        return exact_cycle_to_tick(n);
    }
    // The cycle in progress at tick t: the largest n with cycle_to_tick(n) <= t.
    // (floor(t * f / 1e12) would be off by one exactly on rounded-down edges.)
    // floor(((t+1) f - 1) / 1e12) equals floor(((t+1) q - 1) / p) for the reduced p/q.
    Cycle tick_to_cycle(Tick t) const {
        if (t <= max_tick_fast_) return ((t + 1) * cycles_per_ - 1) / by_ps_per_;
        return exact_tick_to_cycle(t);
    }
    // The reference formulas in 128-bit arithmetic (tests compare the two).
    Tick exact_cycle_to_tick(Cycle n) const {
        return static_cast<Tick>((static_cast<unsigned __int128>(n) * kSecond) / freq_hz_);
    }
    Cycle exact_tick_to_cycle(Tick t) const {
        return static_cast<Cycle>(((static_cast<unsigned __int128>(t) + 1) * freq_hz_ - 1) / kSecond);
    }
    // Index of the first edge at or after t: the smallest n with floor(n p / q) >= t,
    // i.e. n p / q >= t, so n = ceil(t q / p) for the reduced p/q: one division, where
    // "the cycle in progress, plus one unless t is its edge" took two conversions.
    Cycle edge_cycle(Tick t) const {
        if (t <= max_edge_fast_) return (t * cycles_per_ + ps_per_ - 1) / by_ps_per_;
        return exact_edge_cycle(t);
    }
    Cycle exact_edge_cycle(Tick t) const {
        return static_cast<Cycle>((static_cast<unsigned __int128>(t) * freq_hz_ + kSecond - 1) / kSecond);
    }
    // edge_cycle(t), remembered for the last t asked (EdgeClock). One memo for the whole
    // domain: its components ask at the tick of the event being fired, so after the
    // first of them asks at a new tick, the others (an SM, its L1, the crossbar, an L2
    // bank reached in the same event) find the answer, where a memo of their own each
    // missed at every new tick.
    Cycle remembered_edge_cycle(Tick t) const {
        if (t != memo_tick_) [[unlikely]]
            remember(t);
        return memo_cycle_;
    }
    // The first edge at or after t.
    Tick next_edge(Tick t) const { return cycle_to_tick(edge_cycle(t)); }
    // The edge `cycles` cycles after the first edge at or after t.
    Tick edge_after(Tick t, Cycle cycles) const { return cycle_to_tick(edge_cycle(t) + cycles); }
    // Duration of `cycles` cycles counted from edge 0 (for latency arithmetic).
    Tick cycles(Cycle n) const { return cycle_to_tick(n); }

private:
    void reduce();
    // The memo's conversion, out of line: the hit is inlined into the callers.
    [[gnu::noinline]] void remember(Tick t) const {
        memo_cycle_ = edge_cycle(t);
        memo_tick_ = t;
    }

    std::string name_ = "unnamed";
    uint64_t freq_hz_ = 1'000'000'000;
    // 1e12 / f as a reduced fraction, and the largest arguments the 64-bit paths take.
    uint64_t ps_per_ = 1000;
    uint64_t cycles_per_ = 1;
    uint64_t max_cycle_fast_ = ~0ull / 1000;
    uint64_t max_tick_fast_ = ~0ull;
    uint64_t max_edge_fast_ = ~0ull - 999;
    libdivide::divider<uint64_t> by_ps_per_{1000};
    libdivide::divider<uint64_t> by_cycles_per_{1};
    // A cache of a pure function of the frequency (remembered_edge_cycle), so a const
    // domain may update it; a simulation runs on one thread.
    mutable Tick memo_tick_ = kMaxTick;
    mutable Cycle memo_cycle_ = 0;
};

// Components whose clock comes from their own parameters (a network's, a controller's)
// inherit this before Component, so the ClockDomain exists before Component keeps a
// reference to it.
struct OwnedClock {
    explicit OwnedClock(ClockDomain c) : own_clock(std::move(c)) {}
    ClockDomain own_clock;
};

}  // namespace zng
