// configs/streamer.yaml run whole with streamer_ml: 2 tasks, 2 partitions of 8 MiB (two
// 4 MiB sblocks each), a caching pass and 2 re-reading passes; each task owns one
// partition. Counts and times by hand:
//   compute per pass per task: 2 sblocks x 4 MiB x 2 ns/B = 16.777216 ms; 3 passes:
//   50.331648 ms.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"
#include "traces/importers/importers.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::cli {
namespace {

namespace fs = std::filesystem;

nlohmann::ordered_json run_streamer(const std::string& type) {
    register_all_components();
    ConfigNode root = load_platform_config(std::string(ZNG_SOURCE_DIR) + "/configs/streamer.yaml",
                                           {"storage.control_plane.type=" + type});
    workloads::WorkloadOptions o;
    o.program["partitions"] = 2;
    o.program["partition_mib"] = 8;
    o.program["tasks"] = 2;
    o.program["iterations"] = 2;
    fs::path dir = fs::temp_directory_path() / "zngsim-streamer-cache";
    fs::create_directories(dir);
    std::vector<AppInput> apps;
    apps.push_back({"streamer_ml", trace::open_trace(workloads::cached_workload_trace("streamer_ml", o, dir.string()))});
    Platform p(root, std::move(apps));
    p.run(false);
    return p.stats_json();
}

double stat(const nlohmann::ordered_json& cp, const char* name) {
    const auto& v = cp[name];
    return v.is_object() ? v["value"].get<double>() : v.get<double>();
}

constexpr double kComputePs = 3 * 2 * 4194304.0 * 2000;  // 50.331648 ms

TEST(StreamerPlatform, StreamBufferReadsEverySblockOfEveryPassAndWritesEachOnce) {
    const auto j = run_streamer("streamer");
    const auto& cp = j["stats"]["storage"]["control_plane"];
    // Reads: 2 passes x 2 partitions x 8 MiB = 32 MiB in 8 sblocks; writes: 16 MiB in 4
    // sblocks, plus the two closes' 512 B.
    EXPECT_EQ(stat(cp, "bytes_read"), 32.0 * (1 << 20));
    EXPECT_EQ(stat(cp, "bytes_written"), 16.0 * (1 << 20) + 2 * 512);
    EXPECT_EQ(stat(cp, "sblock_reads"), 8);
    EXPECT_EQ(stat(cp, "sblock_writes"), 4);
    // A task's own work is a floor: compute plus 6 sblocks (de)serialised at 2.02 ns/B
    // (6 x 4 MiB x 2,020 ps = 50.835 ms); its waits for the SSDs come on top.
    const double ser = 6 * 4194304.0 * 2020;
    EXPECT_EQ(stat(cp, "serialization_time"), 2 * ser);  // both tasks
    EXPECT_GT(j["sim_time_ps"].get<double>(), kComputePs + ser);
}

TEST(StreamerPlatform, MemoryAndDiskHoldsASmallDataSetInDramSoARunIsItsCompute) {
    // 16 MiB fits the 192 GB cache: every read hits host DRAM at once, no SSD access, no
    // serialisation: the run is the compute phases (50.331648 ms) plus the GPU's few
    // hundred cycles of instructions (under 10 us).
    const auto j = run_streamer("memory_and_disk");
    const auto& cp = j["stats"]["storage"]["control_plane"];
    EXPECT_EQ(stat(cp, "memory_hits"), 8);
    EXPECT_EQ(stat(cp, "sblock_reads"), 0);
    EXPECT_EQ(stat(cp, "serialization_time"), 0);
    const double t = j["sim_time_ps"].get<double>();
    EXPECT_GE(t, kComputePs);
    EXPECT_LT(t, kComputePs + 10e6);
}

}  // namespace
}  // namespace zng::cli
