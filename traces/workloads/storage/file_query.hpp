// file_query: intelligent queries over a dataset of small files (seed 001 §4.3.1: "In each
// iteration, the application first fetches a batch of samples into the GPU memory, which
// involves opening and reading a batch of small files. And then, GPU executes a DNN model
// to conduct similarity search against all samples in the dataset. The computation of
// the current batch and the data fetch of the next batch are pipelined."; Table 1: IIR,
// TIR and MIR samples of 12 KB). Batch b is directory /d<b> of `batch_files` files of
// `file_kib` KiB; CTA c of `ctas` 256-thread CTAs fetches and scores its share of each
// batch (batch_files / ctas files) into its half of a double buffer: it issues batch b +
// 1's fetch, scores batch b (one load per 4 KiB and `ops_per_file` instructions per
// file, over its warps), then waits for batch b + 1.
//
// A fetch is, with `batch: 1`, the CTA's leading thread calling batch_open and then
// batch_read on its files (GoFS's batched calls, storage/gofs/file_offset.hpp); with
// `batch: 0`, every thread reading its files whole, one request per file (a file
// system opens a file at its first request), file f named by storage offset f << 40.
// The platform must list `batches` directories of batch_files files of at least
// file_kib KiB (gofs: storage.control_plane.directories, files, file_size).
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_file_query(WorkloadRegistry& registry);

}  // namespace zng::workloads
