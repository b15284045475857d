// The mmu_ftl config fragments load and build their components (every key known, every
// value in range), together with the Z-NAND fragment they rely on.
#include <gtest/gtest.h>

#include <fstream>

#include "flash_model/register.hpp"
#include "mmu_ftl/register.hpp"
#include "mmu_ftl/ssd/hybridgpu_backend.hpp"
#include "mmu_ftl/zng/zng_dbmt_translator.hpp"
#include "sim/config/config_node.hpp"
#include "storage/hetero/hetero_host_translator.hpp"
#include "storage/register.hpp"
#include "support/scratch_path.hpp"

namespace zng::ftl::test {
namespace {

ConfigNode load_with(const std::vector<std::string>& fragments) {
    const std::string path = zng::test::scratch_path("mmu_ftl_fragments", ".yaml").string();
    std::ofstream f(path);
    f << "include:\n";
    for (const auto& fr : fragments) f << "  - " << ZNG_SOURCE_DIR << "/configs/fragments/" << fr << "\n";
    f.close();
    ConfigNode root = load_config_file(path);
    std::filesystem::remove(path);
    return root;
}

TEST(ConfigFragments, ZngFtlBuildsWithThePaperGeometry) {
    register_mmu_ftl_components();
    ConfigNode root = load_with({"znand.yaml", "zng_ftl.yaml"});
    Simulator sim;
    TranslatorContext ctx{&root, 0, {}};
    auto t = translator_slot().create(root.find("translation"), "translation", "first_touch", sim, ctx);
    auto* z = dynamic_cast<ZngDbmtTranslator*>(t.get());
    ASSERT_NE(z, nullptr);
    EXPECT_EQ(z->table_sizes().dbmt_bytes_per_tb, 79640u);
}

TEST(ConfigFragments, HybridGpuBuilds) {
    register_flash_model_components();
    register_mmu_ftl_components();
    ConfigNode root = load_with({"znand.yaml", "hybridgpu_ssd.yaml"});
    Simulator sim;
    BackendContext ctx;
    ctx.ports = 6;
    ctx.root = &root;
    auto be = memory_backend_slot().create(root.find("memory"), "memory", "gddr5", sim, ctx);
    ASSERT_NE(dynamic_cast<HybridGpuBackend*>(be.get()), nullptr);
    EXPECT_EQ(be->num_ports(), 6u);
    // floor(1024 planes x 1024 blocks x 0.93) = 975,175 blocks x 384 pages x 4 KiB.
    EXPECT_EQ(be->capacity_bytes(), uint64_t{975175} * 384 * 4096);
}

TEST(ConfigFragments, HeteroZssdAndTlcBuild) {
    register_flash_model_components();
    register_mmu_ftl_components();
    storage::register_storage_components();
    for (auto frags : {std::vector<std::string>{"hetero_host.yaml", "hetero_zssd.yaml"},
                       std::vector<std::string>{"hetero_host.yaml", "hetero_zssd.yaml", "hetero_tlc_ssd.yaml"}}) {
        ConfigNode root = load_with(frags);
        Simulator sim;
        TranslatorContext ctx{&root, 0, {}};
        auto t = translator_slot().create(root.find("translation"), "translation", "first_touch", sim, ctx);
        auto* h = dynamic_cast<storage::HeteroHostTranslator*>(t.get());
        ASSERT_NE(h, nullptr);
        EXPECT_EQ(h->gpu_memory_bytes(), 1536ull << 20);
        // PCIe 2.0 x16: 16 x 5 GT/s x 0.8 / 8 = 8 GB/s.
        EXPECT_EQ(h->host_to_gpu().bytes_per_second(), 8e9);
    }
}

}  // namespace
}  // namespace zng::ftl::test
