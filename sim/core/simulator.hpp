// The simulator: the event queue, the statistics, the request pool, and the run loop
// with its progress line. One per simulated system; components hold a reference.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "sim/core/event_queue.hpp"
#include "sim/core/memory_budget.hpp"
#include "sim/mem/mem_request.hpp"
#include "sim/stats/stats.hpp"

namespace zng {

// What the progress line shows; provided by the top-level model.
struct ProgressInfo {
    uint64_t instructions = 0;        // simulated warp instructions so far
    uint64_t total_instructions = 0;  // 0 = unknown (no ETA)
};

class Simulator {
public:
    Simulator();
    ~Simulator();

    EventQueue& events() { return events_; }
    Tick now() const { return events_.now(); }
    void schedule(Event& e, Tick when) { events_.schedule(e, when); }
    StatRegistry& stats() { return stats_; }
    RequestPool& requests() { return requests_; }
    // What the platform's components allocate up front, against run.memory_limit.
    MemoryBudget& memory_budget() { return memory_budget_; }

    // Ends the run after the current event.
    void stop() { stop_ = true; }
    bool stopped() const { return stop_; }

    struct RunResult {
        Tick end_tick = 0;
        uint64_t events = 0;
        double wall_seconds = 0;
        bool drained = false;  // stopped because no event was left (vs stop())
    };
    // Fires events until stop() or the queue drains.
    RunResult run();

    // Progress on a terminal: every ~0.5 s of wall time, one line rewritten in place.
    void set_progress(std::function<ProgressInfo()> f, bool enabled);
    // Time series: every `interval`, sample the registry's series columns into `rows`.
    void enable_series(Tick interval);
    const std::vector<std::vector<double>>& series_rows() const { return series_rows_; }

private:
    void print_progress(bool final);
    void sample_series();

    EventQueue events_;
    StatRegistry stats_;
    RequestPool requests_;
    MemoryBudget memory_budget_;
    bool stop_ = false;

    std::function<ProgressInfo()> progress_;
    bool progress_on_ = false;
    std::chrono::steady_clock::time_point start_, last_print_;

    Tick series_interval_ = 0;
    std::vector<std::vector<double>> series_rows_;
    MemberEvent<Simulator, &Simulator::sample_series> series_event_{this, "stats-series"};
};

}  // namespace zng
