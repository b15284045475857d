// A TraceSource held in memory: hand-made traces in tests, small generated workloads,
// or a whole file loaded for random access.
#pragma once

#include <string>
#include <vector>

#include "traces/trace.hpp"

namespace zng::trace {

struct KernelTrace {
    KernelInfo info;
    std::vector<CtaTrace> ctas;
};

class VectorTraceSource final : public TraceSource {
public:
    explicit VectorTraceSource(TraceHeader header = {}, std::vector<KernelTrace> kernels = {},
                               std::string name = "in-memory trace");

    // Appends a kernel; CTAs are then pushed into the returned kernel's `ctas`. The
    // reference stays valid until the next add_kernel.
    KernelTrace& add_kernel(const KernelInfo& k);
    const std::vector<KernelTrace>& kernels() const { return kernels_; }
    TraceHeader& mutable_header() { return header_; }

    // Starts the stream again from the first kernel.
    void rewind();

    // Reads what remains of `src` into memory.
    static VectorTraceSource read_all(TraceSource& src);

    const TraceHeader& header() const override { return header_; }
    bool next_kernel(KernelInfo& k) override;
    bool next_cta(CtaTrace& cta) override;
    std::string describe() const override { return name_; }

private:
    TraceHeader header_;
    std::vector<KernelTrace> kernels_;
    std::string name_;
    size_t next_kernel_ = 0;   // index of the kernel next_kernel() will yield
    size_t next_cta_ = 0;      // within kernel next_kernel_ - 1
};

}  // namespace zng::trace
