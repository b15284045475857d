// Builds a zng_dbmt translator from YAML text on a TestFlash, for the ZnG FTL tests.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "flash_model/flash_spec.hpp"
#include "mmu_ftl/register.hpp"
#include "mmu_ftl/zng/zng_dbmt_translator.hpp"
#include "sim/config/config_node.hpp"
#include "tests/mmu_ftl/test_flash.hpp"

namespace zng::ftl::test {

// 2 channels x 1 package x 1 die x 2 planes x 16 blocks x 4 pages of 4 KiB. With
// package-wide data blocks there are 2 units (one per package) of 16 blocks; a data
// block is 2 planes x 4 pages. vpn -> channel = vpn % 2, plane = (vpn / 2) % 2,
// page = (vpn / 4) % 4, virtual block = vpn / 16 (mod 16).
inline const char* kSmallFlash = R"(
flash:
  channels: 2
  packages_per_channel: 1
  dies_per_package: 1
  planes_per_die: 2
  blocks_per_plane: 16
  pages_per_block: 4
  page_size: 4KiB
)";

struct ZngFtlRig {
    explicit ZngFtlRig(const std::string& yaml, Tick t_read = 3 * kMicrosecond, Tick t_prog = 100 * kMicrosecond,
                       Tick t_erase = 1 * kMillisecond, uint32_t apps = 0,
                       DataSetQuery in_data_set = {})
        : root(parse_config_text(yaml, "test.yaml")) {
        register_mmu_ftl_components();
        // apps 0: the number of applications is not known; no data sets: every page is data
        TranslatorContext ctx{&root, apps, std::move(in_data_set)};
        auto t = translator_slot().create(root.find("translation"), "translation", "zng_dbmt", sim, ctx);
        ftl.reset(dynamic_cast<ZngDbmtTranslator*>(t.release()));
        spec = flash::load_flash_spec(&root);
        flash = std::make_unique<TestFlash>(sim, spec.geometry, t_read, t_prog, t_erase);
        flash->set_log_block_map(ftl.get());
        ftl->attach(*flash);
    }
    // Physical flash page of (app, vpn); fails the test when the page is held.
    flash::FlashAddress page_of(uint16_t app, uint64_t vpn) {
        uint64_t ppn = 0;
        EXPECT_TRUE(ftl->translate(app, vpn, ppn)) << "vpn " << vpn;
        return spec.geometry.decode(ppn * spec.geometry.page_size());
    }

    Simulator sim;
    ConfigNode root;
    flash::FlashSpec spec;
    std::unique_ptr<ZngDbmtTranslator> ftl;
    std::unique_ptr<TestFlash> flash;
};

}  // namespace zng::ftl::test
