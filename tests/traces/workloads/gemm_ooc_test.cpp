// gemm_ooc: the tiles each step reads, the C tiles written back, the loads and the
// multiply-adds, counted by hand.
#include <gtest/gtest.h>

#include "dense_test_support.hpp"
#include "io_trace_counts.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

using testing::count_io_trace;

TEST(GemmOoc, SerialProgramReadsEveryTileOncePerStepAndWritesCOnce) {
    // n 128, tile 64: 2 x 2 x 2 = 8 steps, each a read and a multiply kernel: 16 kernels.
    // A tile is 64 x 64 x 4 = 16 KiB = 4 requests of 4 KiB; a step reads two: 8 x 8 = 64
    // reads, covering A and B's 2 x 4 tiles = 32 distinct 4 KiB blocks (offsets 0 .. 128
    // KiB). C's 4 tiles are written once each: 16 writes at 128-192 KiB.
    // Loads: 2 tiles x 16 KiB / 128 B = 256 per step, 2048 in all. Multiply-adds:
    // 64^3 / 32 = 8192 per step, 65,536 in all; plus 4 address instructions per io_submit.
    // 1 CTA (8 warps): 8 requests a step fit one chunk (warp 0); warp 0 of each read
    // kernel waits, and so does every warp of a C tile's last step (its own writes).
    WorkloadOptions o;
    o.program = {{"n", 128}, {"tile", 64}, {"grid_ctas", 1}};
    const std::string path = testing::tmp_trace("gemm_serial");
    generate_workload("gemm_ooc", o, path);
    const auto s = count_io_trace(path);
    EXPECT_EQ(s.kernels, 16u);
    EXPECT_EQ(s.read_lanes, 64u);
    EXPECT_EQ(s.read_offsets.size(), 32u);
    EXPECT_EQ(*s.read_offsets.rbegin(), 128u * 1024 - 4096);
    EXPECT_EQ(s.write_lanes, 16u);
    EXPECT_EQ(s.write_offsets.size(), 16u);
    EXPECT_EQ(*s.write_offsets.begin(), 128u * 1024);
    EXPECT_EQ(s.loads, 2048u);
    // io_submits: 8 reads (one per step) + 4 writes (one per C tile) = 12, 4 each.
    EXPECT_EQ(s.compute, 65536u + 12 * 4);
    // Waits: every warp of every read kernel (8 x 8 = 64) and after each C tile's writes
    // (8 warps x 4 = 32).
    EXPECT_EQ(s.waits, 64u + 32u);
}

TEST(GemmOoc, PipelinedProgramReadsTheNextStepBeforeMultiplying) {
    WorkloadOptions o;
    o.program = {{"n", 128}, {"tile", 64}, {"grid_ctas", 1}, {"overlap", 1}};
    const std::string path = testing::tmp_trace("gemm_pipelined");
    generate_workload("gemm_ooc", o, path);
    const auto s = count_io_trace(path);
    EXPECT_EQ(s.kernels, 1u);
    EXPECT_EQ(s.read_lanes, 64u);
    EXPECT_EQ(s.write_lanes, 16u);
    EXPECT_EQ(s.loads, 2048u);
    EXPECT_EQ(s.compute, 65536u + 12 * 4);
    using K = trace::RecordKind;
    ASSERT_GE(s.warp0.size(), 4u);
    EXPECT_EQ(s.warp0[0], K::IoSubmit);  // step 0's reads
    EXPECT_EQ(s.warp0[1], K::IoWait);
    EXPECT_EQ(s.warp0[2], K::IoSubmit);  // step 1's reads, before step 0's loads
    EXPECT_EQ(s.warp0[3], K::Load);
}

TEST(GemmOoc, RefusesAnOrderThatIsNotAMultipleOfTheTile) {
    WorkloadOptions o;
    o.program = {{"n", 100}, {"tile", 64}};
    EXPECT_THROW(generate_workload("gemm_ooc", o, testing::tmp_trace("gemm_bad")), std::invalid_argument);
}

}  // namespace
}  // namespace zng::workloads
