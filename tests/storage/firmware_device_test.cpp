// The firmware device (FirmwareSsd over flash, Hetero's SSD) behind the general NVMe
// queues and PCIe route, and chosen by name from YAML.
#include <gtest/gtest.h>

#include "sim/config/config_node.hpp"
#include "storage/register.hpp"
#include "storage/ssd/firmware_ssd_device.hpp"
#include "tests/mmu_ftl/test_flash.hpp"
#include "tests/storage/storage_rig.hpp"

namespace zng::storage::test {
namespace {

TEST(FirmwareSsdDevice, LoneReadBehindTheQueuesCostsEveryStage) {
    register_storage_components();
    Simulator sim;
    ftl::test::TestFlash flash(sim, ftl::test::small_ssd_geometry(), 3 * kMicrosecond, 100 * kMicrosecond,
                               kMillisecond);
    GpuDmaPort dma(GpuDmaPortSettings{});
    PcieTopology pcie(topology(1), dma);
    SsdArraySettings one;
    SsdArray array(sim, one, nvme(1, 8),
                   [&](uint32_t) {
                       return std::make_unique<FirmwareSsdDevice>(
                           sim, Params(nullptr, FirmwareSsdDevice::schema(), "device"), "ssd", &flash);
                   },
                   pcie);
    EXPECT_EQ(array.ssd(0).device().alignment(), 4096u);  // the flash page
    Tick done = 0;
    array.submit(read_4k(0, [&](IoRequest& r) { done = r.completed; }));
    sim.run();
    // Submission 1.5 us; the firmware device with its defaults (as in Hetero's test):
    // firmware 100 ns, tR 3 us, the page into the DRAM buffer (4096 B at 9.6 GB/s =
    // 426,667 ps, + 50 ns) and out again (426,667 ps + 50 ns) = 4,053,334 ps; transfer
    // 1.88 us and completion 0.6 us as for any device on this route.
    EXPECT_EQ(done, 1500000 + 4053334 + 1880000 + 600000);
    EXPECT_EQ(flash.reads, 1u);
}

TEST(FirmwareSsdDevice, IsChosenByNameWithItsFlashSection) {
    register_storage_components();
    ConfigNode root = parse_config_text(
        "ssd: {device: {type: firmware, flash: {channels: 2, dies_per_package: 1, planes_per_die: 2, "
        "blocks_per_plane: 16, pages_per_block: 4}}}\n",
        "fw.yaml");
    Simulator sim;
    GpuDmaPort dma(GpuDmaPortSettings{});
    PcieTopology pcie(topology(1), dma);
    const Params ap(&root, SsdArraySettings::schema(), "storage.array");
    auto array = SsdArray::create(sim, ap, "storage", pcie);
    auto* fw = dynamic_cast<FirmwareSsdDevice*>(&array->ssd(0).device());
    ASSERT_NE(fw, nullptr);
    // 2 channels x 2 planes x 16 blocks x 4 pages of 4 KiB, less the over-provisioned
    // blocks: some capacity, a whole number of pages.
    EXPECT_GT(fw->capacity_bytes(), 0u);
    EXPECT_EQ(fw->capacity_bytes() % 4096, 0u);
    Tick done = 0;
    array->submit(read_4k(0, [&](IoRequest& r) { done = r.completed; }));
    sim.run();
    EXPECT_GT(done, 0u);
}

}  // namespace
}  // namespace zng::storage::test
