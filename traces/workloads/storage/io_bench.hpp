// io_bench: GPU threads reading or writing storage, the micro-benchmark of seed 000
// (IV-B, Fig. 8: random 4 KB reads over 1-12 SSDs). Every thread of a grid of
// `ctas` x `threads` issues `requests / (ctas x threads)` requests one after another:
// an io_submit of `request_size` bytes into (or out of) its own slot of a GPU buffer,
// then an io_wait for it (each warp waits on its own tag, so a thread waits for its
// own request only). Offsets are random over `span_mib` MiB (aligned to the request
// size) or sequential (request k of the grid at k x request_size).
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_storage_workloads(WorkloadRegistry& registry);

}  // namespace zng::workloads
