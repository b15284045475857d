// Hand-made traces for the GPU tests: record constructors and a one-kernel builder.
#pragma once
#include <memory>
#include <vector>

#include "traces/cta_builder.hpp"
#include "traces/vector_trace_source.hpp"

namespace zng::gpu::testing {

using trace::RecordKind;
using trace::WarpRecord;

inline WarpRecord compute(uint64_t pc, uint32_t n) {
    WarpRecord r;
    r.pc = pc;
    r.kind = RecordKind::Compute;
    r.active_mask = trace::kFullWarpMask;
    r.compute = n;
    return r;
}

inline WarpRecord mem(RecordKind kind, uint64_t pc, uint64_t base, int64_t stride, uint8_t size = 4,
                      uint32_t mask = trace::kFullWarpMask, trace::MemSpace space = trace::MemSpace::Global) {
    WarpRecord r;
    r.pc = pc;
    r.kind = kind;
    r.set_access(space, size, mask, true, base, stride);
    return r;
}
inline WarpRecord load(uint64_t pc, uint64_t base, int64_t stride = 4, uint8_t size = 4) {
    return mem(RecordKind::Load, pc, base, stride, size);
}
inline WarpRecord store(uint64_t pc, uint64_t base, int64_t stride = 4, uint8_t size = 4) {
    return mem(RecordKind::Store, pc, base, stride, size);
}
inline WarpRecord barrier(uint64_t pc) {
    WarpRecord r;
    r.pc = pc;
    r.kind = RecordKind::Barrier;
    r.active_mask = trace::kFullWarpMask;
    return r;
}

// Per-warp record lists of one CTA.
using CtaRecords = std::vector<std::vector<WarpRecord>>;

// A one-kernel trace: each CTA given as its warps' records (Exit appended by the builder).
inline std::unique_ptr<trace::VectorTraceSource> make_trace(const std::vector<CtaRecords>& ctas,
                                                            uint32_t warps_per_cta, uint64_t* instructions = nullptr,
                                                            uint32_t kernels = 1) {
    auto src = std::make_unique<trace::VectorTraceSource>();
    uint64_t total = 0;
    for (uint32_t k = 0; k < kernels; ++k) {
        trace::KernelInfo info;
        info.name = "k" + std::to_string(k);
        info.grid.x = static_cast<uint32_t>(ctas.size());
        info.block.x = warps_per_cta * trace::kWarpSize;
        auto& kt = src->add_kernel(info);
        trace::CtaBuilder b;
        for (size_t c = 0; c < ctas.size(); ++c) {
            b.begin(c, info);
            for (size_t w = 0; w < ctas[c].size(); ++w)
                for (const auto& r : ctas[c][w]) b.add(static_cast<uint32_t>(w), r);
            kt.ctas.push_back(b.finish());
            total += b.instructions();
        }
    }
    if (instructions) *instructions = total;
    return src;
}

}  // namespace zng::gpu::testing
