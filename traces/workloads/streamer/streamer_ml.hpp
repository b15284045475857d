// streamer_ml: iterative machine learning over cached partitions larger than host DRAM
// (seed 002's cache-intensive HiBench workloads on Spark: "Six applications spend a
// dominant portion of total execution time computing on cached data"). Each warp is a
// Spark task slot (one 32-thread CTA each); partition p belongs to slot p mod tasks.
// A partition is a stream of the caching tier (storage/streamer/stream_offset.hpp:
// storage offset = p << 40 | offset), one sblock per request.
//   kernel "cache" (iteration 0): each task computes its partitions sblock by sblock
//     (a phase of compute_ps_per_byte x sblock) and writes each sblock (io_submit, then
//     io_wait), then closes the stream (a one-block write at the stream's close offset);
//   kernels "iterate" 1..iterations: each task reads its partitions again, sblock by
//     sblock (io_submit, io_wait: read_stream()), and computes on each (a phase); with
//     write_back 1 it also writes an updated partition as stream partitions + p, sblock
//     after sblock, and closes it (rewriting it every iteration destroys the old one).
// A kernel is an iteration's stage: the next starts when every task has finished.
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_streamer_workloads(WorkloadRegistry& registry);

}  // namespace zng::workloads
