// Components whose clock comes from their own parameters (a network's, a controller's)
// inherit this before Component, so the ClockDomain exists before Component keeps a
// reference to it.
#pragma once
#include <utility>

#include "sim/core/clock_domain.hpp"

namespace zng::flash {

struct OwnedClock {
    explicit OwnedClock(ClockDomain c) : own_clock(std::move(c)) {}
    ClockDomain own_clock;
};

}  // namespace zng::flash
