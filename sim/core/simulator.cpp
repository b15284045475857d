#include "sim/core/simulator.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace zng {

Simulator::Simulator() { stats_.set_memory_budget(&memory_budget_); }
Simulator::~Simulator() = default;

Simulator::RunResult Simulator::run() {
    start_ = last_print_ = std::chrono::steady_clock::now();
    uint64_t start_events = events_.fired();
    RunResult res;
    // The wall clock is read only every 64Ki events: cheap enough to leave on.
    uint32_t countdown = 1u << 16;
    while (!stop_) {
        if (!events_.step()) {
            res.drained = true;
            break;
        }
        if (--countdown == 0) {
            countdown = 1u << 16;
            if (progress_on_) print_progress(false);
        }
    }
    if (progress_on_) print_progress(true);
    res.end_tick = events_.now();
    res.events = events_.fired() - start_events;
    res.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return res;
}

void Simulator::set_progress(std::function<ProgressInfo()> f, bool enabled) {
    progress_ = std::move(f);
    progress_on_ = enabled && progress_;
}

void Simulator::print_progress(bool final) {
    auto t = std::chrono::steady_clock::now();
    if (!final && t - last_print_ < std::chrono::milliseconds(500)) return;
    last_print_ = t;
    double wall = std::chrono::duration<double>(t - start_).count();
    ProgressInfo p = progress_();
    double rate = wall > 0 ? static_cast<double>(p.instructions) / wall : 0;
    std::string eta = "-";
    if (p.total_instructions > p.instructions && rate > 0) {
        double s = static_cast<double>(p.total_instructions - p.instructions) / rate;
        eta = fmt::format("{:.0f}s", s);
    }
    std::string pct = p.total_instructions
                          ? fmt::format(" ({:.1f}%)", 100.0 * static_cast<double>(p.instructions) /
                                                          static_cast<double>(p.total_instructions))
                          : "";
    std::fprintf(stdout, "\r[zngsim] sim %.3f us | %llu warp-instr%s | %.2f M instr/s | ETA %s   %s",
                 ticks_to_seconds(now()) * 1e6, static_cast<unsigned long long>(p.instructions), pct.c_str(),
                 rate / 1e6, eta.c_str(), final ? "\n" : "");
    std::fflush(stdout);
}

void Simulator::enable_series(Tick interval) {
    series_interval_ = interval;
    if (interval > 0 && stats_.has_series()) events_.schedule(series_event_, now() + interval);
}

void Simulator::sample_series() {
    std::vector<double> row;
    stats_.sample_series(ticks_to_seconds(now()) * 1e6, row);
    series_rows_.push_back(std::move(row));
    // Keep sampling only while the model has work: the sampler alone must not keep the
    // queue alive forever.
    if (!events_.empty()) events_.schedule(series_event_, now() + series_interval_);
}

}  // namespace zng
