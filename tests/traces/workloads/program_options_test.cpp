// Rodinia's and PolyBench's own size options through the workload registry: the
// launches and array sizes they give, computed by hand, and their validation.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

#include "dense_test_support.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

using testing::summarize_file;
using testing::tmp_trace;

struct Generated {
    trace::TraceSummary summary;
    std::map<std::string, uint64_t> array_bytes;
};

Generated generate(const std::string& name, std::map<std::string, int64_t> program, int max_launches) {
    WorkloadOptions o;
    o.program = std::move(program);
    o.max_launches = max_launches;
    const std::string path = tmp_trace("program_options_" + name);
    generate_workload(name, o, path);
    Generated g;
    g.summary = summarize_file(path);
    for (const auto& a : g.summary.arrays) g.array_bytes[a.name] = a.size;
    std::filesystem::remove(path);
    return g;
}

TEST(DenseProgramOptions, GaussianSizeSetsTheSystemAndItsLaunches) {
    // -s 5: a 5 x 5 system; Fan1 and Fan2 for t = 0..3 are 2 x (5 - 1) = 8 launches.
    const Generated g = generate("gaus", {{"size", 5}}, 100);
    EXPECT_EQ(g.summary.kernels.size(), 8u);
    EXPECT_EQ(g.array_bytes.at("a_cuda"), 5u * 5 * 4);
    EXPECT_EQ(g.array_bytes.at("m_cuda"), 5u * 5 * 4);
    EXPECT_EQ(g.array_bytes.at("b_cuda"), 5u * 4);
    EXPECT_EQ(g.summary.source, "zngsim-gen --size 5");
    // The default cap stays Table II's 3 launches.
    EXPECT_EQ(generate("gaus", {{"size", 5}}, -1).summary.kernels.size(), 3u);
}

TEST(DenseProgramOptions, BackpropLayerSizeSetsTheInputLayer) {
    // 32 input units (+ bias): input 33 floats, weights 33 x 17 floats, one 16-float
    // partial sum per 16-unit block: 2 x 16 floats.
    const Generated g = generate("back", {{"layer_size", 32}}, -1);
    EXPECT_EQ(g.array_bytes.at("input_cuda"), 33u * 4);
    EXPECT_EQ(g.array_bytes.at("input_hidden_cuda"), 33u * 17 * 4);
    EXPECT_EQ(g.array_bytes.at("hidden_partial_sum"), 2u * 16 * 4);
}

TEST(DenseProgramOptions, FdtdGridAndTimeSteps) {
    // NX 4, NY 6, TMAX 2: three kernels a time step = 6 launches; fict 2 floats, each
    // field 4 x 6 floats.
    const Generated g = generate("FDT", {{"nx", 4}, {"ny", 6}, {"tmax", 2}}, 100);
    EXPECT_EQ(g.summary.kernels.size(), 6u);
    EXPECT_EQ(g.array_bytes.at("_fict_gpu"), 2u * 4);
    EXPECT_EQ(g.array_bytes.at("ex_gpu"), 4u * 6 * 4);
    EXPECT_EQ(g.array_bytes.at("hz_gpu"), 4u * 6 * 4);
}

TEST(DenseProgramOptions, GramSchmidtRowsAndColumns) {
    // NI 8, NJ 3: three kernels per column = 9 launches; A and Q 8 x 3, R 3 x 3 floats.
    const Generated g = generate("gram", {{"ni", 8}, {"nj", 3}}, 100);
    EXPECT_EQ(g.summary.kernels.size(), 9u);
    EXPECT_EQ(g.array_bytes.at("A_gpu"), 8u * 3 * 4);
    EXPECT_EQ(g.array_bytes.at("Q_gpu"), 8u * 3 * 4);
    EXPECT_EQ(g.array_bytes.at("R_gpu"), 3u * 3 * 4);
}

TEST(DenseProgramOptions, BadValuesNameTheOption) {
    const auto message = [](const std::string& name, std::map<std::string, int64_t> program, int scale = 0) {
        WorkloadOptions o;
        o.program = std::move(program);
        o.scale = scale;
        try {
            generate_workload(name, o, tmp_trace("program_options_bad"));
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("gaus", {{"size", 1}}).find("'size': 1 is outside 2..32768"), std::string::npos);
    EXPECT_NE(message("gaus", {{"size", 8}}, 8).find("either option 'size' or 'scale'"), std::string::npos);
    EXPECT_NE(message("back", {{"layer_size", 40}}).find("'layer_size'"), std::string::npos);
    EXPECT_NE(message("FDT", {{"size", 8}}).find("no option '--size' (its options: --nx, --ny, --tmax)"),
              std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(tmp_trace("program_options_bad")));
}

}  // namespace
}  // namespace zng::workloads
