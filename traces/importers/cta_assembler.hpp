// Turns a foreign trace's per-warp instruction streams into a zngsim CtaTrace: runs of
// compute instructions fold into the `compute` count of the warp's next record, and a
// warp whose stream does not end with EXIT gets one (through trace::CtaBuilder). Shared
// by every importer so they fold and close warps the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/cta_builder.hpp"
#include "traces/importers/importers.hpp"
#include "traces/trace.hpp"

namespace zng::importers {

class CtaAssembler {
public:
    explicit CtaAssembler(ImportReport& report) : report_(report) {}

    void begin(uint64_t cta_id, const trace::KernelInfo& kernel);
    // One compute instruction of `warp` at `pc`.
    void compute(uint32_t warp, uint64_t pc);
    // A non-compute instruction; its `compute` field is set to the folded run before it.
    void add(uint32_t warp, trace::WarpRecord& r);
    // Flushes the warp's pending compute; the warp takes no more instructions.
    void end_warp(uint32_t warp);
    // Ends every warp and moves the CTA into `out` (recycling out's buffers).
    void finish(trace::CtaTrace& out);

    uint32_t warps() const { return builder_.warps(); }

private:
    struct Pending {
        uint64_t first_pc = 0;
        uint32_t count = 0;
        bool ended = false;
        bool exited = false;
    };
    // The warp's pending run as a Compute record of its own (at the run's first pc).
    void flush_compute(uint32_t warp, Pending& p);

    trace::CtaBuilder builder_;
    std::vector<Pending> pending_;
    trace::WarpRecord scratch_;
    ImportReport& report_;
};

}  // namespace zng::importers
