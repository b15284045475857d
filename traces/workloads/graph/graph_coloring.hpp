// gc1 / gc2: GraphBIG's topology-driven Jones-Plassmann colouring
// (gc_topo_warp_centric.cu, gc_topo_thread_centric.cu). Launch `color` gives that
// colour to every uncoloured vertex whose random priority beats all its uncoloured
// neighbours (ties: the lower id wins); the host loops until a launch colours all.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/gpu_run.hpp"

namespace zng::workloads::graph {

struct ColoringResult {
    std::vector<uint32_t> color;       // kMyInfinity where still uncoloured
    std::vector<uint32_t> priority;    // randlist: rand() after srand(123), per vertex
    int iterations = 0;
};

// GraphBIG seeds the priorities with srand(SEED = 123).
constexpr uint32_t kColoringSeed = 123;

ColoringResult run_gc_topo_warp_centric(GpuRun& run, const CsrGraph& g);
ColoringResult run_gc_topo_thread_centric(GpuRun& run, const CsrGraph& g);

}  // namespace zng::workloads::graph
