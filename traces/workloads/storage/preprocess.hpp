// preprocess: dataset preprocessing on the GPU (seed 001 §4.3.5, Table 2: "reading the
// files in the dataset into the GPU, transforming them into a specific format required
// by the downstream tasks, and writing them back to the storage"), through GoFS's
// batched calls (storage/gofs/file_offset.hpp). The dataset is `dirs` input directories
// of `files_per_dir` files of `in_kib` KiB; each has an output directory, created by the
// run, whose files receive `out_kib` KiB each. CTA c takes input directories c, c +
// ctas, ...; for each, its leading thread calls batch_open and batch_read on the input
// directory, then every warp transforms the files (one load per 4 KiB read and
// `transform_ops` instructions per KiB), then the leading thread creates the output
// directory's files and batch_writes them. The next directory's batch_read is issued
// before the current one's transform, so that I/O and computation overlap (the seed:
// "Both Host-Only and GeminiFS pipeline I/O and computation").
//
// host_transform=1 is the seed's Host-Only ("CPU preprocesses the dataset"): the same
// calls, with batch_read and batch_write of kind HostTransform, so that the plane's host
// cores transform each file as it arrives and write the outputs from host memory
// (storage/gofs/basic_plane.hpp); the GPU does no transform work, one warp per CTA
// issuing the calls in the same order. Only a plane with host threads (basic) takes them.
//
// The platform's file system must list 2 x dirs directories of files_per_dir files of
// in_kib KiB (storage.control_plane.directories, files, file_size for gofs): input
// directory d is /d<d>, its output /d<dirs + d>.
#pragma once
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_preprocess(WorkloadRegistry& registry);

}  // namespace zng::workloads
