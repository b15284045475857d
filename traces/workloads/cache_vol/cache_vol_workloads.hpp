// Seed 004's (HDF5 Cache VOL) benchmarks as GPU-issued I/O, the ranks the warps of one
// CTA, lane 0 of each making its rank's calls (each call blocking, as an HDF5 call is;
// collective calls end in a CTA barrier):
//   checkpoint    IV-A 1): "Each process is writing 16 MB data to a shared HDF5 file 8
//                 times per iteration. The total number of iterations is 32. We vary the
//                 amount of compute per iteration." Iteration i writes dataset (file) i:
//                 the writes, then the compute phase, then the dataset's close
//                 (storage/cache_vol/file_close.hpp), collective. vpic=1: IV-B 1) VPIC-IO, "a total of
//                 256 MB" per process in 8 properties, 20 time steps, 200 s of sleep.
//   epoch_reader  IV-A 2): "each process reads data from a shared HDF5 file in one batch
//                 per step. All the processes together read through the entire dataset
//                 in one iteration"; random=1 shuffles the batches anew every epoch
//                 ("each process will be reading different data in different
//                 iterations"), then a training step per batch, ending together.
// Both name files as storage/gofs/file_offset.hpp does; they need a platform whose
// control plane is cache_vol (configs/cache_vol*.yaml).
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_cache_vol_workloads(WorkloadRegistry& registry);

}  // namespace zng::workloads
