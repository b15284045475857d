// ZnG's L2 policy (slot "l2_policy", `type: zng`): the read optimisation of paper IV-B
// and the L2 half of the write optimisation of IV-C.
//
// Read path. On a demand read miss the policy may prefetch more lines of the missed
// flash page, by mode (Fig. 16b):
//   none         no prefetch;
//   fixed-1KB    always 1 KB around the miss;  fixed-4KB  always the whole 4 KB page;
//   predict-4KB  the whole page when the PC predictor says the load streams;
//   dynamic      the predictor gates, the access monitor sizes the unit.
// Every demand read trains the predictor; every eviction feeds the access monitor
// (prefetch and accessed bits of the tag array).
//
// Write path. With write_bypass the L2 is a read cache (STT-MRAM writes are slow):
// stores go straight to the flash registers. When the flash side reports register
// thrashing for a store's page (WriteRedirectionSource), the store is kept in the L2
// instead and its line pinned, up to pin_share of the L2's lines; pinned lines are
// protected from replacement while the flash side still thrashes.
//
// Every knob defaults to off (a plain write-back cache), so the read and the write
// optimisation are switched on independently by their config fragments.
#pragma once
#include <cstdint>
#include <string>

#include "gpu_model/l2/l2_policy.hpp"
#include "gpu_model/l2/prefetch/decision_accuracy.hpp"
#include "gpu_model/l2/prefetch/pc_page_predictor.hpp"
#include "gpu_model/l2/prefetch/prefetch_access_monitor.hpp"

namespace zng::gpu {

enum class PrefetchMode : uint8_t { None, Fixed, Predicted, Dynamic };

struct ZngL2PolicyConfig {
    PrefetchMode mode = PrefetchMode::None;
    uint32_t fixed_unit = 4096;  // bytes, for Fixed and Predicted
    uint32_t page = 4096;        // flash page: prefetches stay inside it
    PcPagePredictorConfig predictor;
    PrefetchAccessMonitorConfig monitor;
    uint32_t decision_table = 1024;  // predictor decisions awaiting their verdict
    bool write_bypass = false;
    bool bypass_hit_update = false;  // bypass_hit: update (else invalidate)
    double pin_share = 0;
};

class ZngL2Policy final : public L2Policy {
public:
    static const ComponentSchema& schema();
    static ZngL2PolicyConfig read(const Params& p, const L2PolicyContext& ctx);

    ZngL2Policy(Simulator& sim, const L2PolicyContext& ctx, const ZngL2PolicyConfig& cfg);

    void on_access(const MemRequest& r, LineMarks* marks) override;
    void on_miss(const MemRequest& r, L2PrefetchSink& sink) override;
    void on_fill(uint64_t line, LineMarks& marks, bool prefetch) override;
    void on_evict(const TagLine& line, LineMarks marks) override;
    bool bypass_write(const MemRequest& r) override;
    bool bypass_hit_updates() const override { return cfg_.bypass_hit_update; }
    // Redirection: a store kept in the L2 pins its line while its page's flash registers
    // thrash and the pinned share has room.
    bool pin_write(const MemRequest& r) override;
    bool pins_protected() const override { return source_ && pinned_ > 0 && source_->redirect_active(); }
    // The flash side's thrashing signal (none: writes are never redirected).
    void set_redirection_source(const WriteRedirectionSource* s) override { source_ = s; }

    // Bytes a prefetch fetches now (0 in mode none).
    uint32_t prefetch_unit() const;
    uint64_t pinned_lines() const { return pinned_; }
    uint64_t pin_limit() const { return pin_limit_; }
    const PcPagePredictor& predictor() const { return predictor_; }
    const PrefetchAccessMonitor& monitor() const { return monitor_; }
    // Line accuracy: prefetched lines a demand access used / prefetched lines filled.
    double accuracy() const;
    // Decision accuracy (Fig. 15b): correct predictor decisions / decisions.
    const DecisionAccuracy& decisions() const { return decisions_; }
    // Only the predictor's modes decide whether to prefetch; the others leave the
    // decision table (and its look-ups on every read and eviction) alone.
    bool decides() const { return cfg_.mode == PrefetchMode::Predicted || cfg_.mode == PrefetchMode::Dynamic; }

private:
    ZngL2PolicyConfig cfg_;
    uint32_t line_;
    uint32_t line_shift_;
    PcPagePredictor predictor_;
    PrefetchAccessMonitor monitor_;
    DecisionAccuracy decisions_;
    const WriteRedirectionSource* source_ = nullptr;
    uint64_t pinned_ = 0;
    uint64_t pin_limit_;

    Counter& predictor_checks_;
    Counter& predictor_triggers_;
    Counter& prefetch_issued_;
    Counter& unit_fetches_;
    Counter& prefetch_fills_;
    Counter& prefetch_used_;
    Counter& unit_halvings_;
    Counter& unit_growths_;
    Average& window_waste_;
    Average& unit_avg_;
    Counter& writes_bypassed_;
    Counter& writes_redirected_;
    Counter& pins_;
    Counter& pins_refused_;
    Counter& pinned_evictions_;
    Average& pinned_at_pin_;
};

}  // namespace zng::gpu
