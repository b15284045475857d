// file_graph: BFS and connected components over a graph kept in a file and read through
// data-dependent 4 KB file reads (seed 001 §4.3.3, Fig. 15: "The performance trend is
// highly correlated with the random read throughput"; Table 1: BFS and CC on GAP graphs).
// The graph is the Kronecker generator's (--scale, --edge-factor; graph_inputs.hpp),
// stored as file 0 (storage offsets are file 0's byte offsets): the CSR's offsets, 8 B
// per vertex plus one, then, from the next 4 KiB boundary, its edges, 8 B each.
//
// A first kernel reads the offsets into GPU memory (a 4 KiB page per thread; they are
// 1/16 of the file at edge factor 16, as the GAP graphs' row pointers are of theirs).
// Each step is then a kernel over the step's active vertices (BFS: the level's
// frontier, from the peripheral root; CC: label propagation, every vertex at first,
// then those whose label fell in the step before). Thread t of a warp takes an active
// vertex, loads its offsets from GPU memory and reads the 4 KiB pages holding its edges
// (reads that depend on those data), then waits. The warp then walks each of its 32
// vertices' edges, 32 at a time (a
// compute instruction and an atomic on the neighbour's level or label in GPU memory,
// warp-centric as GraphBIG's kernels). Vertices go to warps in chunks of 32, chunk k to
// warp k mod the grid's warps (`ctas` CTAs of 256 threads, fewer when the step has
// fewer chunks).
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_file_graph(WorkloadRegistry& registry);

}  // namespace zng::workloads
