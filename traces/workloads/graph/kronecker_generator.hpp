// Graph500-style Kronecker (R-MAT) graph generator.
#pragma once

#include <cstdint>

#include "traces/workloads/graph/csr_graph.hpp"

namespace zng::workloads::graph {

struct KroneckerParams {
    int scale = 14;          // 2^scale vertices
    int edge_factor = 16;    // edge_factor * 2^scale generated edges (before symmetrizing)
    double a = 0.57, b = 0.19, c = 0.19;   // quadrant probabilities; d = 1 - a - b - c
    uint64_t seed = 1;
};

// Generates edge_factor * 2^scale edges by recursive quadrant choice (the Graph500
// reference's per-bit rule: row bit set with probability c+d, column bit with
// probability b/(a+b) or d/(c+d) given the row bit), relabels the vertices by a
// seeded random permutation, then builds an undirected simple graph: every edge is
// stored in both directions, self loops are dropped and parallel edges merged.
// Isolated vertices stay (V is always 2^scale), as in Graph500.
// Throws std::invalid_argument for scale outside 1..32, edge_factor outside 1..1024
// or probabilities that are not a distribution.
CsrGraph generate_kronecker(const KroneckerParams& p);

}  // namespace zng::workloads::graph
