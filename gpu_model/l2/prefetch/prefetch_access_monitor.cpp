#include "gpu_model/l2/prefetch/prefetch_access_monitor.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace zng::gpu {

PrefetchAccessMonitor::PrefetchAccessMonitor(const PrefetchAccessMonitorConfig& cfg) : cfg_(cfg) {
    if (cfg.line == 0) throw std::invalid_argument("line size must be positive");
    if (cfg.min < cfg.line)
        throw std::invalid_argument("minimum prefetch unit " + std::to_string(cfg.min) + " B is below one line (" +
                                    std::to_string(cfg.line) + " B)");
    if (cfg.max < cfg.min) throw std::invalid_argument("maximum prefetch unit is below the minimum");
    if (cfg.initial < cfg.min || cfg.initial > cfg.max)
        throw std::invalid_argument("initial prefetch unit lies outside [min, max]");
    if (cfg.window == 0) throw std::invalid_argument("the monitor window needs at least one eviction");
    if (!(cfg.low >= 0 && cfg.low <= cfg.high && cfg.high <= 1))
        throw std::invalid_argument("waste thresholds need 0 <= low <= high <= 1");
    unit_ = clamp(cfg.initial);
}

uint32_t PrefetchAccessMonitor::clamp(uint64_t bytes) const {
    uint64_t lines = std::max<uint64_t>(bytes / cfg_.line, 1);
    uint64_t b = lines * cfg_.line;
    // min/max may themselves not be line multiples: round them inwards.
    uint64_t lo = (cfg_.min + cfg_.line - 1) / cfg_.line * cfg_.line;
    uint64_t hi = std::max<uint64_t>(cfg_.max / cfg_.line * cfg_.line, lo);
    return static_cast<uint32_t>(std::clamp(b, lo, hi));
}

PrefetchAccessMonitor::Change PrefetchAccessMonitor::on_evict(bool prefetched, bool accessed) {
    ++evicted_;
    ++total_evicted_;
    if (prefetched && !accessed) {
        ++unused_;
        ++total_unused_;
    }
    if (evicted_ < cfg_.window) return Change::None;
    last_waste_ = static_cast<double>(unused_) / static_cast<double>(evicted_);
    evicted_ = unused_ = 0;
    ++windows_;
    const uint32_t before = unit_;
    if (last_waste_ > cfg_.high) {
        unit_ = clamp(unit_ / 2);
    } else if (last_waste_ < cfg_.low) {
        unit_ = clamp(static_cast<uint64_t>(unit_) + cfg_.step);
    }
    if (unit_ < before) return Change::Halved;
    if (unit_ > before) return Change::Grown;
    return Change::None;
}

}  // namespace zng::gpu
