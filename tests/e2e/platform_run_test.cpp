// Whole platforms on small built-in workloads: every request completes, the instruction
// count equals the trace's, and two runs give identical stats.json.
#include <gtest/gtest.h>

#include <filesystem>

#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"
#include "traces/trace_summary.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::cli {
namespace {

namespace fs = std::filesystem;

std::string cache_dir() {
    fs::path d = fs::temp_directory_path() / "zngsim-e2e-cache";
    fs::create_directories(d);
    return d.string();
}

std::string small_trace(const std::string& workload) {
    workloads::WorkloadOptions o;  // small preset
    return workloads::cached_workload_trace(workload, o, cache_dir());
}

struct RunOutcome {
    nlohmann::ordered_json stats;
    uint64_t instructions = 0;
};

RunOutcome run_platform(const std::string& config, const std::vector<std::string>& workloads,
                        const std::vector<std::string>& sets = {}) {
    register_all_components();
    ConfigNode root = load_platform_config(std::string(ZNG_SOURCE_DIR) + "/configs/" + config, sets);
    std::vector<AppInput> apps;
    for (const auto& w : workloads) apps.push_back({w, trace::open_trace(small_trace(w))});
    Platform p(root, std::move(apps));
    RunReport r = p.run(false);  // throws SimError on deadlock or a broken invariant
    return {p.stats_json(), r.instructions};
}

uint64_t trace_instructions(const std::string& workload) {
    auto src = trace::open_trace(small_trace(workload));
    return trace::summarize(*src).instructions;
}

class EveryPlatform : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryPlatform, RunsSmallWorkloadCompletelyAndDeterministically) {
    const std::string config = std::string(GetParam()) + ".yaml";
    if (!fs::exists(std::string(ZNG_SOURCE_DIR) + "/configs/" + config)) GTEST_SKIP() << config << " not present";
    RunOutcome a = run_platform(config, {"deg"});
    EXPECT_EQ(a.instructions, trace_instructions("deg"));
    EXPECT_GT(a.stats["sim_time_ps"].get<uint64_t>(), 0u);
    RunOutcome b = run_platform(config, {"deg"});
    EXPECT_EQ(a.stats.dump(), b.stats.dump()) << "two identical runs differ";
}

INSTANTIATE_TEST_SUITE_P(Platforms, EveryPlatform,
                         ::testing::Values("ideal", "hetero", "hybridgpu", "optane", "zng-base", "zng-rdopt",
                                           "zng-wropt", "zng"));

TEST(CoRunning, TwoApplicationsBothFinishWithTheirOwnInstructionCounts) {
    RunOutcome r = run_platform("ideal.yaml", {"deg", "gaus"});
    EXPECT_EQ(r.instructions, trace_instructions("deg") + trace_instructions("gaus"));
    auto& apps = r.stats["stats"]["gpu"]["app"];
    EXPECT_EQ(apps["deg"]["instructions"].get<uint64_t>(), trace_instructions("deg"));
    EXPECT_EQ(apps["gaus"]["instructions"].get<uint64_t>(), trace_instructions("gaus"));
}

}  // namespace
}  // namespace zng::cli
