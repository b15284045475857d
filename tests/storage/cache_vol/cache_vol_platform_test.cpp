// configs/cache_vol.yaml run whole with the checkpoint workload, and the plane's config
// errors.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"
#include "traces/importers/importers.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::cli {
namespace {

namespace fs = std::filesystem;

nlohmann::ordered_json run_checkpoint(const std::vector<std::string>& sets, int64_t compute_ms) {
    register_all_components();
    ConfigNode root = load_platform_config(std::string(ZNG_SOURCE_DIR) + "/configs/cache_vol.yaml", sets);
    workloads::WorkloadOptions o;
    o.program["ranks"] = 2;
    o.program["writes"] = 2;
    o.program["write_mib"] = 1;
    o.program["iterations"] = 2;
    o.program["compute_ms"] = compute_ms;
    fs::path dir = fs::temp_directory_path() / "zngsim-cache-vol-cache";
    fs::create_directories(dir);
    std::vector<AppInput> apps;
    apps.push_back({"checkpoint", trace::open_trace(workloads::cached_workload_trace("checkpoint", o, dir.string()))});
    Platform p(root, std::move(apps));
    p.run(false);
    return p.stats_json();
}

double stat(const nlohmann::ordered_json& j, const char* key) {
    const auto& v = j["stats"]["storage"]["control_plane"][key];
    return v.is_object() ? v["value"].get<double>() : v.get<double>();
}

TEST(CacheVolPlatform, CheckpointStagesEveryWriteAndMigratesItBeforeTheClose) {
    const auto j = run_checkpoint({}, 100);
    // 2 ranks x 2 iterations x (2 writes + 1 close) = 12 requests; 2 x 2 x 2 x 1 MiB
    // = 8 MiB staged and migrated.
    EXPECT_EQ(stat(j, "requests"), 12);
    EXPECT_EQ(stat(j, "staged_bytes"), 8.0 * (1 << 20));
    EXPECT_EQ(stat(j, "migrated_bytes"), 8.0 * (1 << 20));
    EXPECT_EQ(stat(j, "bytes_written"), 8.0 * (1 << 20));
    // Two 100 ms compute phases per rank run back to back with the I/O: more than 200 ms.
    EXPECT_GT(j["sim_time_ps"].get<double>(), 200.0 * kMillisecond);
    // A rank's 2 MiB per iteration migrate at 4666.5 MiB/s / 8 nodes = 583 MiB/s in
    // 3.4 ms, well inside its 100 ms compute: no close waits.
    EXPECT_EQ(stat(j, "close_wait"), 0);
}

TEST(CacheVolPlatform, WithoutComputeTheClosesWait) {
    EXPECT_GT(stat(run_checkpoint({}, 0), "close_wait"), 0);
}

TEST(CacheVolPlatform, AMemoryLevelWithoutACapacityIsAConfigErrorNamingTheKey) {
    try {
        run_checkpoint({"storage.control_plane.level=host_memory"}, 0);
        FAIL() << "no error";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("storage.control_plane.capacity"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace zng::cli
