// The storage components from YAML: the drive fragments build arrays with their
// datasheet values, and bad values are config errors naming the key.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/config/config_node.hpp"
#include "sim/core/simulator.hpp"
#include "storage/gpu/gpu_dma_port.hpp"
#include "storage/host/host_cpu.hpp"
#include "storage/pcie/pcie_topology.hpp"
#include "storage/register.hpp"
#include "storage/ssd/calibrated_ssd_device.hpp"
#include "storage/ssd/ssd_array.hpp"
#include "storage/storage_system.hpp"
#include "support/scratch_path.hpp"

namespace zng::storage::test {
namespace {

// A `storage:` section built as a platform would.
struct StorageFromConfig {
    explicit StorageFromConfig(const ConfigNode& root) {
        register_storage_components();
        system = std::make_unique<StorageSystem>(sim, root.find("storage"), "storage", "storage");
        array = &system->array();
        pcie = &system->pcie();
    }
    Simulator sim;
    std::unique_ptr<StorageSystem> system;
    SsdArray* array;
    PcieTopology* pcie;
};

ConfigNode fragment(const std::string& name, const std::string& extra = "") {
    const std::string path = zng::test::scratch_path("storage_fragment", ".yaml").string();
    std::ofstream f(path);
    f << "include:\n  - " << ZNG_SOURCE_DIR << "/configs/fragments/" << name << "\n" << extra;
    f.close();
    ConfigNode root = load_config_file(path);
    std::filesystem::remove(path);
    return root;
}

// One lone 4 KiB random read's device time, measured through the built array.
Tick lone_read_device_time(StorageFromConfig& s) {
    Tick fetched = 0, ready = 0;
    IoRequest r;
    r.bytes = 4096;
    r.done = [&](IoRequest& io) {
        fetched = io.fetched;
        ready = io.device_done;
    };
    s.array->submit(std::move(r));
    s.sim.run();
    return ready - fetched;
}

TEST(StorageConfig, P5510FragmentBuildsTwelveSsdsWithItsDatasheetValues) {
    StorageFromConfig s(fragment("ssd_intel_p5510.yaml", "storage: {array: {ssds: 12, placement: raid0}}\n"));
    ASSERT_EQ(s.array->size(), 12u);
    EXPECT_EQ(s.array->ssd(0).settings().queue_pairs, 128u);
    EXPECT_EQ(s.array->ssd(0).settings().queue_depth, 1024u);
    EXPECT_EQ(s.array->ssd(11).capacity_bytes(), 3840000000000u);
    EXPECT_EQ(lone_read_device_time(s), 82 * kMicrosecond);
    // PCIe 4.0 x4: 4 x 16 GT/s x 128/130 / 8 = 7.877 GB/s per SSD.
    EXPECT_NEAR(s.pcie->ssd_link_up(0).bytes_per_second(), 7.877e9, 1e6);
}

TEST(StorageConfig, Samsung990ProFragmentBuildsWithItsDatasheetValues) {
    StorageFromConfig s(fragment("ssd_samsung_990pro.yaml"));
    EXPECT_EQ(s.array->ssd(0).settings().queue_pairs, 16u);
    EXPECT_EQ(s.array->ssd(0).capacity_bytes(), 2000000000000u);
    EXPECT_EQ(lone_read_device_time(s), 45 * kMicrosecond);
}

TEST(StorageConfig, DefaultsBuildAFirmwareOrCalibratedDeviceByName) {
    StorageFromConfig cal(parse_config_text("storage: {array: {ssd: {device: {type: calibrated}}}}\n", "t.yaml"));
    EXPECT_NE(dynamic_cast<CalibratedSsdDevice*>(&cal.array->ssd(0).device()), nullptr);
    try {
        StorageFromConfig bad(parse_config_text("storage: {array: {ssd: {device: {type: optical}}}}\n", "t.yaml"));
        FAIL() << "an unknown device type must be refused";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("storage.array.ssd.device.type"), std::string::npos) << e.what();
    }
}

// Building from `yaml` fails with a ConfigError that names `key`.
void expect_error_naming(const std::string& yaml, const std::string& key) {
    try {
        StorageFromConfig s(parse_config_text(yaml, "bad.yaml"));
        ADD_FAILURE() << "no error for " << yaml;
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
}

TEST(StorageConfig, BadValuesAreErrorsNamingTheKey) {
    expect_error_naming("storage: {array: {ssds: 0}}\n", "storage.array.ssds");
    expect_error_naming("storage: {array: {placement: raid5}}\n", "storage.array.placement");
    expect_error_naming("storage: {array: {placement: raid0, stripe_size: 1000B, ssd: {lba_size: 512B}}}\n",
                        "storage.array.stripe_size");
    expect_error_naming("storage: {array: {ssd: {queue_depth: 0}}}\n", "storage.array.ssd.queue_depth");
    expect_error_naming("storage: {array: {ssd: {queue_pairs: 70000}}}\n", "storage.array.ssd.queue_pairs");
    expect_error_naming("storage: {array: {ssd: {lba_size: 1000B}}}\n", "storage.array.ssd.lba_size");
    expect_error_naming("storage: {array: {ssd: {completion: carrier_pigeon}}}\n", "storage.array.ssd.completion");
    expect_error_naming("storage: {array: {ssd: {device: {read_iops: 0}}}}\n", "storage.array.ssd.device.read_iops");
    expect_error_naming("storage: {array: {ssd: {device: {read_latency: fast}}}}\n",
                        "storage.array.ssd.device.read_latency");
    expect_error_naming("storage: {pcie: {gpu_link_efficiency: 1.5}}\n", "storage.pcie.gpu_link_efficiency");
    expect_error_naming("storage: {pcie: {route: carrier_pigeon}}\n", "storage.pcie.route");
    expect_error_naming("storage: {pcie: {ssd_link_lanes: 0}}\n", "storage.pcie.ssd_link_lanes");
    expect_error_naming("storage: {host_cpu: {stack: dos}}\n", "storage.host_cpu.stack");
    expect_error_naming("storage: {host_cpu: {cores: 2, polling_threads: 2}}\n", "storage.host_cpu.polling_threads");
    expect_error_naming("storage: {gpu_dma: {bandwidth: -1GB/s}}\n", "storage.gpu_dma.bandwidth");
    expect_error_naming("storage: {array: {ssd: {unknown_knob: 1}}}\n", "unknown_knob");
    expect_error_naming("storage: {arrays: {}}\n", "arrays");
}

TEST(StorageConfig, RegisteredStatisticsFollowTheComponents) {
    // One 4 KiB read through a bounce buffer on 2 default (P5510) SSDs.
    StorageFromConfig s(parse_config_text("storage: {array: {ssds: 2}, pcie: {route: host_bounce}}\n", "t.yaml"));
    s.system->register_stats(s.sim.stats(), "storage");
    IoRequest r;
    r.ssd = 1;
    r.bytes = 4096;
    s.array->submit(std::move(r));
    s.sim.run();
    EXPECT_EQ(s.sim.stats().value("storage.ssd0.commands"), 0.0);
    EXPECT_EQ(s.sim.stats().value("storage.ssd1.commands"), 1.0);
    EXPECT_EQ(s.sim.stats().value("storage.ssd1.bytes_read"), 4096.0);
    // The bounce: written into host DRAM by the DMA, read out by the copy.
    EXPECT_EQ(s.sim.stats().value("storage.pcie.host_memory_bytes_written"), 4096.0);
    EXPECT_EQ(s.sim.stats().value("storage.pcie.host_memory_bytes_read"), 4096.0);
    EXPECT_EQ(s.sim.stats().value("storage.gpu_dma.bytes_written"), 4096.0);
    // Default GPU link: 21 GB/s (seed 000) carries 4096 B in 4096 / 20.9999e9 s.
    EXPECT_NEAR(s.sim.stats().value("storage.pcie.gpu_link_down_busy"), 4096 / 20.9999e9 * 1e12, 2.0);
}

}  // namespace
}  // namespace zng::storage::test
