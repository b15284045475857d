#include "gpu_model/l2/l2_cache.hpp"

#include "gpu_model/common/stat_sums.hpp"

namespace zng::gpu {

L2Cache::L2Cache(Simulator& sim, const std::string& name, const ClockDomain& clock, const L2Config& cfg)
    : cfg_(cfg), map_(cfg.banks, cfg.interleave, cfg.line) {
    L2PolicyContext ctx;
    ctx.banks = cfg.banks;
    ctx.line_size = cfg.line;
    ctx.size = cfg.size;
    ctx.ways = cfg.ways;
    ctx.clock = &clock;
    ctx.stats_prefix = name + ".policy";
    policy_ = l2_policy_slot().create(cfg.policy, cfg.path + ".policy", "none", sim, ctx);
    for (uint32_t b = 0; b < cfg.banks; ++b)
        banks_.push_back(
            std::make_unique<L2Bank>(sim, name + ".bank" + std::to_string(b), clock, cfg_, map_, *policy_, *this));

    StatGroup g(sim.stats(), name);
    std::vector<std::string> banks;
    for (uint32_t b = 0; b < cfg.banks; ++b) banks.push_back(name + ".bank" + std::to_string(b));
    auto hits = add_sum_formula(g, "hits", "read hits, all banks", banks, "hits");
    auto misses = add_sum_formula(g, "misses", "read misses that fetched a line, all banks", banks, "misses");
    auto merges = add_sum_formula(g, "merges", "read misses merged into a fetch in flight, all banks", banks, "merges");
    add_ratio_formula(g, "hit_rate", "read hits / read lookups", hits, {misses, merges});
    add_sum_formula(g, "writebacks", "dirty lines written back to memory, all banks", banks, "writebacks");
    add_sum_formula(g, "evictions", "valid lines replaced, all banks", banks, "evictions");
    flushes_ = &g.counter("flushes", "application flushes requested (before a merge)");
    flushed_lines_ = &g.counter("flushed_lines", "dirty lines written back by application flushes");
    flush_invalidations_ =
        &g.counter("flush_invalidations", "lines invalidated by application flushes, clean or dirty");
}

void L2Cache::flush_app(uint16_t app) {
    ++*flushes_;
    for (auto& b : banks_) {
        const L2Bank::Flushed f = b->flush_app(app);
        *flushed_lines_ += f.dirty;
        *flush_invalidations_ += f.lines;
    }
}

bool L2Cache::idle() const {
    for (const auto& b : banks_)
        if (!b->idle()) return false;
    return true;
}

void L2Cache::flush_stats() {
    for (auto& b : banks_) b->flush_stats();
}

}  // namespace zng::gpu
