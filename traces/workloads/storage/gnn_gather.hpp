// gnn_gather: the feature gather and first-layer compute of out-of-core GNN training
// (seed 000 IV-C, Fig. 9; Table V: node classification, 2-hop random neighbour sampling
// with fan-outs 25 and 10, hidden dimension 128). Node features live in storage, one
// `feature_bytes` row per node at offset node x feature_bytes; the graph is the
// Kronecker generator's (the graph structure stays in host memory, and sampling is not
// traced).
//
// Each of `batches` mini-batches draws `batch_size` seed nodes, samples up to 25
// neighbours of each (with replacement, as DGL's sampler with replace=True) and up to
// 10 of each of those; the batch's distinct nodes are its rows. Rows go to warps in
// chunks of 32 (chunk k to warp k mod warps of a `grid_ctas` x 256-thread grid). A warp
// gathers a chunk with one io_submit (a lane per row, into the batch's slot of a double
// buffer in GPU memory) and io_wait; it then computes on each of its rows: the row's
// feature_bytes / 128 loads (32 lanes x 4 B) with `row_compute` compute instructions
// between them (the 128-wide projection of seed 000's hidden layer).
//
// `overlap` chooses the program: 0, GIDS/BaM's (a gather kernel, then a compute kernel,
// for each batch: the I/O and the compute run one after the other); 1, CAM's Fig. 7
// pipeline (one kernel: each warp waits for batch b, submits its chunks of batch b + 1,
// then computes batch b, so batch b + 1's reads overlap batch b's compute).
#pragma once
#include <cstdint>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/random_stream.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_gnn_gather(WorkloadRegistry& registry);

// The distinct nodes of one mini-batch, in order of first sampling: `seeds` seed nodes
// drawn uniformly over the vertices (with replacement), then for each seed up to
// `fanout1` neighbours drawn uniformly from its adjacency (with replacement; none for
// a vertex without edges), then for each hop-1 draw up to `fanout2` of its neighbours.
std::vector<uint64_t> sample_batch(const graph::CsrGraph& g, uint64_t seeds, uint32_t fanout1, uint32_t fanout2,
                                   graph::RandomStream& rng);

}  // namespace zng::workloads
