// GPU-issued storage I/O through the whole GPU path: io_bench's threads submit and wait
// on the platforms of configs/{bam,cam,spdk}.yaml, and the throughput they reach is
// capped by the smallest of the SSDs' rate, the queue depth over the latency and the
// GPU's PCIe link. A wait that did not hold its warp would let the kernel end before
// its requests completed; every run checks that all of them did.
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

struct IoRun {
    double seconds = 0;
    double bytes_read = 0;
    double requests = 0;
    double gb_per_s() const { return bytes_read / seconds / 1e9; }
};

IoRun run_io_bench(const std::string& config, int64_t requests, const std::vector<std::string>& sets,
                   nlohmann::ordered_json* stats = nullptr) {
    register_all_components();
    ConfigNode root = load_platform_config(std::string(ZNG_SOURCE_DIR) + "/configs/" + config, sets);
    workloads::WorkloadOptions o;
    o.program["requests"] = requests;
    fs::path dir = fs::temp_directory_path() / "zngsim-e2e-cache";
    fs::create_directories(dir);
    std::vector<AppInput> apps;
    apps.push_back({"io_bench", trace::open_trace(workloads::cached_workload_trace("io_bench", o, dir.string()))});
    Platform p(root, std::move(apps));
    p.run(false);
    const nlohmann::ordered_json j = p.stats_json();
    if (stats) *stats = j;
    const auto& cp = j["stats"]["storage"]["control_plane"];
    auto value = [](const nlohmann::ordered_json& v) { return v.is_object() ? v["value"].get<double>() : v.get<double>(); };
    IoRun r;
    r.seconds = j["sim_time_ps"].get<double>() * 1e-12;
    r.bytes_read = value(cp["bytes_read"]);
    r.requests = value(cp["requests"]);
    return r;
}

// The GPU link of fragments' PCIe topology: 16 lanes x 16 GT/s x 128/130 / 8 bits
// x 0.6665 (seed 000's 21 of 32 GB/s) = 21.00 GB/s.
constexpr double kGpuLinkGBs = 16 * 16e9 * 128.0 / 130.0 / 8 * 0.6665 / 1e9;

TEST(StorageIoE2e, TwelveSsdsReachThePcieLinkNotTheSsds) {
    // 12 P5510s read 12 x 700K x 4 KiB = 34.4 GB/s, above the GPU link: the link caps.
    for (const char* config : {"bam.yaml", "cam.yaml", "spdk.yaml"}) {
        const IoRun r = run_io_bench(config, 8192, {});
        EXPECT_EQ(r.requests, 8192) << config;
        EXPECT_LE(r.gb_per_s(), kGpuLinkGBs) << config;
        EXPECT_GE(r.gb_per_s(), 0.85 * kGpuLinkGBs) << config;
    }
}

TEST(StorageIoE2e, OneSsdCapsAtItsIops) {
    // One P5510: 700K x 4096 B = 2.867 GB/s, below the link.
    const IoRun r = run_io_bench("cam.yaml", 8192, {"storage.array.ssds=1"});
    EXPECT_EQ(r.requests, 8192);
    EXPECT_LE(r.gb_per_s(), 700e3 * 4096 / 1e9);
    EXPECT_GE(r.gb_per_s(), 0.9 * 700e3 * 4096 / 1e9);
}

TEST(StorageIoE2e, BamQueueDepthCapsAtDepthOverLatency) {
    // One SSD, one queue pair of depth 8: 8 requests in flight, each taking the NVMe
    // part of BaM's path: doorbell 0.5 + fetch 1 + read 82 + DMA (SSD link 4096 B at
    // 16 GT/s x4 x 128/130 = 0.52 us + 0.5, fabric 0.15, GPU link 0.5) 1.67 +
    // completion entry 0.5 + poll 0.1 = 85.77 us: 8 / 85.77 us x 4096 B = 0.382 GB/s
    // (the SSD link's serialisation of 8 x 0.52 us spreads them by a few per cent).
    const IoRun r = run_io_bench("bam.yaml", 2048,
                                 {"storage.array.ssds=1", "storage.array.ssd.queue_pairs=1",
                                  "storage.array.ssd.queue_depth=8"});
    EXPECT_EQ(r.requests, 2048);
    const double cap = 8 / 85.77e-6 * 4096 / 1e9;
    EXPECT_LE(r.gb_per_s(), cap);
    EXPECT_GE(r.gb_per_s(), 0.9 * cap);
}

TEST(StorageIoE2e, EveryPlaneRunsDeterministically) {
    for (const char* config : {"bam.yaml", "cam.yaml", "spdk.yaml", "posix.yaml", "gds.yaml"}) {
        nlohmann::ordered_json a, b;
        const IoRun r = run_io_bench(config, 2048, {"storage.array.ssds=4"}, &a);
        run_io_bench(config, 2048, {"storage.array.ssds=4"}, &b);
        EXPECT_EQ(r.requests, 2048) << config;
        EXPECT_EQ(a.dump(), b.dump()) << config << ": two identical runs differ";
    }
}

TEST(StorageIoE2e, NoStoragePathIsATraceError) {
    register_all_components();
    ConfigNode root = load_platform_config(std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml", {});
    workloads::WorkloadOptions o;
    o.program["requests"] = 256;
    fs::path dir = fs::temp_directory_path() / "zngsim-e2e-cache";
    fs::create_directories(dir);
    std::vector<AppInput> apps;
    apps.push_back({"io_bench", trace::open_trace(workloads::cached_workload_trace("io_bench", o, dir.string()))});
    Platform p(root, std::move(apps));
    EXPECT_THROW(p.run(false), trace::TraceError);
}

}  // namespace
}  // namespace zng::cli
