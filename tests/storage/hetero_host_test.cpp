// Hetero's host path: a first touch costs the fault (interrupt + host handling), the
// NVMe SSD read and the PCIe copy; a second touch is a plain GPU-memory access; a full
// GPU memory evicts the least recently used page and writes it back when dirty.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/config/config_node.hpp"
#include "storage/hetero/hetero_host_translator.hpp"
#include "storage/register.hpp"
#include "tests/mmu_ftl/test_flash.hpp"

namespace zng::storage::test {
using ftl::test::small_ssd_geometry;
using ftl::test::TestFlash;
namespace {

struct HeteroRig {
    // Faults are handled one by one unless `opts` says otherwise.
    explicit HeteroRig(const std::string& opts = "fault_batch_size: 1, fault_batch_window: 0ns")
        : root(parse_config_text("translation: {type: hetero_host, " + opts + "}\n", "hetero.yaml")),
          flash(sim, small_ssd_geometry(), 3 * kMicrosecond, 100 * kMicrosecond, kMillisecond) {
        register_storage_components();
        Params p(root.find("translation"), HeteroHostTranslator::schema(), "translation");
        TranslatorContext ctx{&root, 0, {}};
        host = std::make_unique<HeteroHostTranslator>(sim, p, ctx, &flash);
        host->set_shootdown([this](uint16_t app, uint64_t vpn) { shot.push_back({app, vpn}); });
    }
    // Raises a fault and runs until it is served; returns (ppn, latency).
    std::pair<uint64_t, Tick> fault(uint16_t app, uint64_t vpn) {
        const Tick t0 = sim.now();
        uint64_t ppn = UINT64_MAX;
        Tick at = 0;
        host->resolve_fault(app, vpn, [&](uint64_t p) {
            ppn = p;
            at = sim.now();
        });
        sim.run();
        EXPECT_NE(ppn, UINT64_MAX);
        return {ppn, at - t0};
    }
    Simulator sim;
    ConfigNode root;
    TestFlash flash;
    std::unique_ptr<HeteroHostTranslator> host;
    std::vector<std::pair<uint16_t, uint64_t>> shot;
};

// The NVMe SSD read on its own, measured in a separate simulation (an independent
// measurement of the term the fault must contain).
Tick lone_ssd_read() {
    register_storage_components();
    Simulator sim;
    TestFlash flash(sim, small_ssd_geometry(), 3 * kMicrosecond, 100 * kMicrosecond, kMillisecond);
    HeteroHostSsd ssd(sim, nullptr, "ssd", "ssd", PcieLinkSpec{}, &flash);
    Tick at = 0;
    ssd.read(0, 4096, [&](IoRequest&) { at = sim.now(); });
    sim.run();
    return at;
}

TEST(HeteroHost, SsdReadIsCommandFirmwareFlashBufferAndLink) {
    // By hand from the defaults: NVMe command 2 us; firmware 100 cycles at 1 GHz =
    // 100 ns; tR 3 us; page into the DRAM buffer ceil(4096 / 9.6 GB/s) = 426,667 ps +
    // 50 ns, read out again 426,667 ps + 50 ns; link x4 Gen3 = 3.938 GB/s: 4096 B in
    // 1,040,001 ps (the rate is kept in whole bytes/s: 3,938,461,538) + 1 us.
    EXPECT_EQ(lone_ssd_read(), 2000000 + 100000 + 3000000 + 426667 + 50000 + 426667 + 50000 + 1040001 + 1000000);
}

TEST(HeteroHost, FirstTouchCostsFaultSsdReadAndPcieCopySecondTouchIsLocal) {
    HeteroRig rig;
    uint64_t ppn = 0;
    EXPECT_FALSE(rig.host->translate(0, 100, ppn));
    auto [frame, latency] = rig.fault(0, 100);
    // interrupt 2 us + handling 20 us + SSD read + PCIe x16 Gen3 copy:
    // 4096 B / 15.75 GB/s = 260 ns + 1 us latency.
    const Tick pcie = 260000 + 1000000;
    EXPECT_EQ(latency, 2 * kMicrosecond + 20 * kMicrosecond + lone_ssd_read() + pcie);
    EXPECT_EQ(rig.host->faults(), 1u);
    // Second touch: resident, no fault, same frame. What it costs is the GPU memory's
    // access; here a fixed-latency stand-in for GDDR5 (300 ns) is all that is added.
    const Tick gddr5_standin = 300 * kNanosecond;
    const Tick t0 = rig.sim.now();
    ASSERT_TRUE(rig.host->translate(0, 100, ppn));
    EXPECT_EQ(ppn, frame);
    Tick second = rig.sim.now() - t0 + gddr5_standin;
    EXPECT_EQ(second, gddr5_standin);
    EXPECT_EQ(rig.host->faults(), 1u);
    EXPECT_LT(second * 50, latency);
}

TEST(HeteroHost, FaultsOfOneBatchShareOneInterrupt) {
    HeteroRig rig("fault_batch_size: 4, fault_batch_window: 5us");
    int done = 0;
    for (uint64_t vpn : {1, 2, 3}) rig.host->resolve_fault(0, vpn, [&](uint64_t) { ++done; });
    rig.host->resolve_fault(0, 2, [&](uint64_t) { ++done; });  // same page: joins the fault
    rig.sim.run();
    EXPECT_EQ(done, 4);
    EXPECT_EQ(rig.host->faults(), 3u);
    EXPECT_EQ(rig.sim.stats().value("translation.batches"), 1.0);
}

TEST(HeteroHost, FullGpuMemoryEvictsLeastRecentlyUsedAndWritesBackDirty) {
    HeteroRig rig("fault_batch_size: 1, fault_batch_window: 0ns, gpu_memory: 8KiB");  // two frames
    uint64_t f1 = rig.fault(0, 1).first;
    rig.fault(0, 2);
    rig.host->note_access(f1 * 4096 + 64, true);  // page 1 written: dirty, most recent
    uint64_t ppn = 0;
    ASSERT_TRUE(rig.host->translate(0, 2, ppn));  // now page 2 is most recent
    rig.fault(0, 3);
    EXPECT_EQ(rig.host->evictions(), 1u);
    EXPECT_EQ(rig.host->writebacks(), 1u);
    ASSERT_EQ(rig.shot.size(), 1u);
    EXPECT_EQ(rig.shot[0], (std::pair<uint16_t, uint64_t>{0, 1}));
    EXPECT_FALSE(rig.host->translate(0, 1, ppn));
    EXPECT_TRUE(rig.host->translate(0, 3, ppn));
    EXPECT_EQ(ppn, f1);  // the evicted page's frame was reused
    // A clean page leaves without a write-back.
    rig.fault(0, 4);
    EXPECT_EQ(rig.host->evictions(), 2u);
    EXPECT_EQ(rig.host->writebacks(), 1u);
    EXPECT_EQ(rig.shot.back(), (std::pair<uint16_t, uint64_t>{0, 2}));
}

}  // namespace
}  // namespace zng::storage::test

namespace zng::storage::test {
namespace {

struct PageReads {
    std::vector<Tick> done;                   // each page's read, by page
    std::vector<uint64_t> commands_per_ssd;   // NVMe commands each SSD fetched
};

// Reads pages 0 .. pages - 1 (4 KiB each) at time 0 from `ssds` default (Z-SSD) host SSDs.
PageReads read_pages(uint32_t ssds, uint64_t pages) {
    register_storage_components();
    Simulator sim;
    const ConfigNode root = parse_config_text("ssd: {ssds: " + std::to_string(ssds) + "}\n", "hetero.yaml");
    HeteroHostSsd ssd(sim, root.find("ssd"), "translation.ssd", "translation.ssd", PcieLinkSpec{});
    PageReads r;
    r.done.assign(pages, 0);
    for (uint64_t page = 0; page < pages; ++page)
        ssd.read(page * 4096, 4096, [&r, &sim, page](IoRequest&) { r.done[page] = sim.now(); });
    sim.run();
    for (uint32_t i = 0; i < ssd.ssds(); ++i) r.commands_per_ssd.push_back(ssd.nvme(i).commands());
    return r;
}

TEST(HeteroHost, PagesAreStripedOverTheSsdsEachWithItsOwnLink) {
    // One SSD: both commands go to it and share its controller, buffer and x4 link, so
    // the later of the two ends after a lone page's read.
    const Tick lone = read_pages(1, 1).done[0];
    const PageReads one = read_pages(1, 2);
    EXPECT_EQ(one.commands_per_ssd, (std::vector<uint64_t>{2}));
    EXPECT_GT(std::max(one.done[0], one.done[1]), lone);
    // Two SSDs striped in 4 KiB units: page 0 on SSD 0, page 1 on SSD 1 (each at its
    // offset 0), alike and idle, so each read costs exactly a lone page's read.
    const PageReads two = read_pages(2, 2);
    EXPECT_EQ(two.commands_per_ssd, (std::vector<uint64_t>{1, 1}));
    EXPECT_EQ(two.done[0], lone);
    EXPECT_EQ(two.done[1], lone);
}

}  // namespace
}  // namespace zng::storage::test

// Hetero on the node's storage: a platform `storage:` section whose control plane is
// os_fault holds the host SSDs and links, and the translator builds none of its own.
#include "storage/storage_system.hpp"

namespace zng::storage::test {
namespace {

// Four P5510-like SSDs (the calibrated device's defaults) striped in 4 KiB units, pages
// bounced through host DRAM as Hetero's handler copies them; faults handled one by one,
// with `extra` keys in the translation section.
std::string node_config(const std::string& extra = "") {
    return "storage:\n"
           "  array: {ssds: 4, placement: raid0, stripe_size: 4KiB, ssd: {completion: interrupt}}\n"
           "  pcie: {route: host_bounce}\n"
           "  control_plane: {type: os_fault}\n"
           "translation: {type: hetero_host, fault_batch_size: 1, fault_batch_window: 0ns" +
           extra + "}\n";
}

struct NodeRig {
    explicit NodeRig(const std::string& yaml = node_config()) : root(parse_config_text(yaml, "hetero.yaml")) {
        register_storage_components();
        storage = std::make_unique<StorageSystem>(sim, root.find("storage"), "storage", "storage");
        Params p(root.find("translation"), HeteroHostTranslator::schema(), "translation");
        TranslatorContext ctx{&root, 0, {}, storage->control_plane()};
        host = std::make_unique<HeteroHostTranslator>(sim, p, ctx);
    }
    Simulator sim;
    ConfigNode root;
    std::unique_ptr<StorageSystem> storage;
    std::unique_ptr<HeteroHostTranslator> host;
};

// The handler's read and copy of one page, measured on a storage system of its own
// built from the same section (an independent measurement of the terms of a fault).
std::pair<Tick, Tick> lone_read_and_copy() {
    register_storage_components();
    Simulator sim;
    const ConfigNode root = parse_config_text(node_config(), "hetero.yaml");
    StorageSystem s(sim, root.find("storage"), "storage", "storage");
    auto* plane = s.control_plane()->find_interface<OsFaultPlane>();
    Tick read = 0;
    plane->read(0, 4096, [&](IoRequest&) { read = sim.now(); });
    sim.run();
    return {read, s.pcie().host_to_gpu(read, 4096, 0) - read};
}

TEST(HeteroHost, OnTheNodesStorageAFaultCostsItsReadAndCopyThere) {
    NodeRig rig;
    const auto [read, copy] = lone_read_and_copy();
    Tick at = 0;
    rig.host->resolve_fault(0, 7, [&](uint64_t) { at = rig.sim.now(); });
    rig.sim.run();
    // interrupt 2 us + handling 20 us, then the node's SSD read and PCIe copy.
    EXPECT_EQ(at, 2 * kMicrosecond + 20 * kMicrosecond + read + copy);
    EXPECT_EQ(rig.storage->array().ssd(0).commands(), 1u);
    EXPECT_EQ(rig.storage->pcie().gpu_link_down().bytes(), 4096u);
    EXPECT_TRUE(rig.storage->control_plane()->find_interface<OsFaultPlane>()->driven());
    // The translator built no SSD of its own: no statistic under translation.ssd.
    for (const Stat* st : rig.sim.stats().all()) EXPECT_NE(st->name().rfind("translation.ssd", 0), 0u) << st->name();
}

TEST(HeteroHost, OnTheNodesStorageFaultsSpreadOverItsSsds) {
    NodeRig rig;
    int done = 0;
    for (uint64_t vpn = 0; vpn < 8; ++vpn) rig.host->resolve_fault(0, vpn, [&](uint64_t) { ++done; });
    rig.sim.run();
    EXPECT_EQ(done, 8);
    // Pages are laid out in first-touch order, 4 KiB stripes over 4 SSDs: two each.
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(rig.storage->array().ssd(i).commands(), 2u) << "SSD " << i;
}

TEST(HeteroHost, OnTheNodesStorageAnSsdOrLinkOfItsOwnIsAConfigError) {
    for (const auto& [extra, key] : {std::pair<std::string, std::string>{", ssd: {ssds: 2}", "translation.ssd"},
                                     {", pcie_lanes: 8", "translation.pcie_lanes"}}) {
        try {
            NodeRig rig(node_config(extra));
            ADD_FAILURE() << "no error for" << extra;
        } catch (const ConfigError& e) {
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace zng::storage::test
