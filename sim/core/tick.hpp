// Simulated time: a 64-bit count of picoseconds. Cycle <-> tick conversion is the
// job of ClockDomain and nowhere else.
#pragma once
#include <cstdint>
#include <limits>

namespace zng {

using Tick = uint64_t;
using Cycle = uint64_t;

constexpr Tick kMaxTick = std::numeric_limits<Tick>::max();
constexpr Tick kPicosecond = 1;
constexpr Tick kNanosecond = 1000;
constexpr Tick kMicrosecond = 1000 * kNanosecond;
constexpr Tick kMillisecond = 1000 * kMicrosecond;
constexpr Tick kSecond = 1000 * kMillisecond;

inline double ticks_to_seconds(Tick t) { return static_cast<double>(t) / static_cast<double>(kSecond); }

}  // namespace zng
