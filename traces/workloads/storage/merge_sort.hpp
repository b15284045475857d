// merge_sort: an external merge sort of int32 keys in storage (seed 000 IV-D, Fig. 10a:
// "In the initial phase, we leverage the advanced sorting capabilities of the ModernGPU
// library to methodically combine data blocks ... the second phase ... involves the
// pairwise merging of these pre-sorted blocks in a systematic fashion until all data
// entries are fully organized").
//
// `elements` keys lie at storage offset 0. Run formation reads each of `runs` runs (a
// run fits in GPU memory) into GPU memory, sorts it there (a ModernGPU-style merge sort:
// CTA tiles of 2048 keys sorted in shared memory, then log2(run / 2048) global merge
// passes) and writes it to a scratch region. Then log2(runs) merge passes each merge
// pairs of sorted segments into segments twice as long, ping-ponging between two
// scratch regions (each `elements` x 4 bytes, after the input). Every phase is `runs`
// steps of one run's worth of keys: a merge step reads half a run from each of the two
// segments it merges (random keys interleave evenly) and writes one run of output.
// Requests are `request_size` bytes, 32 per io_submit, chunk c of a step to grid warp
// c mod warps; a step's loads and stores (128 B lines) to warp line mod warps.
//
// `overlap` chooses the program: 1 (default), CAM's and SPDK's ("they overlap
// computation and I/O"): one kernel per phase, each warp waits for step s's reads,
// submits step s + 1's, then sorts or merges step s into one half of a double output
// buffer and submits its writes; 0, synchronous: per step a read kernel, then a compute
// kernel that writes the step's output and waits for the writes.
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_merge_sort(WorkloadRegistry& registry);

}  // namespace zng::workloads
