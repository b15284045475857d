// What a user can ask of a workload generator, and what the registry says about each.
#pragma once

#include <cstdint>
#include <string>

namespace zng::workloads {

struct WorkloadOptions {
    std::string preset = "small";   // "small" (seconds, tests) or "paper" (data >> 24 MB L2)
    std::string input;              // graph file; "" = generated input
    int scale = 0;                  // 0 = preset default (graph: log2 vertices; dense: problem size)
    int edge_factor = 0;            // 0 = preset default
    uint64_t seed = 1;
    bool skip_init = false;         // leave out initialisation kernels
    int max_launches = -1;          // -1 = workload default (paper Table II kernel count)
};

// Checks the fields every workload shares; throws std::invalid_argument naming the key.
void validate_options(const WorkloadOptions& o);

struct WorkloadInfo {
    std::string name;               // "bfs1", "back", ...
    std::string suite;              // "GraphBIG", "Rodinia", "PolyBench"
    std::string description;
    double paper_read_ratio = 0;    // Table II
    int paper_kernels = 0;          // Table II
};

}  // namespace zng::workloads
