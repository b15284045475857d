#include "sim/core/clock_domain.hpp"

#include "sim/core/errors.hpp"

namespace zng {

ClockDomain::ClockDomain(std::string name, uint64_t frequency_hz)
    : name_(std::move(name)), freq_hz_(frequency_hz) {
    if (freq_hz_ == 0 || freq_hz_ > kSecond)
        throw ConfigError("clock domain '" + name_ + "': frequency must be between 1 Hz and 1 THz");
}

}  // namespace zng
