#include "traces/importers/cta_assembler.hpp"

#include <fmt/format.h>

#include <limits>

namespace zng::importers {

using trace::RecordKind;

void CtaAssembler::begin(uint64_t cta_id, const trace::KernelInfo& kernel) {
    builder_.begin(cta_id, kernel);
    pending_.assign(builder_.warps(), Pending{});
}

void CtaAssembler::flush_compute(uint32_t warp, Pending& p) {
    scratch_ = trace::WarpRecord{};
    scratch_.kind = RecordKind::Compute;
    scratch_.pc = p.first_pc;
    scratch_.active_mask = trace::kFullWarpMask;
    scratch_.compute = p.count;
    builder_.add(warp, scratch_);
    p.count = 0;
}

void CtaAssembler::compute(uint32_t warp, uint64_t pc) {
    Pending& p = pending_.at(warp);
    if (p.count == 0) p.first_pc = pc;
    if (p.count == std::numeric_limits<uint32_t>::max()) {
        // The run outgrows the field: it becomes a Compute record of its own.
        flush_compute(warp, p);
        p.first_pc = pc;
    }
    ++p.count;
}

void CtaAssembler::add(uint32_t warp, trace::WarpRecord& r) {
    Pending& p = pending_.at(warp);
    r.compute = p.count;
    p.count = 0;
    builder_.add(warp, r);
    if (r.kind == RecordKind::Exit) p.exited = true;
}

void CtaAssembler::end_warp(uint32_t warp) {
    Pending& p = pending_.at(warp);
    if (p.ended) return;
    p.ended = true;
    if (p.count > 0) flush_compute(warp, p);
    if (!p.exited) ++report_.appended_exits;
}

void CtaAssembler::finish(trace::CtaTrace& out) {
    for (uint32_t w = 0; w < pending_.size(); ++w) end_warp(w);
    builder_.finish(out);
    ++report_.ctas;
    report_.records += out.records;
}

}  // namespace zng::importers
