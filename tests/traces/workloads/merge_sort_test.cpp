// merge_sort: the runs each phase reads and writes, the merge steps' two half-runs, the
// loads, stores and merge instructions, counted by hand.
#include <gtest/gtest.h>

#include "dense_test_support.hpp"
#include "io_trace_counts.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

using testing::count_io_trace;

// 16,384 keys (64 KiB) in 4 runs of 4,096 keys (16 KiB = 4 requests of 4 KiB): run
// formation, then log2(4) = 2 merge passes; 3 phases x 4 steps = 12 steps. Storage: the
// input at [0, 64 KiB), scratch 1 at [64, 128 KiB), scratch 2 at [128, 192 KiB).
constexpr uint64_t kKiB = 1024;
WorkloadOptions small_sort(int overlap) {
    WorkloadOptions o;
    o.program = {{"elements", 16384}, {"runs", 4}, {"grid_ctas", 1}, {"overlap", overlap}};
    return o;
}

// Each step reads 4 requests and writes 4: 48 of each. Phase 0 reads the input (16
// blocks), pass 1 scratch 1, pass 2 scratch 2: 48 distinct read offsets; the writes go to
// scratch 1, scratch 2, scratch 1: 32 distinct offsets from 64 KiB.
// Loads: a run-formation step makes the shared-memory tile pass and log2(4096 / 2048) = 1
// global pass over 4096 / 32 = 128 lines: 256 loads, x 4 steps = 1024; a merge step one
// pass, 128, x 8 = 1024; 2048 in all, and as many stores.
// Compute: a run-formation step 128 x (11 + 1) levels x 6 = 9216, x 4 = 36,864; a merge
// step 128 x 6 = 768, x 8 = 6144; plus 4 address instructions for each of the 24
// io_submits (one chunk of 4 lanes per step and direction, 1 CTA): 96. 43,104 in all.
void expect_counts(const testing::IoTraceCounts& s) {
    EXPECT_EQ(s.read_lanes, 48u);
    EXPECT_EQ(s.write_lanes, 48u);
    EXPECT_EQ(s.read_offsets.size(), 48u);
    EXPECT_EQ(*s.read_offsets.rbegin(), 192 * kKiB - 4096);
    EXPECT_EQ(s.write_offsets.size(), 32u);
    EXPECT_EQ(*s.write_offsets.begin(), 64 * kKiB);
    EXPECT_EQ(*s.write_offsets.rbegin(), 192 * kKiB - 4096);
    EXPECT_EQ(s.loads, 2048u);
    EXPECT_EQ(s.stores, 2048u);
    EXPECT_EQ(s.compute, 36864u + 6144u + 96u);
}

TEST(MergeSort, SynchronousProgramReadsAndWritesEveryKeyOncePerPhase) {
    const std::string path = testing::tmp_trace("merge_sort_sync");
    generate_workload("merge_sort", small_sort(0), path);
    const auto s = count_io_trace(path);
    // 12 steps x (a read kernel + a compute kernel).
    EXPECT_EQ(s.kernels, 24u);
    expect_counts(s);
    // Each of the 8 warps waits once in each kernel: 24 x 8.
    EXPECT_EQ(s.waits, 192u);
}

TEST(MergeSort, MergeStepsReadHalfARunFromEachSegment) {
    const std::string path = testing::tmp_trace("merge_sort_halves");
    generate_workload("merge_sort", small_sort(0), path);
    const auto s = count_io_trace(path);
    ASSERT_EQ(s.read_submits.size(), 12u);  // one io_submit of 4 lanes per step
    // Pass 1, step 1: segments of 4096 keys (16 KiB) merged in pairs, output chunk 1 of
    // pair 0 reads keys [2048, 4096) of each segment: scratch 1 + 8 and + 24 KiB, two
    // requests each.
    const std::vector<uint64_t> pass1_step1 = {72 * kKiB, 76 * kKiB, 88 * kKiB, 92 * kKiB};
    EXPECT_EQ(s.read_submits[5], pass1_step1);
    // Pass 2, step 1: segments of 8192 keys (32 KiB), output chunk 1 of pair 0 reads from
    // scratch 2 + 8 KiB and + 8 + 32 KiB.
    const std::vector<uint64_t> pass2_step1 = {136 * kKiB, 140 * kKiB, 168 * kKiB, 172 * kKiB};
    EXPECT_EQ(s.read_submits[9], pass2_step1);
    // Run formation reads whole runs: step 3 is the input's last 16 KiB.
    const std::vector<uint64_t> run3 = {48 * kKiB, 52 * kKiB, 56 * kKiB, 60 * kKiB};
    EXPECT_EQ(s.read_submits[3], run3);
}

TEST(MergeSort, PipelinedProgramReadsTheNextStepBeforeComputing) {
    const std::string path = testing::tmp_trace("merge_sort_pipelined");
    generate_workload("merge_sort", small_sort(1), path);
    const auto s = count_io_trace(path);
    EXPECT_EQ(s.kernels, 3u);  // one per phase
    expect_counts(s);
    // A warp per phase: 4 waits for reads, 2 for the output buffer's reuse (steps 2 and
    // 3), 2 at the end: 8, x 8 warps x 3 phases.
    EXPECT_EQ(s.waits, 192u);
    using K = trace::RecordKind;
    ASSERT_GE(s.warp0.size(), 5u);
    EXPECT_EQ(s.warp0[0], K::IoSubmit);  // step 0's reads
    EXPECT_EQ(s.warp0[1], K::IoWait);
    EXPECT_EQ(s.warp0[2], K::IoSubmit);  // step 1's reads, before step 0's sort
    EXPECT_EQ(s.warp0[3], K::Load);
    EXPECT_EQ(s.warp0[4], K::Store);
}

TEST(MergeSort, RefusesRunsThatAreNotAPowerOfTwoOrSmallerThanATile) {
    WorkloadOptions o;
    o.program = {{"elements", 16384}, {"runs", 3}};
    EXPECT_THROW(generate_workload("merge_sort", o, testing::tmp_trace("merge_sort_bad")), std::invalid_argument);
    o.program = {{"elements", 16384}, {"runs", 16}};  // 1024 keys per run, below a 2048-key tile
    EXPECT_THROW(generate_workload("merge_sort", o, testing::tmp_trace("merge_sort_bad")), std::invalid_argument);
}

}  // namespace
}  // namespace zng::workloads
