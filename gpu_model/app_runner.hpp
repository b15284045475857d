// One application running on its share of the SMs: pulls kernels from its trace one
// after another and CTAs from the current kernel as SM slots free up, and knows when
// it has finished. A kernel ends when all its CTAs have exited and every memory
// request the application issued has been answered (stores included), as a kernel
// boundary is a global synchronisation point.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/clock_domain.hpp"
#include "sim/core/simulator.hpp"
#include "sim/stats/stats.hpp"
#include "traces/trace.hpp"

namespace zng::gpu {

class StreamingMultiprocessor;

class AppRunner {
public:
    AppRunner(Simulator& sim, const ClockDomain& clock, uint16_t id, std::string name,
              std::unique_ptr<trace::TraceSource> trace, std::vector<StreamingMultiprocessor*> sms,
              StatGroup stats, std::function<void(AppRunner&)> on_finish);

    uint16_t id() const { return id_; }
    const std::string& name() const { return name_; }
    std::string describe() const { return trace_->describe(); }
    const std::vector<StreamingMultiprocessor*>& sms() const { return sms_; }

    void start();
    bool finished() const { return finished_; }
    Cycle finish_cycle() const { return finish_cycle_; }
    // run.stop_at: the application has not finished and the run ends now. Its cycles
    // become those of the window (the cycle of `now` + 1, as at a finish), so its IPC is
    // the window's; it stays not finished.
    void close_window();
    uint64_t instructions() const { return instructions_.get(); }
    uint64_t requests_in_flight() const { return in_flight_; }
    uint64_t kernels_done() const { return kernels_.get(); }
    uint64_t ctas_launched() const { return ctas_.get(); }

    // Called by the SMs.
    void count_instruction() { ++instructions_; }
    void request_issued() { ++in_flight_; }
    void request_done() {
        --in_flight_;
        if (in_flight_ == 0 && draining_) maybe_end_kernel();
    }
    void cta_finished();

private:
    void next_kernel();
    void dispatch();
    void maybe_end_kernel();

    Simulator& sim_;
    const ClockDomain& clock_;
    uint16_t id_;
    std::string name_;
    std::unique_ptr<trace::TraceSource> trace_;
    std::vector<StreamingMultiprocessor*> sms_;
    std::function<void(AppRunner&)> on_finish_;

    trace::KernelInfo kernel_;
    bool kernel_open_ = false;
    bool ctas_exhausted_ = false;
    bool draining_ = false;  // all CTAs dispatched: waiting for the last to finish
    bool dispatching_ = false;
    bool finished_ = false;
    uint32_t next_sm_ = 0;   // round-robin start of the next dispatch pass
    uint64_t ctas_running_ = 0;
    uint64_t in_flight_ = 0;
    Cycle finish_cycle_ = 0;

    Counter& instructions_;
    Counter& kernels_;
    Counter& ctas_;
    Counter& cycles_;
};

}  // namespace zng::gpu
