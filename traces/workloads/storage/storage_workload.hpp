// What the storage workloads (io_bench, file_bench, gnn_gather, gemm_ooc) share: reading
// their program options with a default, and refusing the graph inputs the synthetic ones
// do not take.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "traces/workloads/workload_context.hpp"
#include "traces/workloads/workload_options.hpp"

namespace zng::workloads {

// The value given for program option `o`, or `fallback` when none was given.
inline int64_t option_or(const WorkloadContext& ctx, const ProgramOption& o, int64_t fallback) {
    return ctx.options().program_value(o.name).value_or(fallback);
}

// A workload that makes its own requests takes no graph input, edge factor or scale.
inline void refuse_graph_inputs(const WorkloadContext& ctx, const std::string& workload) {
    const WorkloadOptions& o = ctx.options();
    if (!o.input.empty() || o.edge_factor != 0 || o.scale != 0)
        throw std::invalid_argument("workload '" + workload + "' takes no input, edge_factor or scale");
}

}  // namespace zng::workloads
