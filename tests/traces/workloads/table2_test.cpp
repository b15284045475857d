// Paper Table II targets for the dense workloads with their default (small) preset:
// read ratio within 0.03 and the kernel count, computed by summarize() from the
// generated trace. Also: same options -> same bytes, and the trace cache.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "dense_test_support.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

using testing::summarize_file;
using testing::tmp_trace;

std::vector<char> file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const WorkloadInfo& info_of(const std::string& name) {
    for (const auto& i : list_workloads())
        if (i.name == name) return i;
    throw std::invalid_argument(name);
}

class DenseTable2 : public ::testing::TestWithParam<std::string> {};

TEST_P(DenseTable2, ReadRatioAndKernelCountMatchThePaper) {
    const std::string name = GetParam();
    const WorkloadInfo& info = info_of(name);
    const std::string path = tmp_trace("table2_" + name);
    generate_workload(name, WorkloadOptions{}, path);
    const trace::TraceSummary s = summarize_file(path);
    EXPECT_EQ(s.workload, name);
    EXPECT_EQ(s.source, "zngsim-gen");
    EXPECT_EQ(static_cast<int>(s.kernels.size()), info.paper_kernels);
    EXPECT_NEAR(s.read_ratio(), info.paper_read_ratio, 0.03) << name;
    EXPECT_GT(s.line_requests(), 10000u);   // a real amount of traffic, not a toy
    EXPECT_EQ(s.lines_outside_arrays, 0u);  // every access lands in an allocated array
}

TEST_P(DenseTable2, GenerationIsDeterministic) {
    const std::string name = GetParam();
    WorkloadOptions o;
    o.scale = name == "back" ? 4096 : 256;   // smaller than the preset: bytes, not ratios, matter here
    const std::string a = tmp_trace("det_a_" + name), b = tmp_trace("det_b_" + name);
    generate_workload(name, o, a);
    generate_workload(name, o, b);
    const auto bytes = file_bytes(a);
    EXPECT_GT(bytes.size(), 100u);
    EXPECT_EQ(bytes, file_bytes(b));
}

INSTANTIATE_TEST_SUITE_P(Dense, DenseTable2, ::testing::Values("back", "gaus", "FDT", "gram"));

TEST(DenseWorkloads, RejectBadOptionsByName) {
    auto message = [](const std::string& name, WorkloadOptions o) -> std::string {
        try {
            generate_workload(name, o, tmp_trace("bad_" + name));
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    WorkloadOptions o;
    o.scale = 100;   // not a multiple of 16
    EXPECT_NE(message("back", o).find("scale"), std::string::npos);
    o.scale = 1;
    EXPECT_NE(message("gaus", o).find("scale"), std::string::npos);
    EXPECT_NE(message("FDT", o).find("scale"), std::string::npos);
    o.scale = 1 << 16;
    EXPECT_NE(message("gram", o).find("scale"), std::string::npos);
    o = WorkloadOptions{};
    o.input = "graph.el";
    EXPECT_NE(message("gram", o).find("input"), std::string::npos);
    o = WorkloadOptions{};
    o.edge_factor = 8;
    EXPECT_NE(message("FDT", o).find("edge_factor"), std::string::npos);
    // A failed generation leaves no partial trace behind.
    EXPECT_FALSE(std::filesystem::exists(tmp_trace("bad_FDT")));
}

TEST(WorkloadCache, GeneratesOnceThenReuses) {
    const std::string dir = std::string(ZNG_TEST_TMP_DIR) + "/cache";
    std::filesystem::remove_all(dir);
    WorkloadOptions o;
    o.scale = 64;
    const std::string first = cached_workload_trace("FDT", o, dir);
    ASSERT_TRUE(std::filesystem::exists(first));
    EXPECT_NE(first.find(workload_cache_key("FDT", o)), std::string::npos);
    const auto stamp = std::filesystem::last_write_time(first);
    EXPECT_EQ(cached_workload_trace("FDT", o, dir), first);
    EXPECT_EQ(std::filesystem::last_write_time(first), stamp);   // not regenerated
    o.scale = 96;
    const std::string other = cached_workload_trace("FDT", o, dir);
    EXPECT_NE(other, first);
    // Only the two finished traces: no temporary files left behind.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 2);
    EXPECT_EQ(summarize_file(other).kernels.size(), 1u);
}

}  // namespace
}  // namespace zng::workloads
