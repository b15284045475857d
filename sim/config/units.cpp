#include "sim/config/units.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

namespace zng::units {
namespace {

struct Unit {
    const char* suffix;
    double scale;
};

// Splits "3.5 MiB" into 3.5 and "MiB"; the number must come first.
std::pair<double, std::string> split(const std::string& text, const char* what) {
    const char* s = text.c_str();
    while (*s == ' ' || *s == '\t') ++s;
    char* end = nullptr;
    double v = std::strtod(s, &end);
    if (end == s || std::isnan(v) || std::isinf(v))
        throw std::invalid_argument(fmt::format("'{}' is not a {} (expected a number followed by a unit)", text, what));
    std::string unit(end);
    size_t a = unit.find_first_not_of(" \t");
    size_t b = unit.find_last_not_of(" \t");
    unit = a == std::string::npos ? std::string() : unit.substr(a, b - a + 1);
    if (v < 0) throw std::invalid_argument(fmt::format("'{}': a {} cannot be negative", text, what));
    return {v, unit};
}

std::string unit_list(const std::vector<Unit>& units) {
    std::string out;
    for (const auto& u : units) out += (out.empty() ? "" : ", ") + std::string(u.suffix);
    return out;
}

double parse_with(const std::string& text, const std::vector<Unit>& units, const char* what,
                  bool bare_zero_ok = true) {
    auto [v, unit] = split(text, what);
    if (unit.empty() && v == 0 && bare_zero_ok) return 0;
    for (const auto& u : units)
        if (unit == u.suffix) return v * u.scale;
    throw std::invalid_argument(fmt::format("'{}' is not a {}: unit '{}' unknown (use one of {})", text, what,
                                            unit, unit_list(units)));
}

uint64_t to_integral(double v, const std::string& text, const char* what, const char* base_unit) {
    double r = std::round(v);
    if (std::fabs(v - r) > 1e-6 * std::max(1.0, std::fabs(v)))
        throw std::invalid_argument(fmt::format("'{}' is not a whole number of {} ({} {})", text, base_unit, v, base_unit));
    if (r > 1.8e19) throw std::invalid_argument(fmt::format("'{}' is too large for a {}", text, what));
    return static_cast<uint64_t>(r);
}

const std::vector<Unit> kTime = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
const std::vector<Unit> kFreq = {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
const std::vector<Unit> kRate = {{"T/s", 1}, {"kT/s", 1e3}, {"MT/s", 1e6}, {"GT/s", 1e9}};
const std::vector<Unit> kSize = {{"B", 1},
                                 {"KiB", 1024.0},
                                 {"MiB", 1024.0 * 1024},
                                 {"GiB", 1024.0 * 1024 * 1024},
                                 {"TiB", 1024.0 * 1024 * 1024 * 1024},
                                 {"KB", 1e3},
                                 {"kB", 1e3},
                                 {"MB", 1e6},
                                 {"GB", 1e9},
                                 {"TB", 1e12}};
const std::vector<Unit> kBandwidth = {{"B/s", 1},       {"KB/s", 1e3},
                                      {"kB/s", 1e3},    {"MB/s", 1e6},
                                      {"GB/s", 1e9},    {"TB/s", 1e12},
                                      {"KiB/s", 1024.0}, {"MiB/s", 1024.0 * 1024},
                                      {"GiB/s", 1024.0 * 1024 * 1024}};

}  // namespace

Tick parse_time(const std::string& text) {
    return to_integral(parse_with(text, kTime, "time"), text, "time", "ps");
}

uint64_t parse_frequency(const std::string& text) {
    uint64_t hz = to_integral(parse_with(text, kFreq, "frequency", false), text, "frequency", "Hz");
    if (hz == 0) throw std::invalid_argument(fmt::format("'{}': a frequency must be positive", text));
    return hz;
}

uint64_t parse_rate(const std::string& text) {
    uint64_t r = to_integral(parse_with(text, kRate, "transfer rate", false), text, "transfer rate", "T/s");
    if (r == 0) throw std::invalid_argument(fmt::format("'{}': a transfer rate must be positive", text));
    return r;
}

uint64_t parse_size(const std::string& text) {
    return to_integral(parse_with(text, kSize, "size"), text, "size", "bytes");
}

double parse_bandwidth(const std::string& text) { return parse_with(text, kBandwidth, "bandwidth"); }

std::string format_time(Tick ps) {
    if (ps == 0) return "0ps";
    if (ps % kMillisecond == 0) return fmt::format("{}ms", ps / kMillisecond);
    if (ps % kMicrosecond == 0) return fmt::format("{}us", ps / kMicrosecond);
    if (ps % kNanosecond == 0) return fmt::format("{}ns", ps / kNanosecond);
    return fmt::format("{}ps", ps);
}

std::string format_size(uint64_t b) {
    const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (i < 4 && b != 0 && b % 1024 == 0) {
        b /= 1024;
        ++i;
    }
    return fmt::format("{}{}", b, names[i]);
}

std::string format_frequency(uint64_t hz) {
    if (hz % 1'000'000'000 == 0) return fmt::format("{}GHz", hz / 1'000'000'000);
    if (hz % 1'000'000 == 0) return fmt::format("{}MHz", hz / 1'000'000);
    if (hz % 1000 == 0) return fmt::format("{}kHz", hz / 1000);
    return fmt::format("{}Hz", hz);
}

std::string format_bandwidth(double bps) {
    if (bps >= 1e9) return fmt::format("{:.3f}GB/s", bps / 1e9);
    if (bps >= 1e6) return fmt::format("{:.3f}MB/s", bps / 1e6);
    return fmt::format("{:.1f}B/s", bps);
}

}  // namespace zng::units
