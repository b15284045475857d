// pr: push-style PageRank written in GraphBIG's GPU style (GraphBIG ships PageRank for
// the CPU only). kernel_init sets every rank to 1/V; each iteration runs
//  - kernel_push: every vertex adds d * rank / out_degree to each neighbour's
//    accumulator with atomicAdd; a vertex without out-edges adds d * rank to a
//    dangling-mass total instead (reduced over the warp with shuffles first);
//  - kernel_copy: rank = (1 - d) / V + accumulator + dangling / V, accumulator = 0,
//    and thread 0 clears the other dangling slot for the next push.
// Ranks therefore sum to 1 after every iteration.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/gpu_run.hpp"

namespace zng::workloads::graph {

constexpr float kPageRankDamping = 0.85f;

struct PageRankResult {
    std::vector<float> rank;
    int iterations = 0;   // completed push + copy pairs
};

PageRankResult run_pagerank(GpuRun& run, const CsrGraph& g, int iterations);

}  // namespace zng::workloads::graph
