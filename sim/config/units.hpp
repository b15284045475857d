// Parsing of quantities written with units in configs and on the command line:
// time (ps ns us ms s), frequency (Hz kHz MHz GHz), transfer rate (T/s kT/s MT/s GT/s),
// size (B, KiB MiB GiB TiB binary; KB MB GB TB decimal), bandwidth (B/s .. TB/s and
// KiB/s .. GiB/s). Each parser throws std::invalid_argument with a message that says
// what was expected; callers add the file, line and key.
#pragma once
#include <cstdint>
#include <string>

#include "sim/core/tick.hpp"

namespace zng::units {

Tick parse_time(const std::string& text);            // -> picoseconds (exact, integral)
uint64_t parse_frequency(const std::string& text);   // -> Hz
uint64_t parse_rate(const std::string& text);        // -> transfers per second
uint64_t parse_size(const std::string& text);        // -> bytes
double parse_bandwidth(const std::string& text);     // -> bytes per second

// Human-readable forms used by `config describe` and summaries.
std::string format_time(Tick ps);
std::string format_size(uint64_t bytes);
std::string format_frequency(uint64_t hz);
std::string format_bandwidth(double bytes_per_second);

}  // namespace zng::units
