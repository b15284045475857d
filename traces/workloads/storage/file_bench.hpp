// file_bench: GPU threads reading or writing many small files whole, the multi-file
// microbenchmark of seed 001 (§4.2, Table 1: "Multi-file-R/W: 100K 16KB small files
// read/write"). Thread t of a grid of `ctas` x `threads` handles files t, t + grid, ...:
// for each, an io_submit of the whole file into (or out of) its own slot of a GPU
// buffer, then an io_wait. File f is named by storage offset f << 40 (the convention of
// GoFS, storage/gofs/file_offset.hpp), so the platform's file system must list at least
// `files` files of at least `file_kib` KiB (configs/gofs.yaml: storage.control_plane.
// files and file_size).
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_file_bench(WorkloadRegistry& registry);

}  // namespace zng::workloads
