// A 3-D mesh graph: the adjacency of a 27-point stencil on an nx x ny x nz grid (each
// vertex linked to the up to 26 vertices around it), numbered x fastest, then y, then
// z, as finite-element and finite-difference matrices number their unknowns. It has
// the degree of a dense social/Kronecker graph but a diameter of max(n) - 1, which the
// level-by-level BFS kernels need to run as many launches as the paper reports.
#pragma once

#include <cstdint>

#include "traces/workloads/graph/csr_graph.hpp"

namespace zng::workloads::graph {

// Throws std::invalid_argument when a side is 0 or the grid exceeds 2^32 vertices.
CsrGraph generate_mesh3d(uint32_t nx, uint32_t ny, uint32_t nz);

}  // namespace zng::workloads::graph
