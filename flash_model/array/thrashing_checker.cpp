#include "flash_model/array/thrashing_checker.hpp"

#include <algorithm>

#include "sim/config/registry.hpp"

namespace zng::flash {

namespace {
using namespace param_kind;
const Param<Bool> kEnabled{"enabled", "false", "watch the registers and raise redirection"};
const auto kHistory =
    Param<UInt32>("history", "0", "evicted pages remembered per package (0: as many as the package has registers)")
        .range(0, 1 << 24);
const auto kWindow = Param<UInt32>("window", "64", "register write misses per decision").range(1, 1 << 24);
const auto kOnRatio =
    Param<Real>("on_ratio", "0.25", "rewrites / write misses in a window at or above which redirection starts")
        .range(0, 1);
const auto kOffRatio =
    Param<Real>("off_ratio", "0.05", "rewrites / write misses in a window at or below which redirection ends")
        .range(0, 1);
}  // namespace

const ComponentSchema& ThrashingCheckerConfig::schema() {
    static const CataloguedSchema s{{
        .slot = "flash",
        .name = "thrashing_checker",
        .description = "register thrashing checker of each package (IV-C): rewrites of recently evicted pages per "
                       "register write miss, over a window, switch the L2 redirection of dirty pages on and off "
                       "(rule and values: assumptions)",
        .params = {kEnabled, kHistory, kWindow, kOnRatio, kOffRatio},
        .ports = {},
    }};
    return s.schema;
}

ThrashingCheckerConfig ThrashingCheckerConfig::read(const ConfigNode* section, const std::string& path) {
    Params p(section, schema(), path);
    ThrashingCheckerConfig c;
    c.enabled = p[kEnabled];
    c.history = p[kHistory];
    c.window = p[kWindow];
    c.on_ratio = p[kOnRatio];
    c.off_ratio = p[kOffRatio];
    if (c.off_ratio >= c.on_ratio && c.enabled)
        p.fail(kOffRatio.key(), "must be below on_ratio (else the signal would flip every window)");
    return c;
}

namespace {
// Evicted pages remembered: only an enabled checker is ever told of an eviction.
uint32_t history_length(const ThrashingCheckerConfig& cfg, uint32_t default_history, MemoryBudget& budget) {
    if (!cfg.enabled) return 1;
    const uint32_t n = cfg.history ? cfg.history : std::max<uint32_t>(default_history, 1);
    budget.reserve(n, sizeof(uint64_t), "thrashing checkers' eviction rings");
    budget.reserve(1, FixedHashMap<uint64_t>::table_bytes(n), "thrashing checkers' eviction indexes");
    return n;
}
}  // namespace

ThrashingChecker::ThrashingChecker(const ThrashingCheckerConfig& cfg, uint32_t default_history, MemoryBudget& budget)
    : cfg_(cfg), ring_(history_length(cfg, default_history, budget), 0), last_eviction_(ring_.size()) {}

void ThrashingChecker::on_evict(uint64_t page) {
    ++evictions_;  // this eviction's number
    const uint64_t n = ring_.size();
    if (evictions_ > n) {
        // The oldest remembered eviction ages out, unless its page was evicted again since.
        const uint64_t old = ring_[head_];
        const uint64_t* at = last_eviction_.get(old);
        if (at && *at == evictions_ - n) last_eviction_.erase(old);
    }
    ring_[head_] = page;
    head_ = static_cast<uint32_t>((head_ + 1) % n);
    last_eviction_.put(page, evictions_);
}

ThrashingChecker::Change ThrashingChecker::on_write_miss(uint64_t page) {
    ++misses_;
    if (last_eviction_.contains(page)) {
        ++rewrites_;
        ++total_rewrites_;
    }
    if (misses_ < cfg_.window) return Change::None;
    last_ratio_ = static_cast<double>(rewrites_) / static_cast<double>(misses_);
    misses_ = rewrites_ = 0;
    if (!active_ && last_ratio_ >= cfg_.on_ratio) {
        active_ = true;
        ++episodes_;
        return Change::On;
    }
    if (active_ && last_ratio_ <= cfg_.off_ratio) {
        active_ = false;
        return Change::Off;
    }
    return Change::None;
}

}  // namespace zng::flash
