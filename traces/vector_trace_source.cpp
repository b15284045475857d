#include "traces/vector_trace_source.hpp"

#include <utility>

namespace zng::trace {

VectorTraceSource::VectorTraceSource(TraceHeader header, std::vector<KernelTrace> kernels, std::string name)
    : header_(std::move(header)), kernels_(std::move(kernels)), name_(std::move(name)) {}

KernelTrace& VectorTraceSource::add_kernel(const KernelInfo& k) {
    kernels_.push_back(KernelTrace{k, {}});
    return kernels_.back();
}

void VectorTraceSource::rewind() {
    next_kernel_ = 0;
    next_cta_ = 0;
}

bool VectorTraceSource::next_kernel(KernelInfo& k) {
    if (next_kernel_ >= kernels_.size()) return false;
    k = kernels_[next_kernel_++].info;
    next_cta_ = 0;
    return true;
}

bool VectorTraceSource::next_cta(CtaTrace& cta) {
    if (next_kernel_ == 0) return false;
    const auto& ctas = kernels_[next_kernel_ - 1].ctas;
    if (next_cta_ >= ctas.size()) return false;
    cta = ctas[next_cta_++];
    return true;
}

VectorTraceSource VectorTraceSource::read_all(TraceSource& src) {
    VectorTraceSource out(src.header(), {}, src.describe());
    KernelInfo k;
    while (src.next_kernel(k)) {
        KernelTrace& kt = out.add_kernel(k);
        CtaTrace cta;
        while (src.next_cta(cta)) kt.ctas.push_back(std::move(cta));
    }
    return out;
}

}  // namespace zng::trace
