// Speed of ZnG's MMU-resident FTL on the paper's geometry (configs/fragments/znand.yaml
// and zng_ftl.yaml): DBMT translations per wall second, and garbage-collection merges
// per wall second with the merge's reads, programs and erases run through the zng_flash
// back end (controllers, mesh, packages) that adopts the FTL.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "flash_model/register.hpp"
#include "flash_model/controller/zng_flash_backend.hpp"
#include "mmu_ftl/register.hpp"
#include "mmu_ftl/zng/zng_dbmt_translator.hpp"
#include "sim/config/config_node.hpp"

namespace {

using namespace zng;
using namespace zng::ftl;

// The paper platform's flash and FTL fragments, merged as a platform file would.
ConfigNode paper_ftl_config() {
    const std::string path = "/tmp/mmu_ftl_bench.yaml";
    std::ofstream f(path);
    f << "include:\n  - " << ZNG_SOURCE_DIR << "/configs/fragments/znand.yaml\n  - " << ZNG_SOURCE_DIR
      << "/configs/fragments/zng_ftl.yaml\nmemory: {type: zng_flash}\n";
    f.close();
    return load_config_file(path);
}

struct PaperFtl {
    PaperFtl() : root(paper_ftl_config()) {
        register_flash_model_components();
        register_mmu_ftl_components();
        TranslatorContext tctx{&root, 0, {}};
        translator = translator_slot().create(root.find("translation"), "translation", "zng_dbmt", sim, tctx);
        ftl = dynamic_cast<ZngDbmtTranslator*>(translator.get());
    }
    void add_flash() {
        BackendContext bctx;
        bctx.root = &root;
        bctx.translator = translator.get();
        backend = memory_backend_slot().create(root.find("memory"), "memory", "zng_flash", sim, bctx);
    }
    Simulator sim;
    ConfigNode root;
    std::unique_ptr<AddressTranslator> translator;
    ZngDbmtTranslator* ftl = nullptr;
    std::unique_ptr<MemoryBackend> backend;
};

// Translations of uniformly random pages of a footprint already mapped (the DBMT
// lookup the page walker pays for on every TLB miss). Argument: footprint in MiB.
void BM_TranslateMapped(benchmark::State& state) {
    PaperFtl p;
    const uint64_t pages = static_cast<uint64_t>(state.range(0)) * 1024 * 1024 / p.translator->page_size();
    uint64_t ppn = 0;
    for (uint64_t vpn = 0; vpn < pages; ++vpn) p.translator->translate(0, vpn, ppn);
    uint64_t x = 12345, sum = 0;
    for (auto _ : state) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        p.translator->translate(0, (x >> 16) % pages, ppn);
        sum += ppn;
    }
    benchmark::DoNotOptimize(sum);
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_TranslateMapped)->Arg(64)->Arg(4096);

// Translations of a stream of new pages (first touches allocate a data block every
// 64 planes x 384 pages = 24,576 pages).
void BM_TranslateStreaming(benchmark::State& state) {
    PaperFtl p;
    uint64_t vpn = 0, ppn = 0, sum = 0;
    for (auto _ : state) {
        p.translator->translate(0, vpn++, ppn);
        sum += ppn;
    }
    benchmark::DoNotOptimize(sum);
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
    state.counters["data_blocks"] = static_cast<double>(p.ftl->first_touches());
}
BENCHMARK(BM_TranslateStreaming);

// One iteration = one GC merge of a log group whose members are `range(0)` data blocks
// of one package (log_group_size 8 in the fragment): each member is 64 planes x 384
// pages read and programmed, then the members and the log block are erased, all as
// FlashOps through the zng_flash back end. Reports merges and moved pages per wall
// second and the simulated time of one merge.
void BM_GcMerge(benchmark::State& state) {
    PaperFtl p;
    p.add_flash();
    const DataBlockLayout& layout = p.ftl->tables().layout;
    const uint32_t members = static_cast<uint32_t>(state.range(0));
    for (uint32_t m = 0; m < members; ++m) {
        // Data blocks vbn = m * units all lie in unit 0, so they join one log group.
        uint64_t ppn = 0;
        p.translator->translate(0, layout.vpn_of(uint64_t{m} * layout.units(), 0, 0), ppn);
    }
    Tick sim_time = 0;
    for (auto _ : state) {
        // The first member's current block (each merge moves it).
        uint64_t ppn = 0;
        p.translator->translate(0, layout.vpn_of(0, 0, 0), ppn);
        const flash::FlashAddress first = layout.geometry().decode(ppn * layout.geometry().page_size());
        const uint32_t log = p.ftl->log_block_for(first);  // opens the group's log block
        const Tick t0 = p.sim.now();
        bool done = false;
        p.ftl->log_block_full(first.with_block(log).with_page(0), [&] { done = true; });
        p.sim.run();
        if (!done) state.SkipWithError("the merge did not finish");
        sim_time += p.sim.now() - t0;
    }
    const double merges = static_cast<double>(p.ftl->gc().merges());
    state.counters["merges_per_s"] = benchmark::Counter(merges, benchmark::Counter::kIsRate);
    state.counters["pages_moved_per_s"] =
        benchmark::Counter(static_cast<double>(p.ftl->gc().pages_moved()), benchmark::Counter::kIsRate);
    state.counters["sim_ms_per_merge"] = ticks_to_seconds(sim_time) * 1e3 / merges;
}
BENCHMARK(BM_GcMerge)->Arg(1)->Arg(8)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
