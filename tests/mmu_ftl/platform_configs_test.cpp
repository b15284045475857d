// The platform files of the parts in mmu_ftl (configs/zng-base.yaml, hybridgpu.yaml,
// hetero.yaml) load, build their translator and memory back end as the platform does,
// and say what their descriptions promise (paper Table I, issue 7 for zng-base).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "flash_model/register.hpp"
#include "flash_model/controller/zng_flash_backend.hpp"
#include "flash_model/network/mesh_network.hpp"
#include "gpu_model/register.hpp"
#include "memory/register_memory.hpp"
#include "mmu_ftl/hetero/hetero_gpu_memory.hpp"
#include "mmu_ftl/register.hpp"
#include "mmu_ftl/ssd/hybridgpu_backend.hpp"
#include "mmu_ftl/zng/zng_dbmt_translator.hpp"
#include "sim/config/config_node.hpp"
#include "storage/hetero/hetero_host_translator.hpp"
#include "storage/register.hpp"

namespace zng::ftl::test {
namespace {

struct PlatformParts {
    explicit PlatformParts(const std::string& name)
        : root(load_config_file(std::string(ZNG_SOURCE_DIR) + "/configs/" + name + ".yaml")) {
        register_gpu_model_components();
        memory::register_gpu_memory_components();
        register_flash_model_components();
        register_mmu_ftl_components();
        storage::register_storage_components();
        TranslatorContext tctx{&root, 0, {}};
        translator = translator_slot().create(root.find("translation"), "translation", "first_touch", sim, tctx);
        BackendContext bctx;
        bctx.ports = 6;  // Table I: 6 L2 banks
        bctx.root = &root;
        bctx.translator = translator.get();
        memory = memory_backend_slot().create(root.find("memory"), "memory", "gddr5", sim, bctx);
    }
    std::string at(const std::string& dotted) const {
        const ConfigNode* n = root.find_path(dotted);
        return n ? n->scalar() : "<missing>";
    }
    Simulator sim;
    ConfigNode root;
    std::unique_ptr<AddressTranslator> translator;
    std::unique_ptr<MemoryBackend> memory;
};

TEST(PlatformConfigs, ZngBaseIsFlashControllersMeshAndTheMmuFtl) {
    PlatformParts p("zng-base");
    EXPECT_EQ(p.at("platform.name"), "zng-base");
    auto* ftl = dynamic_cast<ZngDbmtTranslator*>(p.translator.get());
    auto* flash = dynamic_cast<flash::ZngFlashBackend*>(p.memory.get());
    ASSERT_NE(ftl, nullptr);
    ASSERT_NE(flash, nullptr);
    // No SSD controller, no DRAM buffer: the FTL in the MMU is the flash's log-block map.
    EXPECT_EQ(flash->builtin_allocator(), nullptr);
    EXPECT_EQ(ftl->tables().flash, flash);
    EXPECT_EQ(flash->backbone().controllers(), 16u);  // 16 flash controllers on the GPU interconnect
    EXPECT_EQ(p.at("memory.network.type"), "mesh");
    EXPECT_EQ(p.at("memory.network.link_width"), "8B");
    EXPECT_EQ(flash->backbone().spec().registers_per_plane, 2u);
    EXPECT_EQ(p.at("flash.register_grouping"), "plane");
    EXPECT_FALSE(flash->backbone().spec().reads_keep_pages);  // III-C: registers are the write buffer
    // I, V-B: without IV-C the registers are each plane's program pipeline, not a cache.
    EXPECT_TRUE(flash->backbone().spec().program_pipeline);
    EXPECT_EQ(p.root.find_path("flash.thrashing_checker"), nullptr);  // off
    EXPECT_EQ(p.at("gpu.l2.size"), "6MiB");
    EXPECT_EQ(p.at("gpu.l2.technology"), "sram");
    EXPECT_EQ(p.at("gpu.l2.policy.type"), "none");  // no prefetch, no pinning
    // 16 x 64 planes x 1024 blocks x 384 pages x 4 KiB.
    EXPECT_EQ(flash->capacity_bytes(), uint64_t{16} * 64 * 1024 * 384 * 4096);
}

// IV-C's write optimisation makes the registers a write cache again; zng-rdopt, which
// adds only the read optimisation, keeps zng-base's pipeline.
TEST(PlatformConfigs, OnlyTheWriteOptimisationMakesTheRegistersACache) {
    for (const auto& [config, pipeline] : std::vector<std::pair<std::string, bool>>{
             {"zng-base", true}, {"zng-rdopt", true}, {"zng-wropt", false}, {"zng", false}}) {
        SCOPED_TRACE(config);
        PlatformParts p(config);
        auto* flash = dynamic_cast<flash::ZngFlashBackend*>(p.memory.get());
        ASSERT_NE(flash, nullptr);
        EXPECT_EQ(flash->backbone().spec().program_pipeline, pipeline);
    }
}

TEST(PlatformConfigs, ZngMeshLinksCarryTheirPackagesIoPorts) {
    // III-B: the mesh "can meet the bandwidth requirement of Z-NAND packages by increasing
    // the frequency and link widths". The busiest link must move the data of every package
    // routed over it at the packages' full I/O rate, headers included, one flit a cycle.
    PlatformParts p("zng-base");
    auto* flash = dynamic_cast<flash::ZngFlashBackend*>(p.memory.get());
    ASSERT_NE(flash, nullptr);
    auto* mesh = dynamic_cast<flash::MeshNetwork*>(&flash->backbone().network());
    ASSERT_NE(mesh, nullptr);
    const auto& spec = flash->backbone().spec();
    // Controllers on their rows' west edge: column 1 -> 0 carries columns 1-3.
    ASSERT_EQ(mesh->busiest_link_packages(), 3u);
    ASSERT_EQ(mesh->packet_flits(mesh->max_payload()), 65u);  // (8 B header + 512 B) / 8 B
    // Data bytes per second the link must carry, and flits per second it can carry, both
    // times the packet payload so the comparison stays in integers.
    const uint64_t data = uint64_t{mesh->busiest_link_packages()} * spec.io_ports_per_package *
                          spec.timing.io_port_width * spec.timing.interface_rate;  // 38.4 GB/s
    const uint64_t need = data * mesh->packet_flits(mesh->max_payload());
    const uint64_t have = mesh->clock().frequency_hz() * mesh->max_payload();
    EXPECT_GE(have, need);
    // 3 x 2 x 8 B x 800 MT/s x 65/512 flits per byte = 4.875 G flits/s: the configured clock
    // is that rate, no faster.
    EXPECT_EQ(mesh->clock().frequency_hz(), 4'875'000'000u);
    EXPECT_EQ(have, need);
}

TEST(PlatformConfigs, HybridGpuAddressSpaceIsTheSsdCapacity) {
    PlatformParts p("hybridgpu");
    EXPECT_EQ(p.at("platform.name"), "hybridgpu");
    ASSERT_NE(dynamic_cast<HybridGpuBackend*>(p.memory.get()), nullptr);
    // translation.capacity is the SSD's exported capacity, so exhausting one is exhausting both.
    EXPECT_EQ(p.at("translation.capacity"), std::to_string(p.memory->capacity_bytes()) + "B");
    EXPECT_EQ(p.at("memory.network.type"), "onfi_bus");
}

TEST(PlatformConfigs, HeteroGpuMemoryIsTheGddr5FragmentWithTheGtx580Capacity) {
    PlatformParts p("hetero");
    EXPECT_EQ(p.at("platform.name"), "hetero");
    auto* host = dynamic_cast<storage::HeteroHostTranslator*>(p.translator.get());
    auto* mem = dynamic_cast<HeteroGpuMemory*>(p.memory.get());
    ASSERT_NE(host, nullptr);
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(mem->capacity_bytes(), uint64_t{1536} << 20);
    EXPECT_EQ(host->gpu_memory_bytes(), mem->capacity_bytes());
    // The nested GDDR5 section repeats fragments/gddr5.yaml (an include cannot nest):
    // every key and value equal but capacity.
    ConfigNode frag = load_config_file(std::string(ZNG_SOURCE_DIR) + "/configs/fragments/gddr5.yaml");
    const ConfigNode* ref = frag.find("memory");
    const ConfigNode* dram = p.root.find_path("memory.dram");
    ASSERT_NE(ref, nullptr);
    ASSERT_NE(dram, nullptr);
    ASSERT_EQ(dram->entries().size(), ref->entries().size());
    for (const auto& [key, value] : ref->entries()) {
        const ConfigNode* mine = dram->find(key);
        ASSERT_NE(mine, nullptr) << key;
        if (key != "capacity") {
            EXPECT_EQ(mine->scalar(), value.scalar()) << key;
        }
    }
}

}  // namespace
}  // namespace zng::ftl::test
