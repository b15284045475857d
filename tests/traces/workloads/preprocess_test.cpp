// preprocess: the batched calls of each directory and the GPU's transform work, counted
// by hand, with the transform on the GPU and on the host (host_transform).
#include <gtest/gtest.h>

#include <set>

#include "dense_test_support.hpp"
#include "io_trace_counts.hpp"
#include "traces/workloads/storage/batch_calls.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

using testing::count_io_trace;

// 2 input directories of 4 files of 8 KiB, outputs of 4 KiB, 64 instructions per KiB,
// one CTA taking both directories: inputs are files 0-3 and 4-7, outputs 8-11 and 12-15.
WorkloadOptions small_job(int host) {
    WorkloadOptions o;
    o.program = {{"dirs", 2}, {"files_per_dir", 4}, {"in_kib", 8}, {"out_kib", 4}, {"transform_ops", 64},
                 {"ctas", 1}, {"host_transform", host}};
    return o;
}

// Per directory the leading warp opens (a read-direction call) and reads the inputs,
// creates the outputs and writes them (write-direction calls), waiting once for the
// open, once for the read, once for the create and once for the write: 4 read-direction
// and 4 write-direction calls, 8 waits; 4 instructions for each call's arguments: 32.
void expect_calls(const testing::IoTraceCounts& s, BatchCall data) {
    EXPECT_EQ(s.kernels, 1u);
    EXPECT_EQ(s.read_offsets, (std::set<uint64_t>{batch_offset(BatchCall::Open, 0, 4), batch_offset(data, 0, 4),
                                                   batch_offset(BatchCall::Open, 4, 4), batch_offset(data, 4, 4)}));
    EXPECT_EQ(s.write_offsets,
              (std::set<uint64_t>{batch_offset(BatchCall::Create, 8, 4), batch_offset(data, 8, 4),
                                  batch_offset(BatchCall::Create, 12, 4), batch_offset(data, 12, 4)}));
    EXPECT_EQ(s.waits, 8u);
}

TEST(Preprocess, OnTheGpuEveryWarpLoadsAndTransformsItsShareOfEachDirectory) {
    const std::string path = testing::tmp_trace("preprocess_gpu");
    generate_workload("preprocess", small_job(0), path);
    const auto s = count_io_trace(path);
    expect_calls(s, BatchCall::Data);
    // A directory is 32 KiB, 8 blocks of 4 KiB: one load per block, 16 in all; its
    // transform 32 x 64 = 2,048 instructions, 4,096 for both, plus the calls' 32.
    EXPECT_EQ(s.loads, 16u);
    EXPECT_EQ(s.compute, 4096u + 32u);
}

TEST(Preprocess, OnTheHostTheGpuOnlyIssuesTheCallsOfKindHostTransform) {
    const std::string path = testing::tmp_trace("preprocess_host");
    generate_workload("preprocess", small_job(1), path);
    const auto s = count_io_trace(path);
    expect_calls(s, BatchCall::HostTransform);
    EXPECT_EQ(s.loads, 0u);
    EXPECT_EQ(s.compute, 32u);
}

}  // namespace
}  // namespace zng::workloads
