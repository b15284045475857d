#include "gpu_model/app_runner.hpp"

#include "gpu_model/sm/streaming_multiprocessor.hpp"
#include "sim/core/errors.hpp"

namespace zng::gpu {

AppRunner::AppRunner(Simulator& sim, const ClockDomain& clock, uint16_t id, std::string name,
                     std::unique_ptr<trace::TraceSource> trace, std::vector<StreamingMultiprocessor*> sms,
                     StatGroup g, std::function<void(AppRunner&)> on_finish)
    : sim_(sim),
      clock_(clock),
      id_(id),
      name_(std::move(name)),
      trace_(std::move(trace)),
      sms_(std::move(sms)),
      on_finish_(std::move(on_finish)),
      instructions_(g.counter("instructions", "warp instructions issued", "instructions")),
      kernels_(g.counter("kernels", "kernels completed", "kernels")),
      ctas_(g.counter("ctas", "CTAs launched", "CTAs")),
      cycles_(g.counter("cycles", "GPU cycles from start to the application's end", "cycles")) {
    g.formula("ipc", "warp instructions per GPU cycle until the application finished", "instr/cycle", [this] {
        double c = static_cast<double>(cycles_.get());
        return c > 0 ? static_cast<double>(instructions_.get()) / c : 0.0;
    });
    g.formula("sms", "SMs given to the application", "SMs", [this] { return static_cast<double>(sms_.size()); });
}

void AppRunner::start() { next_kernel(); }

void AppRunner::close_window() {
    if (finished_) return;
    finish_cycle_ = clock_.tick_to_cycle(sim_.now()) + 1;
    cycles_ += finish_cycle_;
}

void AppRunner::next_kernel() {
    if (!trace_->next_kernel(kernel_)) {
        finished_ = true;
        finish_cycle_ = clock_.tick_to_cycle(sim_.now()) + 1;
        cycles_ += finish_cycle_;
        if (on_finish_) on_finish_(*this);
        return;
    }
    std::string why;
    if (!sms_.front()->fits_empty(kernel_, why))
        throw trace::TraceError(describe() + ": kernel '" + kernel_.name + "' cannot run: " + why);
    kernel_open_ = true;
    ctas_exhausted_ = false;
    draining_ = false;
    dispatch();
}

void AppRunner::dispatch() {
    if (dispatching_) return;  // a CTA finishing during a launch re-enters here
    dispatching_ = true;
    const uint32_t n = static_cast<uint32_t>(sms_.size());
    // Passes of one CTA per SM, so a kernel spreads over all SMs before any SM fills.
    bool progress = true;
    while (progress && !ctas_exhausted_) {
        progress = false;
        for (uint32_t i = 0; i < n && !ctas_exhausted_; ++i) {
            StreamingMultiprocessor* sm = sms_[(next_sm_ + i) % n];
            if (!sm->can_accept(kernel_)) continue;
            if (!trace_->next_cta(sm->cta_buffer())) {
                ctas_exhausted_ = true;
                break;
            }
            ++ctas_running_;
            ++ctas_;
            sm->launch_cta(*this, kernel_);
            progress = true;
        }
        next_sm_ = (next_sm_ + 1) % n;
    }
    dispatching_ = false;
    if (ctas_exhausted_) {
        draining_ = true;
        maybe_end_kernel();
    }
}

void AppRunner::cta_finished() {
    --ctas_running_;
    if (!ctas_exhausted_)
        dispatch();
    else
        maybe_end_kernel();
}

void AppRunner::maybe_end_kernel() {
    if (!kernel_open_ || !ctas_exhausted_ || ctas_running_ != 0 || in_flight_ != 0 || dispatching_) return;
    kernel_open_ = false;
    draining_ = false;
    ++kernels_;
    next_kernel();
}

}  // namespace zng::gpu
