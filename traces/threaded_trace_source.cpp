#include "traces/threaded_trace_source.hpp"

#include <algorithm>
#include <utility>

namespace zng::trace {

namespace {
size_t bytes_of(const CtaTrace& c) {
    size_t n = 0;
    for (const auto& w : c.warps) n += w.size();
    return n;
}
// What a CTA's buffers hold allocated, used or not.
size_t capacity_of(const CtaTrace& c) {
    size_t n = 0;
    for (const auto& w : c.warps) n += w.capacity();
    return n;
}
}  // namespace

ThreadedTraceSource::ThreadedTraceSource(std::unique_ptr<TraceSource> inner, ThreadedSourceLimits limits)
    : inner_(std::move(inner)), header_(inner_->header()), describe_(inner_->describe()), limits_(limits) {
    limits_.ctas_ahead = std::max<size_t>(limits_.ctas_ahead, 1);
    worker_ = std::thread([this] { work(); });
}

ThreadedTraceSource::~ThreadedTraceSource() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    room_.notify_all();
    worker_.join();
}

bool ThreadedTraceSource::put(Item item) {
    bool wake;
    {
        std::unique_lock lock(mutex_);
        const bool full = ctas_held_ >= limits_.ctas_ahead || bytes_held_ >= limits_.bytes_ahead;
        if (full && !stop_) {
            // Wait until the consumer has taken half, not for each CTA it takes, so that
            // the two threads do not hand every CTA over with a wake-up.
            worker_waits_ = true;
            room_.wait(lock, [this] {
                return stop_ || ctas_held_ == 0 ||
                       (ctas_held_ <= limits_.ctas_ahead / 2 && bytes_held_ <= limits_.bytes_ahead / 2);
            });
            worker_waits_ = false;
        }
        if (stop_) return false;
        if (item.kind == Kind::Cta) {
            ++ctas_held_;
            bytes_held_ += item.bytes;
        }
        queue_.push_back(std::move(item));
        wake = reader_waits_;
    }
    if (wake) ready_.notify_one();
    return true;
}

CtaTrace ThreadedTraceSource::spare() {
    std::lock_guard lock(mutex_);
    if (spares_.empty()) return {};
    CtaTrace c = std::move(spares_.back());
    spares_.pop_back();
    spare_bytes_ -= capacity_of(c);
    return c;
}

void ThreadedTraceSource::work() {
    try {
        for (;;) {
            Item k;
            if (!inner_->next_kernel(k.kernel)) {
                put(Item{});  // TraceEnd
                return;
            }
            k.kind = Kind::Kernel;
            if (!put(std::move(k))) return;
            for (;;) {
                Item c;
                c.kind = Kind::Cta;
                c.cta = spare();
                if (!inner_->next_cta(c.cta)) break;
                c.bytes = bytes_of(c.cta);
                if (!put(std::move(c))) return;
            }
            Item end;
            end.kind = Kind::KernelEnd;
            if (!put(std::move(end))) return;
        }
    } catch (...) {
        Item e;
        e.kind = Kind::Error;
        e.error = std::current_exception();
        put(std::move(e));
    }
}

ThreadedTraceSource::Item ThreadedTraceSource::take() {
    Item item;
    bool wake;
    {
        std::unique_lock lock(mutex_);
        reader_waits_ = true;
        ready_.wait(lock, [this] { return !queue_.empty(); });
        reader_waits_ = false;
        item = std::move(queue_.front());
        queue_.pop_front();
        if (item.kind == Kind::Cta) {
            --ctas_held_;
            bytes_held_ -= item.bytes;
        }
        wake = worker_waits_ && (ctas_held_ == 0 || (ctas_held_ <= limits_.ctas_ahead / 2 &&
                                                     bytes_held_ <= limits_.bytes_ahead / 2));
    }
    if (wake) room_.notify_one();
    return item;
}

void ThreadedTraceSource::recycle(CtaTrace&& cta) {
    std::lock_guard lock(mutex_);
    // As many as could be in flight at once, enough to keep the worker from allocating,
    // and no more bytes than may be held ahead: a CTA beyond them is freed.
    const size_t bytes = capacity_of(cta);
    if (spares_.size() >= limits_.ctas_ahead || spare_bytes_ + bytes > limits_.bytes_ahead) return;
    spare_bytes_ += bytes;
    spares_.push_back(std::move(cta));
}

void ThreadedTraceSource::rethrow() { std::rethrow_exception(failed_); }

bool ThreadedTraceSource::next_kernel(KernelInfo& k) {
    if (failed_) rethrow();
    if (ended_) return false;
    for (;;) {
        Item item = take();
        switch (item.kind) {
            case Kind::Kernel:
                k = std::move(item.kernel);
                in_kernel_ = true;
                return true;
            case Kind::Cta: recycle(std::move(item.cta)); break;  // the last kernel's, left untaken
            case Kind::KernelEnd: in_kernel_ = false; break;
            case Kind::TraceEnd:
                ended_ = true;
                in_kernel_ = false;
                return false;
            case Kind::Error:
                failed_ = item.error;
                rethrow();
        }
    }
}

bool ThreadedTraceSource::next_cta(CtaTrace& cta) {
    if (failed_) rethrow();
    if (!in_kernel_) return false;
    Item item = take();
    switch (item.kind) {
        case Kind::Cta:
            std::swap(cta, item.cta);
            recycle(std::move(item.cta));
            return true;
        case Kind::KernelEnd: in_kernel_ = false; return false;
        case Kind::Error:
            failed_ = item.error;
            rethrow();
        case Kind::Kernel:
        case Kind::TraceEnd: break;
    }
    throw TraceError(describe_ + ": internal error: a kernel boundary out of order in the read-ahead queue");
}

}  // namespace zng::trace
