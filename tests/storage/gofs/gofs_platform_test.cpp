// configs/gofs.yaml run whole: io_bench's GPU threads read one file through GoFS on an
// A100 with one 990 Pro. 13,824 random 4 KiB reads from 216 CTAs of 64 threads (two
// per SM, so that every SM the application has gets work).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"
#include "sim/core/errors.hpp"
#include "traces/importers/importers.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::cli {
namespace {

namespace fs = std::filesystem;

nlohmann::ordered_json run_gofs(const std::vector<std::string>& sets, int64_t span_mib = 8192) {
    register_all_components();
    ConfigNode root = load_platform_config(std::string(ZNG_SOURCE_DIR) + "/configs/gofs.yaml", sets);
    workloads::WorkloadOptions o;
    o.program["requests"] = 13824;
    o.program["ctas"] = 216;
    o.program["threads"] = 64;
    o.program["span_mib"] = span_mib;  // 8192: the 8 GiB file
    fs::path dir = fs::temp_directory_path() / "zngsim-gofs-cache";
    fs::create_directories(dir);
    std::vector<AppInput> apps;
    apps.push_back({"io_bench", trace::open_trace(workloads::cached_workload_trace("io_bench", o, dir.string()))});
    Platform p(root, std::move(apps));
    p.run(false);
    return p.stats_json();
}

double instructions(const nlohmann::ordered_json& j, int sm) {
    const auto& v = j["stats"]["gpu"]["sm" + std::to_string(sm)]["instructions"];
    return v.is_object() ? v["value"].get<double>() : v.get<double>();
}

// Offsets past the files (a 16 GiB span over the one 8 GiB file) are a simulation error
// that names what sizes the files on each plane, and the workload option to change.
TEST(GofsPlatform, RequestsPastTheFilesNameTheSettingsThatSizeThem) {
    auto message = [](const std::vector<std::string>& sets) {
        try {
            run_gofs(sets, 16384);
        } catch (const SimError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string gofs = message({});
    EXPECT_NE(gofs.find("inside one of the 1 files of 8589934592 B (storage.control_plane.files and file_size size "
                        "the files; the workload's offsets must fall inside them: io_bench's span_mib, for one)"),
              std::string::npos)
        << gofs;
    const std::string gemini = message({"storage.control_plane.type=geminifs"});
    EXPECT_NE(gemini.find("inside a file of 8589934592 B (storage.control_plane.file_size size the files"),
              std::string::npos)
        << gemini;
}

TEST(GofsPlatform, SyncModeLeavesTheApplication92Of108Sms) {
    // 108 - 16 polling SMs = 92: SMs 0..91 run io_bench, 92..107 are GoFS's.
    const auto j = run_gofs({});
    EXPECT_GT(instructions(j, 91), 0);
    EXPECT_EQ(instructions(j, 92), 0);
    EXPECT_EQ(instructions(j, 107), 0);
    // Every request completed, each 4 KiB.
    const auto& cp = j["stats"]["storage"]["control_plane"];
    EXPECT_EQ(cp["requests"].get<double>(), 13824);
    EXPECT_EQ(cp["bytes_read"].get<double>(), 13824.0 * 4096);
}

TEST(GofsPlatform, AsyncModeLeavesOnlyTheDaemonsSm) {
    const auto j = run_gofs({"storage.control_plane.mode=async"});
    EXPECT_GT(instructions(j, 106), 0);
    EXPECT_EQ(instructions(j, 107), 0);
}

TEST(GofsPlatform, RandomReadsReachTheDrivesIopsNotMore) {
    // The 990 Pro's 1.4M random-read IOPS x 4096 B = 5.73 GB/s bounds GoFS's throughput;
    // a cold metadata cache (a node read per newly touched direct node) costs some of it.
    const auto j = run_gofs({});
    const double seconds = j["sim_time_ps"].get<double>() * 1e-12;
    const double gbps = 13824.0 * 4096 / seconds / 1e9;
    EXPECT_LE(gbps, 1.4e6 * 4096 / 1e9);
    EXPECT_GE(gbps, 0.5 * 1.4e6 * 4096 / 1e9);
}

}  // namespace
}  // namespace zng::cli
