// The GraphBIG programs' own options through the workload registry: --root of the
// traversals (checked level by level against an independent BFS), --maxiter of
// PageRank, their validation, the cache key and the trace header.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_reference.hpp"
#include "traces/trace_summary.hpp"
#include "traces/workloads/graph/graph_readers.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

namespace fs = std::filesystem;

fs::path temp_path(const std::string& name) {
    return fs::temp_directory_path() / ("zng_program_options_" + std::to_string(::getpid()) + "_" + name);
}

void write_u64s(const fs::path& path, const std::vector<uint64_t>& v) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(uint64_t)));
}

// A tree on 7 vertices in GraphBIG's CSR layout (both directions of every edge):
//   0-1, 0-2, 1-3, 1-4, 2-5, 5-6
fs::path write_tree_graph() {
    const fs::path dir = temp_path("tree");
    fs::create_directories(dir);
    write_u64s(dir / "vertex.CSR", {0, 2, 5, 7, 8, 9, 11, 12});
    write_u64s(dir / "edge.CSR", {1, 2, 0, 3, 4, 0, 5, 1, 1, 2, 6, 5});
    return dir;
}

// Per kernel of the trace, the lanes that store into the named array.
std::vector<uint64_t> lane_stores_into(const std::string& trace_path, const std::string& array) {
    auto src = trace::open_trace(trace_path);
    const auto& arrays = src->header().arrays;
    const auto it = std::find_if(arrays.begin(), arrays.end(), [&](const auto& a) { return a.name == array; });
    if (it == arrays.end()) throw std::runtime_error("no array " + array);
    std::vector<uint64_t> per_kernel;
    trace::KernelInfo k;
    trace::CtaTrace cta;
    trace::WarpRecord r;
    while (src->next_kernel(k)) {
        uint64_t lanes = 0;
        while (src->next_cta(cta))
            for (const auto& warp : cta.warps)
                for (trace::WarpCursor c(warp); !c.done();) {
                    c.next(r);
                    if (r.kind != trace::RecordKind::Store || r.space != trace::MemSpace::Global) continue;
                    for (int l = 0; l < trace::kWarpSize; ++l)
                        if ((r.active_mask >> l & 1u) && r.lane_addr(l) >= it->base && r.lane_addr(l) < it->base + it->size)
                            ++lanes;
                }
        per_kernel.push_back(lanes);
    }
    return per_kernel;
}

// bfs6 (bfs_topo_warp_centric.cu) stores vproplist[v] once for every vertex in its
// init kernel, then, in level kernel k, once for every vertex it finds at level k + 1;
// the last level kernel finds none and ends the loop.
std::vector<uint64_t> bfs6_stores_from(const fs::path& graph_dir, int64_t root) {
    WorkloadOptions o;
    o.input = graph_dir.string();
    o.program["root"] = root;
    const fs::path trace_path = temp_path("bfs6.ztr");
    generate_workload("bfs6", o, trace_path.string());
    std::vector<uint64_t> stores = lane_stores_into(trace_path.string(), "vproplist");
    EXPECT_EQ(trace::open_trace(trace_path.string())->header().source, "zngsim-gen --root " + std::to_string(root));
    fs::remove(trace_path);
    return stores;
}

// Vertices an independent CPU BFS puts on each level 1, 2, ... of the graph.
std::vector<uint64_t> reference_level_sizes(const fs::path& graph_dir, uint64_t root) {
    const std::vector<uint32_t> level = graph::reference::bfs_levels(graph::read_graphbig_csr(graph_dir.string()), root);
    std::vector<uint64_t> sizes;
    for (uint32_t d : level) {
        if (d == 0 || d == graph::reference::kUnreached) continue;
        if (sizes.size() < d) sizes.resize(d, 0);
        ++sizes[d - 1];
    }
    return sizes;
}

TEST(ProgramOptions, Bfs6FromAChosenRootVisitsEachLevelOfAnIndependentBfs) {
    const fs::path dir = write_tree_graph();
    // From 0: level 1 = {1, 2}, level 2 = {3, 4, 5}, level 3 = {6}: the init kernel
    // stores 7, the level kernels 2, 3, 1 and 0 (nothing new: the loop ends).
    const std::vector<uint64_t> from0 = bfs6_stores_from(dir, 0);
    EXPECT_EQ(from0, (std::vector<uint64_t>{7, 2, 3, 1, 0}));
    // From 3: {1}, {0, 4}, {2}, {5}, {6}: 7 launches, Table II's cap for bfs6.
    const std::vector<uint64_t> from3 = bfs6_stores_from(dir, 3);
    EXPECT_EQ(from3, (std::vector<uint64_t>{7, 1, 2, 1, 1, 1, 0}));
    for (int64_t root : {0, 3, 6}) {
        std::vector<uint64_t> want = reference_level_sizes(dir, root);
        want.insert(want.begin(), 7);   // the init kernel
        want.push_back(0);              // the level kernel that finds nothing
        const std::vector<uint64_t> got = bfs6_stores_from(dir, root);
        // Where the 7-launch cap cuts the run, the kernels that ran agree.
        ASSERT_LE(got.size(), want.size()) << "root " << root;
        EXPECT_EQ(got, std::vector<uint64_t>(want.begin(), want.begin() + got.size())) << "root " << root;
    }
    fs::remove_all(dir);
}

TEST(ProgramOptions, RootOutsideTheGraphNamesTheOption) {
    const fs::path dir = write_tree_graph();
    WorkloadOptions o;
    o.input = dir.string();
    o.program["root"] = 7;   // vertices are 0..6
    for (const char* name : {"bfs1", "sssp3", "betw"}) {
        try {
            generate_workload(name, o, temp_path("bad.ztr").string());
            ADD_FAILURE() << name << " took root 7";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("'root': vertex 7 is not one of the 7 vertices"), std::string::npos)
                << e.what();
        }
        EXPECT_FALSE(fs::exists(temp_path("bad.ztr")));
    }
    fs::remove_all(dir);
}

TEST(ProgramOptions, PageRankMaxiterSetsTheLaunches) {
    // init + maxiter x (push, copy): 1 + 2 x 2 = 5 kernels.
    WorkloadOptions o;
    o.scale = 6;
    o.program["maxiter"] = 2;
    const fs::path path = temp_path("pr.ztr");
    generate_workload("pr", o, path.string());
    auto src = trace::open_trace(path.string());
    EXPECT_EQ(trace::summarize(*src).kernels.size(), 5u);
    fs::remove(path);
}

TEST(ProgramOptions, OptionsAreCheckedAgainstTheWorkloadThatTakesThem) {
    WorkloadOptions o;
    o.program["maxiter"] = 3;
    try {
        workload_cache_key("bfs1", o);
        ADD_FAILURE() << "bfs1 took --maxiter";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("no option '--maxiter' (its options: --root)"), std::string::npos)
            << e.what();
    }
    o.program = {{"root", -1}};
    EXPECT_THROW(workload_cache_key("bfs1", o), std::invalid_argument);
    // Co-running bfs1 and gaus: each keeps its own; an option of neither is refused.
    o.program = {{"root", 5}, {"size", 64}};
    EXPECT_NO_THROW(check_program_options_apply({"bfs1", "gaus"}, o));
    EXPECT_EQ(options_for_workload("bfs1", o).program, (std::map<std::string, int64_t>{{"root", 5}}));
    EXPECT_EQ(options_for_workload("gaus", o).program, (std::map<std::string, int64_t>{{"size", 64}}));
    o.program["maxiter"] = 2;
    EXPECT_THROW(check_program_options_apply({"bfs1", "gaus"}, o), std::invalid_argument);
}

TEST(ProgramOptions, ChosenOptionsArePartOfTheCacheKey) {
    WorkloadOptions o;
    const std::string by_default = workload_cache_key("bfs6", o);
    o.program["root"] = 0;
    const std::string root0 = workload_cache_key("bfs6", o);
    o.program["root"] = 1;
    const std::string root1 = workload_cache_key("bfs6", o);
    EXPECT_NE(by_default, root0);
    EXPECT_NE(root0, root1);
    EXPECT_EQ(workload_cache_key("bfs6", WorkloadOptions{}), by_default);
}

TEST(ProgramOptions, TraversalsDeclareRootAndPageRankMaxiter) {
    for (const char* name : {"betw", "bfs1", "bfs2", "bfs3", "bfs4", "bfs5", "bfs6", "sssp3"}) {
        const auto& opts = builtin_workloads().get(name).info.program_options;
        ASSERT_EQ(opts.size(), 1u) << name;
        EXPECT_EQ(opts[0].name, "root");
        EXPECT_FALSE(opts[0].default_text.empty()) << name;
    }
    const auto& pr = builtin_workloads().get("pr").info.program_options;
    ASSERT_EQ(pr.size(), 1u);
    EXPECT_EQ(pr[0].name, "maxiter");
}

}  // namespace
}  // namespace zng::workloads
