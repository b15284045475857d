// gnn_gather: 2-hop sampling on hand-made graphs, and the trace's reads, waits, loads
// and compute counted by hand from the batches' rows.
#include <gtest/gtest.h>

#include <vector>

#include "dense_test_support.hpp"
#include "io_trace_counts.hpp"
#include "traces/workloads/graph/graph_inputs.hpp"
#include "traces/workloads/storage/gnn_gather.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {
using testing::count_io_trace;
using testing::IoTraceCounts;

// Vertices paired 0-1, 2-3, ...: every vertex has exactly one neighbour, its partner.
graph::CsrGraph pairs(uint64_t n) {
    graph::CsrGraph g;
    for (uint64_t v = 0; v <= n; ++v) g.offsets.push_back(v);
    for (uint64_t v = 0; v < n; ++v) g.edges.push_back(v ^ 1);
    return g;
}

TEST(GnnGather, SamplingKeepsEachNodeOnceInOrderOfFirstDraw) {
    // One seed s: its 25 hop-1 draws are all its partner s^1, whose 10 draws each are s
    // again: the batch's distinct rows are {s, s^1}.
    const graph::CsrGraph g = pairs(8);
    graph::RandomStream rng(7);
    const std::vector<uint64_t> rows = sample_batch(g, 1, 25, 10, rng);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1], rows[0] ^ 1);
    // Fan-outs 0: the seeds alone (3 draws over 8 vertices, at most 3 distinct).
    const std::vector<uint64_t> seeds = sample_batch(g, 3, 0, 0, rng);
    EXPECT_GE(seeds.size(), 1u);
    EXPECT_LE(seeds.size(), 3u);
    for (uint64_t v : seeds) EXPECT_LT(v, 8u);
}

TEST(GnnGather, AVertexWithoutEdgesSamplesNothing) {
    // 1 vertex, no edge: the seed is vertex 0 and nothing else.
    graph::CsrGraph g;
    g.offsets = {0, 0};
    graph::RandomStream rng(1);
    EXPECT_EQ(sample_batch(g, 4, 25, 10, rng), std::vector<uint64_t>{0});
}

// The rows of the workload's two batches, as the generator draws them (same graph and
// seed), to count the trace by.
uint64_t rows_of(const WorkloadOptions& o, uint64_t batch_size, uint32_t batches) {
    const graph::CsrGraph g = graph::workload_graph(o, graph::GraphKind::Kronecker);
    graph::RandomStream rng(o.seed);
    uint64_t rows = 0;
    for (uint32_t b = 0; b < batches; ++b) rows += sample_batch(g, batch_size, 25, 10, rng).size();
    return rows;
}

TEST(GnnGather, SerialProgramGathersThenComputesEachBatch) {
    // 2 batches of 4 seeds over a scale-8 graph, 512 B rows, 2 CTAs (16 warps):
    // 2 x (gather + compute) = 4 kernels; every row read once; each warp waits once per
    // batch (16 x 2 = 32); a 512 B row is 4 loads carrying its 512 compute instructions.
    WorkloadOptions o;
    o.scale = 8;
    o.program = {{"batch_size", 4}, {"batches", 2}, {"feature_bytes", 512}, {"grid_ctas", 2}};
    const uint64_t rows = rows_of(o, 4, 2);
    const std::string path = testing::tmp_trace("gnn_serial");
    generate_workload("gnn_gather", o, path);
    const IoTraceCounts s = count_io_trace(path);
    EXPECT_EQ(s.kernels, 4u);
    EXPECT_EQ(s.read_lanes + s.write_lanes, rows);
    EXPECT_EQ(s.waits, 32u);
    EXPECT_EQ(s.loads, rows * 4);
    // Compute: 512 per row, plus 4 per io_submit of the gather (counted at least once).
    EXPECT_GE(s.compute, rows * 512 + 4);
    EXPECT_LE(s.compute, rows * 512 + 4 * rows);
}

TEST(GnnGather, PipelinedProgramSubmitsTheNextBatchBeforeComputing) {
    // The same batches in CAM's pipeline: one kernel; warp 0 submits batch 0, waits for
    // it, submits batch 1, and only then loads batch 0's rows.
    WorkloadOptions o;
    o.scale = 8;
    o.program = {{"batch_size", 4}, {"batches", 2}, {"feature_bytes", 512}, {"grid_ctas", 2}, {"overlap", 1}};
    const uint64_t rows = rows_of(o, 4, 2);
    const std::string path = testing::tmp_trace("gnn_pipelined");
    generate_workload("gnn_gather", o, path);
    const IoTraceCounts s = count_io_trace(path);
    EXPECT_EQ(s.kernels, 1u);
    EXPECT_EQ(s.read_lanes + s.write_lanes, rows);
    EXPECT_EQ(s.waits, 32u);
    EXPECT_EQ(s.loads, rows * 4);
    using K = trace::RecordKind;
    ASSERT_GE(s.warp0.size(), 4u);
    EXPECT_EQ(s.warp0[0], K::IoSubmit);
    EXPECT_EQ(s.warp0[1], K::IoWait);
    EXPECT_EQ(s.warp0[2], K::IoSubmit);
    EXPECT_EQ(s.warp0[3], K::Load);
}

TEST(GnnGather, RefusesOtherFeatureSizes) {
    WorkloadOptions o;
    o.scale = 6;
    o.program = {{"feature_bytes", 1024}};
    EXPECT_THROW(generate_workload("gnn_gather", o, testing::tmp_trace("gnn_bad")), std::invalid_argument);
}

}  // namespace
}  // namespace zng::workloads
