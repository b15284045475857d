// gemm_ooc: an out-of-core blocked GEMM with double buffering (seed 000 IV-E, Fig. 10b-c:
// "three huge matrices cannot fit into GPU memory entirely, we need to divide these
// matrices into smaller blocks"). C = A x B, square `n` x `n` fp32 matrices in storage,
// each stored tile after tile (a `tile` x `tile` tile contiguous, row-major tiles), A,
// then B, then C. For each C tile (i, j) and each k, a step reads tiles A(i, k) and
// B(k, j) into one half of a double buffer with io_submits of `request_size` bytes
// (chunk c of the step's requests, 32 per io_submit, to grid warp c mod warps) and
// multiplies them: each warp loads its share of the two tiles (128 B per load) and
// issues its share of the tile x tile x tile multiply-adds (tile^3 / 32 warp
// instructions per step). After the last k, the C tile is written back the same way,
// and each warp waits for its writes before going on.
//
// `overlap` chooses the program: 0, BaM's and GDS's (each step a read kernel, then a
// compute kernel); 1, CAM's Fig. 7 pipeline (one kernel: each warp waits for step s's
// reads, submits step s + 1's, then computes step s).
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_gemm_ooc(WorkloadRegistry& registry);

}  // namespace zng::workloads
