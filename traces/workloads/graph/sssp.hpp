// sssp3: GraphBIG's sssp_data_thread_centric.cu with unit edge weights.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/gpu_run.hpp"

namespace zng::workloads::graph {

struct SsspResult {
    std::vector<uint32_t> distance;   // kMyInfinity where not reached
    int iterations = 0;               // host loop trips whose relax kernel ran
};

// Data-driven Bellman-Ford: `kernel` relaxes the out-edges of every worklist vertex
// into `update` with atomicMin and pushes the vertices it lowered; `kernel2` copies
// the lowered distances into vplist. Edge weights are eplist (all 1 here).
SsspResult run_sssp_data_thread_centric(GpuRun& run, const CsrGraph& g, uint64_t root);

}  // namespace zng::workloads::graph
