// Whole platforms on small built-in workloads: every request completes, the instruction
// count equals the trace's, and two runs give identical stats.json.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"
#include "traces/importers/importers.hpp"
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

// ZnG's FTL under log-space pressure (tiny blocks, two data blocks per log block, one
// register per plane, a log group merged once one plane's log block holds 2 pages, so
// that the small preset programs enough pages to fill log blocks): merges happen, each
// first flushes the owner's lines from the L2,
// write-backs reaching a merging group wait for the merge to end, and those still naming
// a retired block are forwarded to its new home, so no dirty page is lost; the run ends
// with every instruction, and a second run is identical. Every log block that reaches
// the threshold is merged at once, so merges run back to back while the writes each
// merge releases refill fresh log blocks; each merge that ends is progress for the
// watchdog.
TEST(ZngGc, MergesFlushTheL2AndLoseNoWriteback) {
    const std::vector<std::string> sets = {"flash.pages_per_block=4", "flash.blocks_per_plane=64",
                                           "translation.log_group_size=2", "translation.overprovisioning=0.5",
                                           "flash.registers_per_plane=1", "translation.log_block_pages=2"};
    RunOutcome a = run_platform("zng-base.yaml", {"back"}, sets);
    EXPECT_EQ(a.instructions, trace_instructions("back"));
    const auto& st = a.stats["stats"];
    const uint64_t merges = st["translation"]["gc"]["merges"].get<uint64_t>();
    EXPECT_GT(merges, 0u);
    EXPECT_EQ(st["gpu"]["l2"]["flushes"].get<double>(), static_cast<double>(merges));  // one flush per merge
    EXPECT_GT(st["gpu"]["l2"]["flushed_lines"].get<double>(), 0.0);
    // The FTL's 2-page threshold starts every merge before the flash model finds a log block full.
    EXPECT_EQ(st["memory"]["merges_requested"].get<uint64_t>(), 0u);
    EXPECT_GT(st["translation"]["writebacks_held"].get<uint64_t>(), 0u);
    EXPECT_GT(st["memory"]["forwarded_requests"].get<uint64_t>(), 0u);
    EXPECT_EQ(st["translation"]["late_writebacks"].get<uint64_t>(), 0u);
    EXPECT_EQ(st["memory"]["reads_of_erased_pages"].get<uint64_t>(), 0u);
    RunOutcome b = run_platform("zng-base.yaml", {"back"}, sets);
    EXPECT_EQ(a.stats.dump(), b.stats.dump()) << "two identical runs differ";
}

// Traces recorded on real GPUs by other simulators' tracers replay to completion.
class ForeignTrace : public ::testing::TestWithParam<std::tuple<const char*, const char*, const char*>> {};

TEST_P(ForeignTrace, RunsToCompletionWithEveryInstruction) {
    auto [format, rel, config] = GetParam();
    fs::path path = fs::path(ZNG_SHARED_DIR) / "testdata" / rel;
    if (!fs::exists(path)) GTEST_SKIP() << "needs ../shared/testdata/" << rel << " (absent here)";
    if (!fs::exists(std::string(ZNG_SOURCE_DIR) + "/configs/" + config)) GTEST_SKIP() << config << " not present";
    auto fmt_id = importers::parse_format(format);
    auto counted = importers::open_foreign_trace(fmt_id, path.string());
    uint64_t want = trace::summarize(*counted).instructions;
    register_all_components();
    ConfigNode root = load_platform_config(std::string(ZNG_SOURCE_DIR) + "/configs/" + config, {});
    std::vector<AppInput> apps;
    apps.push_back({"foreign", importers::open_foreign_trace(fmt_id, path.string())});
    Platform p(root, std::move(apps));
    RunReport r = p.run(false);
    EXPECT_EQ(r.instructions, want);
    EXPECT_GT(want, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Imported, ForeignTrace,
    ::testing::Combine(::testing::Values("accelsim"), ::testing::Values("accelsim/vectoradd-100-32", "accelsim/matrixmul-32-32"),
                       ::testing::Values("ideal.yaml", "zng.yaml")));
INSTANTIATE_TEST_SUITE_P(
    ImportedMacSim, ForeignTrace,
    ::testing::Combine(::testing::Values("macsim"),
                       ::testing::Values("macsim-nvbit/vectormultadd/4096", "macsim-nvbit/vectormultadd/16384",
                                         "macsim-nvbit/vectormultadd/65536"),
                       ::testing::Values("ideal.yaml", "zng.yaml")));

}  // namespace
}  // namespace zng::cli
