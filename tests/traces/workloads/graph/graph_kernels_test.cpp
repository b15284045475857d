// The lockstep kernels compute the real algorithms: each result is checked against an
// independent sequential CPU version (cpu_reference.hpp) on the same graph.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "tests/traces/workloads/graph/cpu_reference.hpp"
#include "traces/workloads/graph/betweenness.hpp"
#include "traces/workloads/graph/bfs.hpp"
#include "traces/workloads/graph/degree_centrality.hpp"
#include "traces/workloads/graph/graph_coloring.hpp"
#include "traces/workloads/graph/graph_inputs.hpp"
#include "traces/workloads/graph/graph_readers.hpp"
#include "traces/workloads/graph/kronecker_generator.hpp"
#include "traces/workloads/graph/mesh_generator.hpp"
#include "traces/workloads/graph/pagerank.hpp"
#include "traces/workloads/graph/sssp.hpp"

namespace zng::workloads::graph {
namespace {

CsrGraph kronecker(int scale, int edge_factor) {
    KroneckerParams p;
    p.scale = scale;
    p.edge_factor = edge_factor;
    return generate_kronecker(p);
}

// A few graphs of different shape: skewed (Kronecker, with isolated vertices), deep
// (mesh), tiny blocks (40 vertices: one partial warp per block), and the real
// GraphBIG sample when present.
std::vector<std::pair<std::string, CsrGraph>> test_graphs() {
    std::vector<std::pair<std::string, CsrGraph>> gs;
    gs.emplace_back("kron11", kronecker(11, 16));
    gs.emplace_back("mesh9", generate_mesh3d(9, 9, 9));
    gs.emplace_back("mesh40", generate_mesh3d(40, 1, 1));
    const std::filesystem::path dir = std::filesystem::path(ZNG_SHARED_DIR) / "testdata" / "graphbig-small";
    if (std::filesystem::exists(dir / "vertex.CSR")) gs.emplace_back("graphbig-small", read_graphbig_csr(dir.string()));
    return gs;
}

TEST(GraphKernels, EveryBfsVariantMatchesCpuBfs) {
    const BfsVariant variants[] = {BfsVariant::DataWarpCentric, BfsVariant::TopoAtomic,
                                   BfsVariant::TopoFrontier,    BfsVariant::TopoThreadCentric,
                                   BfsVariant::TopoUnroll,      BfsVariant::TopoWarpCentric};
    for (const auto& [name, g] : test_graphs())
        for (uint64_t root : {peripheral_root(g), hub_root(g)}) {
            const std::vector<uint32_t> want = reference::bfs_levels(g, root);
            for (BfsVariant v : variants) {
                GpuRun run(nullptr, 0);
                const BfsResult r = run_bfs(v, run, g, root);
                EXPECT_EQ(r.level, want) << name << " root " << root << " variant " << static_cast<int>(v);
                EXPECT_GT(r.iterations, 0);
            }
        }
}

TEST(GraphKernels, BfsRejectsRootOutsideGraph) {
    const CsrGraph g = generate_mesh3d(2, 2, 2);
    GpuRun run(nullptr, 0);
    EXPECT_THROW(run_bfs(BfsVariant::TopoAtomic, run, g, 8), std::invalid_argument);
}

TEST(GraphKernels, LevelSynchronousBfsLaunchesOncePerLevelPlusOne) {
    // On a 40-vertex path-like mesh from vertex 39, levels are 0..39: the
    // level-synchronous kernels run 40 launches (the last finds nothing new), the
    // frontier variant 40 pairs.
    const CsrGraph g = generate_mesh3d(40, 1, 1);
    for (BfsVariant v : {BfsVariant::TopoThreadCentric, BfsVariant::TopoWarpCentric,
                         BfsVariant::DataWarpCentric, BfsVariant::TopoFrontier}) {
        GpuRun run(nullptr, 0);
        EXPECT_EQ(run_bfs(v, run, g, 39).iterations, 40) << static_cast<int>(v);
    }
}

TEST(GraphKernels, SsspWithUnitWeightsEqualsBfsLevels) {
    for (const auto& [name, g] : test_graphs()) {
        const uint64_t root = hub_root(g);
        GpuRun run(nullptr, 0);
        const SsspResult r = run_sssp_data_thread_centric(run, g, root);
        EXPECT_EQ(r.distance, reference::bfs_levels(g, root)) << name;
    }
}

TEST(GraphKernels, BetweennessMatchesBrandes) {
    for (const auto& [name, g] : test_graphs()) {
        if (g.vertex_count() > 5000) continue;
        const uint64_t root = hub_root(g);
        GpuRun run(nullptr, 0);
        const BetweennessResult r = run_betweenness(run, g, root);
        ASSERT_TRUE(r.backsum_ran);
        const std::vector<double> want = reference::brandes_dependency(g, root);
        const std::vector<uint32_t> levels = reference::bfs_levels(g, root);
        EXPECT_EQ(r.dist, levels) << name;
        for (uint64_t v = 0; v < g.vertex_count(); ++v) {
            // float accumulation of double terms: relative error a few float ulps.
            EXPECT_NEAR(r.delta[v], want[v], 1e-5 * (1.0 + want[v])) << name << " vertex " << v;
            const double bc = (v == root || levels[v] == reference::kUnreached) ? 0.0 : want[v];
            EXPECT_NEAR(r.bc[v], bc, 1e-5 * (1.0 + bc)) << name << " vertex " << v;
        }
    }
}

void expect_proper(const CsrGraph& g, const ColoringResult& r, bool complete, const std::string& what) {
    uint64_t uncolored = 0;
    for (uint64_t v = 0; v < g.vertex_count(); ++v) {
        if (r.color[v] == kMyInfinity) {
            ++uncolored;
            continue;
        }
        EXPECT_LT(r.color[v], static_cast<uint32_t>(r.iterations)) << what;
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i)
            ASSERT_NE(r.color[v], r.color[g.edges[i]]) << what << ": edge " << v << "-" << g.edges[i];
    }
    if (complete) {
        EXPECT_EQ(uncolored, 0u) << what;
    }
}

TEST(GraphKernels, ColoringIsProperAndComplete) {
    for (const auto& [name, g] : test_graphs()) {
        GpuRun warp_run(nullptr, 0), thread_run(nullptr, 0);
        const ColoringResult w = run_gc_topo_warp_centric(warp_run, g);
        const ColoringResult t = run_gc_topo_thread_centric(thread_run, g);
        expect_proper(g, w, true, name + " warp-centric");
        expect_proper(g, t, true, name + " thread-centric");
        // Jones-Plassmann's result depends only on the priorities, not on the schedule.
        EXPECT_EQ(w.color, t.color) << name;
        EXPECT_EQ(w.iterations, t.iterations) << name;
    }
}

TEST(GraphKernels, DegreeCentralityCountsInDegrees) {
    for (const auto& [name, g] : test_graphs()) {
        std::vector<uint32_t> want(g.vertex_count(), 0);
        for (uint64_t e : g.edges) ++want[e];
        GpuRun run(nullptr, 0);
        const DegreeResult r = run_degree_centrality(run, g);
        EXPECT_TRUE(r.ran);
        EXPECT_EQ(r.degree, want) << name;
    }
}

TEST(GraphKernels, PageRankSumsToOneAndMatchesCpuPowerIteration) {
    for (const auto& [name, g] : test_graphs()) {
        GpuRun run(nullptr, 0);
        const PageRankResult r = run_pagerank(run, g, 26);
        EXPECT_EQ(r.iterations, 26);
        double sum = 0;
        for (float x : r.rank) sum += x;
        EXPECT_NEAR(sum, 1.0, 1e-6) << name;
        const std::vector<double> want = reference::pagerank(g, kPageRankDamping, 26);
        for (uint64_t v = 0; v < g.vertex_count(); ++v)
            EXPECT_NEAR(r.rank[v], want[v], 1e-4 * want[v] + 1e-9) << name << " vertex " << v;
    }
}

}  // namespace
}  // namespace zng::workloads::graph
