// What the out-of-core workload tests (gemm_ooc, merge_sort) count in a trace: kernels,
// I/O lanes and their storage offsets, waits, loads, stores and compute instructions.
#pragma once

#include <bit>
#include <set>
#include <string>
#include <vector>

#include "traces/trace.hpp"
#include "traces/workloads/workload_context.hpp"

namespace zng::workloads::testing {

struct IoTraceCounts {
    uint32_t kernels = 0;
    uint64_t read_lanes = 0, write_lanes = 0, waits = 0, loads = 0, stores = 0, compute = 0;
    std::set<uint64_t> read_offsets, write_offsets;
    std::vector<std::vector<uint64_t>> read_submits;  // each read io_submit's lane offsets, in trace order
    std::vector<trace::RecordKind> warp0;             // first warp of the first kernel
};

inline IoTraceCounts count_io_trace(const std::string& path) {
    IoTraceCounts s;
    auto src = trace::open_trace(path);
    trace::KernelInfo k;
    trace::CtaTrace cta;
    while (src->next_kernel(k)) {
        ++s.kernels;
        bool first = true;
        while (src->next_cta(cta)) {
            for (size_t wi = 0; wi < cta.warps.size(); ++wi) {
                trace::WarpCursor c(cta.warps[wi]);
                trace::WarpRecord r;
                while (!c.done()) {
                    c.next(r);
                    s.compute += r.compute;
                    if (s.kernels == 1 && first && wi == 0) s.warp0.push_back(r.kind);
                    if (r.kind == trace::RecordKind::IoSubmit) {
                        std::vector<uint64_t> lanes;
                        for (int l = 0; l < trace::kWarpSize; ++l)
                            if (r.active_mask >> l & 1u) {
                                (r.io_write ? s.write_offsets : s.read_offsets).insert(r.lane_addr(l));
                                lanes.push_back(r.lane_addr(l));
                            }
                        (r.io_write ? s.write_lanes : s.read_lanes) += std::popcount(r.active_mask);
                        if (!r.io_write) s.read_submits.push_back(std::move(lanes));
                    }
                    if (r.kind == trace::RecordKind::IoWait) ++s.waits;
                    if (r.kind == trace::RecordKind::Load) ++s.loads;
                    if (r.kind == trace::RecordKind::Store) ++s.stores;
                }
            }
            first = false;
        }
    }
    return s;
}

}  // namespace zng::workloads::testing
