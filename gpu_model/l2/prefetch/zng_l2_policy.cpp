#include "gpu_model/l2/prefetch/zng_l2_policy.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "gpu_model/l2/prefetch/prefetch_window.hpp"
#include "sim/core/errors.hpp"

namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kPrefetch = Param<Choice>("prefetch", "none", "prefetch policy (Fig. 16b)")
                           .choices({"none", "fixed-1KB", "fixed-4KB", "predict-4KB", "dynamic"});
const auto kPageSize =
    Param<Size>("page_size", "4KiB", "flash page: the predictor's page and the span a prefetch stays in (power of two)")
        .range(32, static_cast<double>(uint64_t{1} << 30));
const auto kPredictorEntries =
    Param<UInt32>("predictor_entries", "512", "predictor table entries (IV-B: 512)").range(1, 1 << 20);
const auto kPredictorWarps = Param<UInt32>("predictor_warps", "5", "representative warps per entry (IV-B: 5)")
                                 .range(1, PcPagePredictor::kMaxWarps);
const auto kCounterBits =
    Param<UInt32>("counter_bits", "4", "bits of an entry's saturating counter (IV-B: 4)").range(1, 8);
const auto kThreshold =
    Param<UInt32>("threshold", "12", "prefetch when the counter exceeds this (IV-B: 12)").range(0, 254);
const auto kUnitInitial = Param<Size>("unit_initial", "4KiB", "dynamic: prefetch unit at start").min(1);
const auto kUnitMin = Param<Size>("unit_min", "1KiB", "dynamic: smallest prefetch unit").min(1);
const auto kUnitMax = Param<Size>("unit_max", "4KiB", "dynamic: largest prefetch unit (<= page_size)").min(1);
const auto kUnitStep = Param<Size>("unit_step", "1KiB", "dynamic: growth when waste is low (IV-B: 1 KB)").min(1);
const auto kWasteHigh = Param<Real>("waste_high", "0.3", "dynamic: halve the unit above this waste (V-D)").range(0, 1);
const auto kWasteLow = Param<Real>("waste_low", "0.05", "dynamic: grow the unit below this waste (V-D)").range(0, 1);
const auto kMonitorWindow =
    Param<UInt32>("monitor_window", "256", "dynamic: evictions per access-monitor decision").range(1, 1u << 30);
const auto kDecisionTable =
    Param<UInt32>("decision_table", "1024",
                  "predictor decisions awaiting their verdict for predictor_accuracy (a measurement bound, not "
                  "modelled hardware; the oldest is judged early when full)")
        .range(1, 1u << 20);
const Param<Bool> kWriteBypass{"write_bypass", "false",
                               "stores skip the L2 (read cache, III-C) unless redirected into pinned lines"};
const auto kBypassHit = Param<Choice>("bypass_hit", "invalidate",
                                      "a bypassed store that finds its line in the L2: invalidate it (the L2 is "
                                      "read-only, paper I) or write it in place, clean, holding the bank for the "
                                      "write latency")
                            .choices({"invalidate", "update"});
const auto kPinShare =
    Param<Real>("pin_share", "0", "largest share of L2 lines pinned for redirected dirty pages (0: no redirection)")
        .range(0, 1);
}  // namespace

const ComponentSchema& ZngL2Policy::schema() {
    static const ComponentSchema s{
        .slot = "l2_policy",
        .name = "zng",
        .description =
            "ZnG read prefetch (PC predictor + access monitor, IV-B) and write redirection into pinned L2 lines "
            "(IV-C). Representative warps of a predictor entry are the first distinct warps to run its PC; the "
            "table is direct-mapped on a PC hash (assumptions).",
        .params = {kPrefetch, kPageSize, kPredictorEntries, kPredictorWarps, kCounterBits, kThreshold, kUnitInitial,
                   kUnitMin, kUnitMax, kUnitStep, kWasteHigh, kWasteLow, kMonitorWindow, kDecisionTable,
                   kWriteBypass, kBypassHit, kPinShare},
        .ports = {}};
    return s;
}

ZngL2PolicyConfig ZngL2Policy::read(const Params& p, const L2PolicyContext& ctx) {
    ZngL2PolicyConfig c;
    const std::string mode = p[kPrefetch];
    c.mode = mode == "none"                             ? PrefetchMode::None
             : mode == "fixed-1KB" || mode == "fixed-4KB" ? PrefetchMode::Fixed
             : mode == "predict-4KB"                    ? PrefetchMode::Predicted
                                                        : PrefetchMode::Dynamic;
    c.fixed_unit = mode == "fixed-1KB" ? 1024 : 4096;
    c.page = static_cast<uint32_t>(p[kPageSize]);
    if (!std::has_single_bit(c.page)) p.fail(kPageSize.key(), "must be a power of two");
    if (c.page < ctx.line_size) p.fail(kPageSize.key(), "must hold at least one L2 line");
    if (c.mode != PrefetchMode::None && c.fixed_unit > c.page && c.mode != PrefetchMode::Dynamic)
        p.fail(kPrefetch.key(), "unit larger than page_size");
    c.predictor.entries = p[kPredictorEntries];
    c.predictor.warps = p[kPredictorWarps];
    c.predictor.counter_bits = p[kCounterBits];
    c.predictor.threshold = p[kThreshold];
    c.predictor.page_bytes = c.page;
    if (c.predictor.threshold >= (1u << c.predictor.counter_bits) - 1)
        p.fail(kThreshold.key(), "a " + std::to_string(c.predictor.counter_bits) + "-bit counter never exceeds it");
    c.monitor.line = ctx.line_size;
    c.monitor.initial = static_cast<uint32_t>(p[kUnitInitial]);
    c.monitor.min = static_cast<uint32_t>(p[kUnitMin]);
    c.monitor.max = static_cast<uint32_t>(p[kUnitMax]);
    c.monitor.step = static_cast<uint32_t>(p[kUnitStep]);
    c.monitor.high = p[kWasteHigh];
    c.monitor.low = p[kWasteLow];
    c.monitor.window = p[kMonitorWindow];
    if (c.monitor.min < ctx.line_size) p.fail(kUnitMin.key(), "below one L2 line");
    if (c.monitor.max > c.page) p.fail(kUnitMax.key(), "larger than page_size (prefetches stay inside a page)");
    if (c.monitor.max < c.monitor.min) p.fail(kUnitMax.key(), "below unit_min");
    if (c.monitor.initial < c.monitor.min || c.monitor.initial > c.monitor.max)
        p.fail(kUnitInitial.key(), "outside [unit_min, unit_max]");
    if (c.monitor.low > c.monitor.high) p.fail(kWasteLow.key(), "above waste_high");
    c.decision_table = p[kDecisionTable];
    c.write_bypass = p[kWriteBypass];
    c.bypass_hit_update = p[kBypassHit] == "update";
    c.pin_share = p[kPinShare];
    return c;
}

ZngL2Policy::ZngL2Policy(Simulator& sim, const L2PolicyContext& ctx, const ZngL2PolicyConfig& cfg)
    : cfg_(cfg),
      line_(ctx.line_size),
      line_shift_(static_cast<uint32_t>(std::countr_zero(ctx.line_size))),
      predictor_(cfg.predictor),
      monitor_(cfg.monitor),
      decisions_(cfg.decision_table, std::min<uint32_t>(cfg.page / ctx.line_size, 64)),
      pin_limit_(static_cast<uint64_t>(std::floor(cfg.pin_share * static_cast<double>(ctx.size / ctx.line_size)))),
      predictor_checks_(StatGroup(sim.stats(), ctx.stats_prefix).counter("predictor_checks", "read misses tested", "misses")),
      predictor_triggers_(StatGroup(sim.stats(), ctx.stats_prefix)
                              .counter("predictor_triggers", "read misses whose PC counter exceeded the threshold", "misses")),
      prefetch_issued_(StatGroup(sim.stats(), ctx.stats_prefix).counter("prefetch_issued", "line prefetches issued", "lines")),
      unit_fetches_(StatGroup(sim.stats(), ctx.stats_prefix)
                        .counter("unit_fetches", "demand misses fetched with their prefetch as one memory transaction", "misses")),
      prefetch_fills_(StatGroup(sim.stats(), ctx.stats_prefix).counter("prefetch_fills", "lines filled by a prefetch", "lines")),
      prefetch_used_(StatGroup(sim.stats(), ctx.stats_prefix)
                         .counter("prefetch_used", "prefetched lines a demand access used", "lines")),
      unit_halvings_(StatGroup(sim.stats(), ctx.stats_prefix).counter("unit_halvings", "prefetch unit halved", "changes")),
      unit_growths_(StatGroup(sim.stats(), ctx.stats_prefix).counter("unit_growths", "prefetch unit grown", "changes")),
      window_waste_(StatGroup(sim.stats(), ctx.stats_prefix)
                        .average("window_waste", "waste ratio of each access-monitor window", "ratio")),
      unit_avg_(StatGroup(sim.stats(), ctx.stats_prefix)
                    .average("unit_average", "prefetch unit after each access-monitor window", "B")),
      writes_bypassed_(StatGroup(sim.stats(), ctx.stats_prefix)
                           .counter("writes_bypassed", "stores sent past the L2 to the flash registers", "stores")),
      writes_redirected_(StatGroup(sim.stats(), ctx.stats_prefix)
                             .counter("writes_redirected", "stores kept in the L2 because the flash side thrashes", "stores")),
      pins_(StatGroup(sim.stats(), ctx.stats_prefix).counter("pins", "lines pinned for redirected dirty pages", "lines")),
      pins_refused_(StatGroup(sim.stats(), ctx.stats_prefix)
                        .counter("pins_refused", "redirections refused: the pinned share was full", "redirections")),
      pinned_evictions_(StatGroup(sim.stats(), ctx.stats_prefix)
                            .counter("pinned_evictions", "pinned lines replaced (after thrashing ended)", "lines")),
      pinned_at_pin_(StatGroup(sim.stats(), ctx.stats_prefix)
                         .average("pinned_lines_at_pin", "pinned lines, sampled at each pin", "lines")) {
    StatGroup st(sim.stats(), ctx.stats_prefix);
    st.formula("accuracy", "line accuracy: prefetched lines used by a demand access / prefetched lines filled", "ratio",
               [this] { return accuracy(); });
    st.formula("predictor_accuracy",
               "decision accuracy (Fig. 15b): predictor decisions judged correct / decisions (prefetch: >= half of "
               "its lines used before eviction; no prefetch: < half of the window's other lines demanded while "
               "the missed line stays); decisions still waiting at the end are judged on what happened so far",
               "ratio", [this] { return decisions_.accuracy(); });
    st.formula("waste_ratio", "unused prefetched lines / evicted lines, whole run", "ratio", [this] {
        return monitor_.total_evicted() ? static_cast<double>(monitor_.total_unused()) /
                                              static_cast<double>(monitor_.total_evicted())
                                        : 0.0;
    });
    st.formula("prefetch_unit", "prefetch unit at the end", "B", [this] { return prefetch_unit(); });
    st.formula("pinned_lines", "lines pinned at the end", "lines", [this] { return static_cast<double>(pinned_); });
    st.formula("pin_limit", "largest number of pinned lines", "lines",
               [this] { return static_cast<double>(pin_limit_); });
    sim.stats().add_series_column(st.full("prefetch_unit"), [this] { return prefetch_unit(); });
    sim.stats().add_series_column(st.full("pinned_lines"), [this] { return static_cast<double>(pinned_); });
}

uint32_t ZngL2Policy::prefetch_unit() const {
    switch (cfg_.mode) {
        case PrefetchMode::None: return 0;
        case PrefetchMode::Fixed:
        case PrefetchMode::Predicted: return cfg_.fixed_unit;
        case PrefetchMode::Dynamic: return monitor_.unit();
    }
    return 0;
}

double ZngL2Policy::accuracy() const {
    const uint64_t f = prefetch_fills_.get();
    return f ? static_cast<double>(prefetch_used_.get()) / static_cast<double>(f) : 0.0;
}

void ZngL2Policy::on_access(const MemRequest& r, LineMarks* marks) {
    if (r.op == MemOp::Read) predictor_.observe(r.pc, r.warp, r.paddr);
    // A mark beside the line's prefetch bit rather than a set of line addresses: the hit
    // path then reads only the byte it already holds.
    bool first_use = false;
    if (marks && marks->prefetched() && marks->unused_prefetch()) {
        marks->clear(LineMarks::kUnusedPrefetch);
        ++prefetch_used_;
        first_use = true;
    }
    if (r.op == MemOp::Read && decides()) decisions_.demanded(r.paddr >> line_shift_, first_use);
}

void ZngL2Policy::on_miss(const MemRequest& r, L2PrefetchSink& sink) {
    if (r.op != MemOp::Read || cfg_.mode == PrefetchMode::None) return;
    const LineWindow w = prefetch_window(r.paddr, prefetch_unit(), line_, cfg_.page);
    if (decides()) {
        ++predictor_checks_;
        const bool prefetch = predictor_.predicts_locality(r.pc);
        if (w.lines <= 64)
            decisions_.decide(prefetch, w.first_line, static_cast<uint32_t>(w.lines), r.paddr >> line_shift_);
        if (!prefetch) return;
        ++predictor_triggers_;
    }
    // IV-B: the access monitor adjusts "the access granularity of data prefetch": the
    // demand miss and its prefetch are one fetch of the unit when the back end can serve
    // it whole, else (below) one fetch per line.
    const auto unit = sink.prefetch_unit(w.first_line, static_cast<uint32_t>(w.lines), r);
    if (unit.status == L2PrefetchSink::UnitResult::Issued) {
        prefetch_issued_ += unit.prefetched;
        if (unit.prefetched) ++unit_fetches_;
        return;
    }
    const uint64_t missed = r.paddr >> line_shift_;
    for (uint64_t l = w.first_line; l < w.first_line + w.lines; ++l) {
        if (l == missed) continue;
        if (sink.prefetch(l << line_shift_, r)) ++prefetch_issued_;
    }
}

void ZngL2Policy::on_fill(uint64_t line, LineMarks& marks, bool prefetch) {
    if (!prefetch) return;
    ++prefetch_fills_;
    marks.set(LineMarks::kUnusedPrefetch);
    if (decides()) decisions_.prefetch_filled(line);
}

void ZngL2Policy::on_evict(const TagLine& line, LineMarks marks) {
    const bool used_at_evict = marks.prefetched() && marks.unused_prefetch() && marks.accessed();
    if (used_at_evict) ++prefetch_used_;
    if (decides()) decisions_.evicted(line.tag, marks.prefetched() && marks.accessed());
    if (cfg_.mode == PrefetchMode::Dynamic) {
        switch (monitor_.on_evict(marks.prefetched(), marks.accessed())) {
            case PrefetchAccessMonitor::Change::Halved: ++unit_halvings_; break;
            case PrefetchAccessMonitor::Change::Grown: ++unit_growths_; break;
            case PrefetchAccessMonitor::Change::None: break;
        }
        if (monitor_.total_evicted() % cfg_.monitor.window == 0) {
            window_waste_.sample(monitor_.last_waste());
            unit_avg_.sample(monitor_.unit());
        }
    } else {
        monitor_.on_evict(marks.prefetched(), marks.accessed());  // waste ratio is reported for every mode
    }
    if (marks.pinned()) {
        if (pinned_ == 0) throw SimError("L2 policy: a pinned line left the L2 but none was pinned");
        ++pinned_evictions_;
        --pinned_;
    }
}

bool ZngL2Policy::bypass_write(const MemRequest& r) {
    const bool redirect = source_ && pinned_ < pin_limit_ && source_->redirect_write(r.paddr);
    if (redirect) {
        ++writes_redirected_;
        return false;
    }
    if (!cfg_.write_bypass) return false;
    ++writes_bypassed_;
    return true;
}

bool ZngL2Policy::pin_write(const MemRequest& r) {
    if (!source_ || !source_->redirect_write(r.paddr)) return false;
    if (pinned_ >= pin_limit_) {
        ++pins_refused_;
        return false;
    }
    ++pinned_;
    ++pins_;
    pinned_at_pin_.sample(static_cast<double>(pinned_));
    return true;
}

}  // namespace zng::gpu
