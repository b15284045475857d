#include "sim/core/clock_domain.hpp"

#include <limits>
#include <numeric>

#include "sim/core/errors.hpp"

namespace zng {

ClockDomain::ClockDomain(std::string name, uint64_t frequency_hz)
    : name_(std::move(name)), freq_hz_(frequency_hz) {
    if (freq_hz_ == 0 || freq_hz_ > kSecond)
        throw ConfigError("clock domain '" + name_ + "': frequency must be between 1 Hz and 1 THz");
    reduce();
}

void ClockDomain::reduce() {
    const uint64_t g = std::gcd(kSecond, freq_hz_);
    ps_per_ = kSecond / g;
    cycles_per_ = freq_hz_ / g;
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    max_cycle_fast_ = kMax / ps_per_;             // n * ps_per_ fits
    max_tick_fast_ = kMax / cycles_per_ - 1;      // (t + 1) * cycles_per_ fits
    max_edge_fast_ = (kMax - (ps_per_ - 1)) / cycles_per_;  // t * cycles_per_ + ps_per_ - 1 fits
    by_ps_per_ = libdivide::divider<uint64_t>(ps_per_);
    by_cycles_per_ = libdivide::divider<uint64_t>(cycles_per_);
}

}  // namespace zng
