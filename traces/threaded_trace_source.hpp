// Runs another trace source on a thread of its own, ahead of the simulation: its kernels
// and CTAs wait in a bounded queue until the consumer takes them. An imported trace
// (Accel-Sim's text, MacSim's per-warp gzip files) costs parsing and encoding per
// record that the simulation would otherwise pay on its own thread; here that work runs
// on a second core while the simulation runs, and the first CTAs are read while the
// platform is being built.
//
// The consumer sees exactly what the inner source gives, in the same order: the same
// kernels, CTAs and errors (an error is thrown by the call that would have met it). The
// worker reads every CTA of a kernel, so a consumer that moves on to the next kernel
// before the last CTA finds the next kernel's CTAs, as with the inner source itself.
// Memory is bounded by the CTAs held ahead and their bytes, not by the trace's size.
// The inner source's header must be complete once it is opened (it is read then).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "traces/trace.hpp"

namespace zng::trace {

struct ThreadedSourceLimits {
    size_t ctas_ahead = 512;            // CTAs read before the consumer asks for them
    size_t bytes_ahead = 64u << 20;     // their encoded records' bytes
};

class ThreadedTraceSource final : public TraceSource {
public:
    explicit ThreadedTraceSource(std::unique_ptr<TraceSource> inner, ThreadedSourceLimits limits = {});
    ~ThreadedTraceSource() override;
    ThreadedTraceSource(const ThreadedTraceSource&) = delete;
    ThreadedTraceSource& operator=(const ThreadedTraceSource&) = delete;

    const TraceHeader& header() const override { return header_; }
    bool next_kernel(KernelInfo& k) override;
    bool next_cta(CtaTrace& cta) override;
    std::string describe() const override { return describe_; }

private:
    enum class Kind { Kernel, Cta, KernelEnd, TraceEnd, Error };
    struct Item {
        Kind kind = Kind::TraceEnd;
        KernelInfo kernel;
        CtaTrace cta;
        std::exception_ptr error;
        size_t bytes = 0;
    };
    void work();
    // Worker side: queues an item, waiting for room; false when the consumer has left.
    bool put(Item item);
    CtaTrace spare();
    // Consumer side: the next item, waiting for it.
    Item take();
    void recycle(CtaTrace&& cta);
    [[noreturn]] void rethrow();

    std::unique_ptr<TraceSource> inner_;  // used by the worker only, once started
    TraceHeader header_;
    std::string describe_;
    ThreadedSourceLimits limits_;

    std::mutex mutex_;
    std::condition_variable ready_;  // an item was queued
    std::condition_variable room_;   // the consumer took items (or left)
    std::deque<Item> queue_;
    std::vector<CtaTrace> spares_;   // CTAs the consumer is done with: their buffers go round again
    size_t spare_bytes_ = 0;         // the spares' allocated bytes
    size_t ctas_held_ = 0, bytes_held_ = 0;
    bool worker_waits_ = false, reader_waits_ = false, stop_ = false;

    // Consumer state.
    bool in_kernel_ = false, ended_ = false;
    std::exception_ptr failed_;
    std::thread worker_;
};

}  // namespace zng::trace
