#include "gpu_model/l2/l2_cache.hpp"

#include "gpu_model/common/stat_sums.hpp"

#include <bit>

namespace zng::gpu {

L2Cache::L2Cache(Simulator& sim, const std::string& name, const ClockDomain& clock, const L2Config& cfg)
    : cfg_(cfg),
      map_(cfg.banks, cfg.interleave, cfg.line),
      line_shift_(static_cast<uint32_t>(std::countr_zero(cfg.line))),
      units_(static_cast<size_t>(cfg.banks) * cfg.mshr_entries),
      unit_lines_(uint64_t{cfg.banks} * cfg.mshr_entries),
      stalled_banks_((cfg.banks + 63) / 64, 0) {
    for (uint32_t u = static_cast<uint32_t>(units_.size()); u-- > 0;) free_units_.push_back(u);
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
            std::make_unique<L2Bank>(sim, name + ".bank" + std::to_string(b), clock, cfg_, map_, *policy_, *this, b));

    StatGroup g(sim.stats(), name);
    std::vector<std::string> banks;
    for (uint32_t b = 0; b < cfg.banks; ++b) banks.push_back(name + ".bank" + std::to_string(b));
    auto hits = add_sum_formula(g, "hits", "read hits, all banks", banks, "hits");
    auto misses = add_sum_formula(g, "misses", "read misses that fetched a line, all banks", banks, "misses");
    auto merges = add_sum_formula(g, "merges", "read misses merged into a fetch in flight, all banks", banks, "merges");
    add_ratio_formula(g, "hit_rate", "read hits / read lookups", hits, {misses, merges});
    add_sum_formula(g, "writebacks", "dirty lines written back to memory, all banks", banks, "writebacks");
    add_sum_formula(g, "evictions", "valid lines replaced, all banks", banks, "evictions");
    flushes_ = &g.counter("flushes", "application flushes requested (before a merge)", "flushes");
    flushed_lines_ = &g.counter("flushed_lines", "dirty lines written back by application flushes", "lines");
    unit_merges_ = &g.counter("unit_merges", "demand misses that waited on a unit fetch in flight, all banks", "misses");
    first_lines_ = &g.counter("unit_first_lines",
                              "demand lines of unit fetches the memory delivered ahead of the rest of the unit", "lines");
    flush_invalidations_ =
        &g.counter("flush_invalidations", "lines invalidated by application flushes, clean or dirty", "lines");
}

void L2Cache::flush_app(uint16_t app) {
    ++*flushes_;
    for (auto& b : banks_) {
        const L2Bank::Flushed f = b->flush_app(app);
        *flushed_lines_ += f.dirty;
        *flush_invalidations_ += f.lines;
    }
}

L2PrefetchSink::UnitResult L2Cache::prefetch_unit(uint64_t first_line, uint32_t lines, const MemRequest& cause) {
    const uint64_t bytes = uint64_t{lines} << line_shift_;
    const uint64_t start = first_line << line_shift_;
    // Only a back end that serves the whole window as one transaction gets it.
    if (lines < 2 || lines > kMaxUnitLines || bytes > max_read_bytes_ ||
        start / max_read_bytes_ != (start + bytes - 1) / max_read_bytes_)
        return {};
    const uint64_t demand = cause.paddr >> line_shift_;
    uint64_t mask = 0;
    uint32_t prefetched = 0;
    for (uint32_t i = 0; i < lines; ++i) {
        const uint64_t l = first_line + i;
        if (l != demand) {
            // Present or already on its way: the unit does not fetch it again.
            if (unit_lines_.contains(l) || banks_[map_.bank(l << line_shift_)]->holds(l)) continue;
            ++prefetched;
        }
        mask |= uint64_t{1} << i;
    }
    if (prefetched == 0) return {L2PrefetchSink::UnitResult::Issued, 0};
    if (free_units_.empty()) throw SimError("L2: more unit fetches than MSHR entries");
    const uint32_t u = free_units_.back();
    free_units_.pop_back();
    UnitFetch& f = units_[u];
    f.first_line = first_line;
    f.demand_line = demand;
    f.pending = mask;
    f.demand_delivered = false;
    f.home = map_.bank(cause.paddr);
    f.cause = cause;
    f.waiters.clear();
    f.per_line.fill(0);
    f.valid = true;
    for (uint64_t m = mask; m; m &= m - 1) unit_lines_.put(first_line + static_cast<uint64_t>(std::countr_zero(m)), u);
    // The read names the span from the first to the last line the L2 lacks: a page read
    // moves data from the column its address gives for as many bytes as the controller
    // clocks out (ONFI read page, then data output), so lines the L2 already holds at the
    // window's ends cross neither the package's I/O port nor the network. Holes inside
    // the span are moved and not installed (one contiguous output, no column changes).
    const uint32_t lo = static_cast<uint32_t>(std::countr_zero(mask));
    const uint32_t hi = 63u - static_cast<uint32_t>(std::countl_zero(mask));
    f.mshr = banks_[f.home]->convert_to_unit(demand, u, start + (uint64_t{lo} << line_shift_),
                                             (hi - lo + 1) << line_shift_);
    return {L2PrefetchSink::UnitResult::Issued, prefetched};
}

L2Cache::UnitMerge L2Cache::merge_into_unit(uint64_t line, MemRequest* r) {
    const uint32_t u = unit_lines_.unit_of(line);
    if (u == UnitLineIndex::kNone) return UnitMerge::None;
    UnitFetch& f = units_[u];
    uint8_t& n = f.per_line[line - f.first_line];
    if (n >= cfg_.mshr_merge) return UnitMerge::Full;
    ++n;
    f.waiters.emplace_back(line, r);
    if (line != f.demand_line || f.waiters.size() > 1) ++*unit_merges_;  // not the cause itself
    return UnitMerge::Merged;
}

void L2Cache::stamp_demand(UnitFetch& f, const MemRequest& from) {
    // The demand miss that caused the unit owns the transaction's journey to memory and back.
    for (auto& [line, r] : f.waiters)
        if (line == f.demand_line) {
            for (int s = static_cast<int>(Stage::L2Done); s < static_cast<int>(Stage::Complete); ++s)
                if (from.stamp[s]) r->stamp[s] = from.stamp[s];
            break;
        }
}

void L2Cache::unit_first_arrived(uint32_t u, const MemRequest& piece) {
    UnitFetch& f = units_[u];
    stamp_demand(f, piece);
    f.demand_delivered = true;
    ++*first_lines_;
    banks_[map_.bank(f.demand_line << line_shift_)]->unit_line_arrived(u, f.demand_line);
}

void L2Cache::unit_arrived(uint32_t u, const MemRequest& fill) {
    UnitFetch& f = units_[u];
    uint64_t lines = f.pending;
    if (f.demand_delivered) {
        lines &= ~(uint64_t{1} << (f.demand_line - f.first_line));
    } else {
        stamp_demand(f, fill);
    }
    // Lines of a page are interleaved over the banks: each owner writes its own lines.
    for (uint64_t m = lines; m; m &= m - 1) {
        const uint64_t line = f.first_line + static_cast<uint64_t>(std::countr_zero(m));
        banks_[map_.bank(line << line_shift_)]->unit_line_arrived(u, line);
    }
}

void L2Cache::unit_line_done(uint32_t u, uint64_t line) {
    UnitFetch& f = units_[u];
    f.pending &= ~(uint64_t{1} << (line - f.first_line));
    unit_lines_.erase(line);
    // A bank stalled on a full waiter list of this line may go on. Only stalled banks
    // have anything to do, woken in bank order: a walk over every bank for each line
    // installed took a twentieth of a run with 4 KB units.
    for (size_t w = 0; w < stalled_banks_.size(); ++w)
        for (uint64_t m = stalled_banks_[w]; m; m &= m - 1)
            banks_[w * 64 + static_cast<size_t>(std::countr_zero(m))]->wake();
    if (f.pending) return;
    banks_[f.home]->release_unit(f.mshr);
    f.valid = false;
    f.waiters.clear();
    free_units_.push_back(u);
}

bool L2Cache::idle() const {
    if (units_in_flight() != 0) return false;
    for (const auto& b : banks_)
        if (!b->idle()) return false;
    return true;
}

void L2Cache::flush_stats() {
    for (auto& b : banks_) b->flush_stats();
}

}  // namespace zng::gpu
