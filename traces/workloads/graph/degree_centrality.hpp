// deg: GraphBIG's degree_centr.cu: one thread per vertex adds 1 to the in-degree
// counter of every destination of its edges with atomicAdd.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/gpu_run.hpp"

namespace zng::workloads::graph {

struct DegreeResult {
    std::vector<uint32_t> degree;   // in-degree counted by the kernel
    bool ran = false;
};

DegreeResult run_degree_centrality(GpuRun& run, const CsrGraph& g);

}  // namespace zng::workloads::graph
