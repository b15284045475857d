// betw: GraphBIG's betweenness.cu (Sariyuce et al.) for one root: init, forward
// levels counting shortest paths, backward levels accumulating dependencies, and the
// back-sum into BC.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/gpu_run.hpp"

namespace zng::workloads::graph {

struct BetweennessResult {
    std::vector<float> bc;            // BC after the root's back-sum (0 if it did not run)
    std::vector<float> delta;         // dependency of each vertex on the root
    std::vector<uint32_t> dist;
    std::vector<uint32_t> sigma;      // shortest-path counts (32-bit, wrapping as on the GPU)
    int forward_launches = 0;
    int backward_launches = 0;
    bool backsum_ran = false;
};

BetweennessResult run_betweenness(GpuRun& run, const CsrGraph& g, uint64_t root);

}  // namespace zng::workloads::graph
