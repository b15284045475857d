// ZnG's thrashing checker (paper IV-C): watches a package's flash registers for write
// thrashing (dirty pages evicted and then written again soon after, so each rewrite
// costs another program) and raises the redirection signal that makes the L2 hold the
// excess dirty pages in pinned lines.
//
// The paper gives the idea, not the rule; the rule here (assumptions, all in YAML):
// the last `history` pages evicted from the registers are remembered; every register
// write miss counts, and counts as a rewrite when its page is among them. After each
// window of `window` write misses, rewrites / misses at or above `on_ratio` turns
// redirection on (one thrashing episode), at or below `off_ratio` turns it off.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/params.hpp"
#include "sim/core/hash_map.hpp"
#include "sim/core/memory_budget.hpp"

namespace zng::flash {

struct ThrashingCheckerConfig {
    bool enabled = false;
    uint32_t history = 0;      // evicted pages remembered; 0 = the package's register count
    uint32_t window = 64;      // register write misses per decision
    double on_ratio = 0.25;    // rewrite ratio that starts redirection
    double off_ratio = 0.05;   // rewrite ratio that ends it

    static const ComponentSchema& schema();
    // The `flash.thrashing_checker` section (all defaults when null).
    static ThrashingCheckerConfig read(const ConfigNode* section, const std::string& path);
};

class ThrashingChecker {
public:
    enum class Change : uint8_t { None, On, Off };

    // `history` replaces config.history when the latter is 0. The history's ring and
    // index are charged to `budget`; a disabled checker keeps none.
    ThrashingChecker(const ThrashingCheckerConfig& cfg, uint32_t default_history, MemoryBudget& budget);

    // A dirty page left the registers (it is being programmed).
    void on_evict(uint64_t page);
    // A write found no register holding its page. Returns a switch of the signal.
    Change on_write_miss(uint64_t page);

    bool active() const { return active_; }
    bool recently_evicted(uint64_t page) const { return last_eviction_.contains(page); }
    uint64_t episodes() const { return episodes_; }
    uint64_t rewrites() const { return total_rewrites_; }
    double last_ratio() const { return last_ratio_; }

private:
    ThrashingCheckerConfig cfg_;
    std::vector<uint64_t> ring_;         // the last `history` evicted pages, oldest at head_
    uint32_t head_ = 0;
    uint64_t evictions_ = 0;
    FixedHashMap<uint64_t> last_eviction_;  // page -> number of its latest eviction
    uint32_t misses_ = 0, rewrites_ = 0;    // in the current window
    bool active_ = false;
    double last_ratio_ = 0;
    uint64_t episodes_ = 0, total_rewrites_ = 0;
};

}  // namespace zng::flash
