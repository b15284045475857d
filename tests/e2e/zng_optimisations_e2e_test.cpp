// The read and write optimisations on whole platforms. The four ZnG platforms are
// composed here from the shared fragments (gpu, znand, zng_ftl + zng_rdopt and/or
// zng_wropt), so the comparison tests exactly what the fragments switch on. The
// expectations are the issue's: on a read-heavy workload the read optimisation re-reads
// fewer flash pages than zng-base; on a write-heavy one the write optimisation programs
// fewer pages; zng, with both, is lowest on both counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::cli {
namespace {

namespace fs = std::filesystem;

fs::path scratch() {
    fs::path d = fs::temp_directory_path() / "zngsim-zng-opt-e2e";
    fs::create_directories(d);
    return d;
}

// Writes configs/<name>.yaml-like files that include the repository's fragments.
fs::path platform_file(const std::string& name) {
    const std::string f = std::string(ZNG_SOURCE_DIR) + "/configs/fragments/";
    std::string text = "include:\n  - " + f + "gpu.yaml\n  - " + f + "znand.yaml\n  - " + f + "zng_ftl.yaml\n";
    if (name == "zng-rdopt" || name == "zng") text += "  - " + f + "zng_rdopt.yaml\n";
    if (name == "zng-wropt" || name == "zng") text += "  - " + f + "zng_wropt.yaml\n";
    text += "platform: {name: " + name + "}\nmemory: {type: zng_flash}\n";
    fs::path p = scratch() / (name + ".yaml");
    std::ofstream(p) << text;
    return p;
}

struct FlashCounts {
    double senses = 0, programs = 0, reaccesses = 0;
};

FlashCounts run(const std::string& platform, const std::string& workload, const std::vector<std::string>& sets = {}) {
    register_all_components();
    ConfigNode root = load_platform_config(platform_file(platform).string(), sets);
    workloads::WorkloadOptions o;  // small preset
    std::vector<AppInput> apps;
    apps.push_back({workload, trace::open_trace(workloads::cached_workload_trace(workload, o, scratch().string()))});
    Platform p(root, std::move(apps));
    p.run(false);
    const StatRegistry& st = p.sim().stats();
    return {st.value("memory.senses"), st.value("memory.programs"), st.value("memory.read_reaccesses")};
}

// bfs1 (read ratio 0.95): the small preset fits the paper's L2s, so the L2s are scaled
// down by the same factor (6 MiB -> 192 KiB SRAM, 24 MiB -> 768 KiB STT-MRAM, still 4x)
// to make the data set larger than the cache, as the paper's inputs are.
// What the read optimisation removes is the paper's Fig. 12 measure, re-reads of pages
// already sensed; total senses are not compared, because zng-rdopt's read-only L2 sends
// stores past it, so it reads pages whose lines zng-base's write-allocate L2 holds and
// senses to merge partly written registers (on this input 580 + 19 senses against
// 495 + 27, with 32 re-reads against 63).
TEST(ZngOptimisations, ReadOptimisationRereadsFewerPagesOnAReadHeavyWorkload) {
    FlashCounts base = run("zng-base", "bfs1", {"gpu.l2.size=192KiB"});
    FlashCounts rdopt = run("zng-rdopt", "bfs1", {"gpu.l2.size=768KiB"});
    EXPECT_LT(rdopt.reaccesses, base.reaccesses);
}

// back (read ratio 0.57): grouped registers absorb the small writes that two private
// registers per plane keep programming, with a write-back SRAM L2 (zng-wropt against
// zng-base) and with the read-only STT-MRAM L2 that sends every store to the flash (zng
// against zng-rdopt); there the fewer programs also mean fewer pages sensed again. Reads
// never program a buffered write (III-C), so the registers must be fewer than the pages
// the small preset writes: one plane per package, 16 planes in all (32 registers with
// two per plane, 128 with eight).
TEST(ZngOptimisations, WriteOptimisationProgramsFewerPagesWithEitherL2) {
    const std::vector<std::string> one_plane = {"flash.dies_per_package=1", "flash.planes_per_die=1"};
    FlashCounts base = run("zng-base", "back", one_plane);
    FlashCounts rdopt = run("zng-rdopt", "back", one_plane);
    FlashCounts wropt = run("zng-wropt", "back", one_plane);
    FlashCounts both = run("zng", "back", one_plane);
    EXPECT_GT(base.programs, 0.0);
    EXPECT_LT(wropt.programs, base.programs);
    EXPECT_LT(both.programs, rdopt.programs);
    EXPECT_LT(both.senses, rdopt.senses);
}

}  // namespace
}  // namespace zng::cli
