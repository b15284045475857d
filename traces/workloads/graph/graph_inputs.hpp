// Which graph and which root a GraphBIG workload runs on, from the workload options:
// a user file (--input), or a generated graph sized by the preset.
#pragma once

#include <cstdint>
#include <string>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/workload_options.hpp"

namespace zng::workloads::graph {

// The generated input a workload uses when no file is given.
enum class GraphKind {
    Kronecker,   // Graph500 Kronecker: small = scale 14, paper = scale 19; edge factor 16
    Mesh,        // 3-D 27-point mesh: small = 24^3, paper = 80^3 vertices
};

struct GraphPreset {
    int kronecker_scale;
    int kronecker_edge_factor;
    uint32_t mesh_side;
};
// Throws std::invalid_argument for an unknown preset name.
GraphPreset graph_preset(const std::string& preset);

// The workload's graph. A file is read with load_graph(), text formats symmetrized
// (self loops dropped, parallel edges merged) because the colouring kernels need an
// undirected graph. --scale sets log2(V) of either generator (the mesh side becomes
// round(cbrt(2^scale))); --edge-factor applies to Kronecker graphs only.
CsrGraph workload_graph(const WorkloadOptions& o, GraphKind kind);

// Root of a traversal (GraphBIG takes it as a command-line argument).
// - peripheral_root: the end of a double sweep (BFS from the highest-degree vertex,
//   then from the farthest vertex found; ties go to the highest id). Deep traversals,
//   so the level-synchronous kernels launch as often as the paper reports.
// - central_root: the first vertex, in order of decreasing degree (then decreasing
//   id), whose BFS eccentricity is `depth`; failing that among the first 32, the
//   first one whose eccentricity is larger; failing that, the highest-degree vertex.
// All throw std::invalid_argument for a graph without edges.
uint64_t peripheral_root(const CsrGraph& g);
// The highest-degree vertex (ties: highest id): a traversal that reaches most of the
// graph within its first levels.
uint64_t hub_root(const CsrGraph& g);
uint64_t central_root(const CsrGraph& g, uint32_t depth);

// BFS eccentricity of `root` and the farthest vertex (highest id among the farthest).
struct Sweep {
    uint32_t eccentricity = 0;
    uint64_t farthest = 0;
};
Sweep bfs_sweep(const CsrGraph& g, uint64_t root);

}  // namespace zng::workloads::graph
