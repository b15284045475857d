// ZnG's access monitor (paper IV-B, Fig. 8a): sizes the prefetch unit from how much of
// what was prefetched the warps actually used. Every L2 eviction counts as evicted; an
// evicted line that a prefetch filled and no warp touched counts as unused. After each
// window of evictions the waste ratio unused / evicted is compared with two thresholds:
// above `high` the unit halves (prefetches are thrashing the L2), below `low` it grows
// by `step`; in between it stays. The unit is kept within [min, max] and a multiple of
// the line size (a prefetch fetches whole lines).
#pragma once
#include <cstdint>

namespace zng::gpu {

struct PrefetchAccessMonitorConfig {
    uint32_t line = 128;       // L2 line, bytes
    uint32_t initial = 4096;   // unit at start, bytes
    uint32_t min = 1024;       // bytes
    uint32_t max = 4096;       // bytes
    uint32_t step = 1024;      // IV-B: grow by 1 KB
    double high = 0.3;         // IV-B / V-D: halve above 0.3
    double low = 0.05;         // IV-B / V-D: grow below 0.05
    uint32_t window = 256;     // evictions per decision
};

class PrefetchAccessMonitor {
public:
    enum class Change : uint8_t { None, Halved, Grown };

    // Throws std::invalid_argument on impossible settings.
    explicit PrefetchAccessMonitor(const PrefetchAccessMonitorConfig& cfg);

    // A valid line left the L2. Returns what the decision at the end of a window did
    // (None inside a window).
    Change on_evict(bool prefetched, bool accessed);

    uint32_t unit() const { return unit_; }
    // Waste ratio of the last completed window (0 before the first).
    double last_waste() const { return last_waste_; }
    uint64_t windows() const { return windows_; }
    uint64_t total_evicted() const { return total_evicted_; }
    uint64_t total_unused() const { return total_unused_; }
    const PrefetchAccessMonitorConfig& config() const { return cfg_; }

private:
    uint32_t clamp(uint64_t bytes) const;

    PrefetchAccessMonitorConfig cfg_;
    uint32_t unit_;
    uint32_t evicted_ = 0, unused_ = 0;  // in the current window
    double last_waste_ = 0;
    uint64_t windows_ = 0, total_evicted_ = 0, total_unused_ = 0;
};

}  // namespace zng::gpu
