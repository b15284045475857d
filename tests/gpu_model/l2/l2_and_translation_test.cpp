// L2 bank array occupancy (SRAM vs STT-MRAM), and the first_touch translator.
#include <gtest/gtest.h>

#include <map>

#include "gpu_model/l2/l2_cache.hpp"
#include "gpu_model/register.hpp"
#include "gpu_model/tlb/first_touch_translator.hpp"
#include "gpu_model/gpu.hpp"
#include "support/cycle_driver.hpp"
#include "support/fixed_latency_backend.hpp"
#include "traces/vector_trace_source.hpp"

namespace zng::gpu::testing {
namespace {

// Answer cycles of: a full-line write to A at 0, a read of A at 0, a read miss of X at
// 20 (memory 10 cycles), a read of A at 32.
std::vector<Cycle> occupancy_run(const char* technology, const char* ports = "shared") {
    register_gpu_model_components();
    Simulator sim;
    ClockDomain clock("gpu", 1'000'000'000);
    auto node = parse_config_text(
        std::string("l2: {banks: 1, size: 64KiB, technology: ") + technology + ", ports: " + ports + "}", "t");
    L2Config cfg = L2Config::from(Params(node.find("l2"), L2Config::schema(), "l2"));
    L2Cache l2(sim, "l2", clock, cfg);
    FixedLatencyBackend memory(sim, clock, 1, 10);
    CycleDriver d(sim, clock);
    d.port().bind(l2.bank(0).cpu_port());
    l2.bank(0).mem_port().bind(memory.port(0));
    d.at(0, MemOp::Write, 0x0, 0xf);
    d.at(0, MemOp::Read, 0x0, 0x1);
    d.at(20, MemOp::Read, 0x8000, 0x1);
    d.at(32, MemOp::Read, 0x0, 0x1);
    sim.run();
    std::vector<Cycle> out;
    for (const auto& [id, c] : d.done) out.push_back(c);
    EXPECT_TRUE(l2.idle());
    EXPECT_EQ(sim.requests().live(), 0u);
    return out;
}

TEST(L2Bank, SttMramWritesAndFillsHoldTheBankForTheWriteLatency) {
    // STT-MRAM, write 5, read 1. The write allocates A without a fetch (whole line) and
    // holds the bank 0..5: acknowledged at 5. The read of A waits for the bank: served
    // at 5, answered at 6. The miss of X at 20 is looked up (1), goes to memory (10):
    // its fill arrives at 31, data forwarded at once (31), and the fill holds the bank
    // 31..36; the read of A at 32 is served at 36 and answered at 37.
    EXPECT_EQ(occupancy_run("stt_mram"), (std::vector<Cycle>{5, 6, 31, 37}));
}

TEST(L2Bank, SeparateReadAndWritePortsPipelineTheWriteLatency) {
    // MacSim's cache-bank ports: a write holds the write port 1 cycle, a read the read
    // port 1 cycle, latencies as before. The write of A is served at 0 and acknowledged
    // at 5; the read of A is served at 1 (one request per cycle from the input queue) on
    // the free read port and answered at 2; the miss of X as before (31); its fill takes
    // the write port at 31, so the read of A at 32 is answered at 33.
    EXPECT_EQ(occupancy_run("stt_mram", "read_write"), (std::vector<Cycle>{5, 2, 31, 33}));
}

TEST(L2Bank, SramWritesTakeOneCycle) {
    // Same sequence with write latency 1: write 1, read 1 + 1 = 2, miss 31, fill holds
    // 31..32, read of A at 32 answered at 33.
    EXPECT_EQ(occupancy_run("sram"), (std::vector<Cycle>{1, 2, 31, 33}));
}

TEST(L2Config, GeometryErrorsNameTheKey) {
    auto node = parse_config_text("l2:\n  banks: 6\n  size: 1000KiB\n", "plat.yaml");
    try {
        L2Config::from(Params(node.find("l2"), L2Config::schema(), "gpu.l2"));
        FAIL() << "expected ConfigError";
    } catch (const ConfigError& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("plat.yaml:3"), std::string::npos) << m;
        EXPECT_NE(m.find("gpu.l2.size"), std::string::npos) << m;
    }
    // Table I: 6 MiB over 6 banks of 8 ways and 128 B lines = 1024 sets per bank.
    auto ok = parse_config_text("l2: {}", "t");
    EXPECT_EQ(L2Config::from(Params(ok.find("l2"), L2Config::schema(), "l2")).sets_per_bank(), 1024u);
}

TEST(FirstTouch, FramesInFirstTouchOrderPerApplication) {
    FirstTouchTranslator t(4096, 0);
    uint64_t p = 99;
    ASSERT_TRUE(t.translate(0, 500, p));
    EXPECT_EQ(p, 0u);
    ASSERT_TRUE(t.translate(1, 500, p));  // same vpn, other address space: new frame
    EXPECT_EQ(p, 1u);
    ASSERT_TRUE(t.translate(0, 7, p));
    EXPECT_EQ(p, 2u);
    ASSERT_TRUE(t.translate(0, 500, p));  // known page keeps its frame
    EXPECT_EQ(p, 0u);
    EXPECT_EQ(t.frames_used(), 3u);
}

TEST(FirstTouch, ExhaustedCapacityIsASimError) {
    FirstTouchTranslator t(4096, 2 * 4096);
    uint64_t p = 0;
    t.translate(0, 1, p);
    t.translate(0, 2, p);
    try {
        t.translate(0, 3, p);
        FAIL() << "expected SimError";
    } catch (const SimError& e) {
        EXPECT_NE(std::string(e.what()).find("exhausted"), std::string::npos);
    }
    EXPECT_TRUE(t.translate(0, 2, p));  // mapped pages still translate
    EXPECT_EQ(p, 1u);
}

TEST(FirstTouch, ConfiguredThroughTheTranslationSlot) {
    register_gpu_model_components();
    Simulator sim;
    auto node = parse_config_text("translation: {type: first_touch, page_size: 6KiB}", "plat.yaml");
    EXPECT_THROW(translator_slot().create(node.find("translation"), "translation", "first_touch", sim,
                                          TranslatorContext{&node, 0, {}}),
                 ConfigError);
    auto good = parse_config_text("translation: {type: first_touch, page_size: 64KiB}", "plat.yaml");
    auto tr = translator_slot().create(good.find("translation"), "translation", "first_touch", sim,
                                       TranslatorContext{&good, 0, {}});
    EXPECT_EQ(tr->page_size(), 65536u);
}

}  // namespace
}  // namespace zng::gpu::testing

namespace zng::gpu::testing {
namespace {

// A GPU built from the `gpu:` section of a shipped fragment, with one empty application.
struct FragmentGpu {
    explicit FragmentGpu(const std::string& fragment)
        : root((register_gpu_model_components(),
                load_config_file(std::string(ZNG_SOURCE_DIR) + "/configs/fragments/" + fragment))),
          gpu(sim, root.find("gpu"), translator, one_empty_app()) {}
    static std::vector<AppSpec> one_empty_app() {
        std::vector<AppSpec> apps;
        apps.push_back({"a", std::make_unique<trace::VectorTraceSource>(), {}});
        return apps;
    }
    ConfigNode root;
    Simulator sim;
    FirstTouchTranslator translator{4096, 0};
    Gpu gpu;
};

TEST(GpuFragment, LoadsAndBuildsTableOne) {
    // The shipped fragment must configure a GPU that matches Table I.
    FragmentGpu f("gpu.yaml");
    Gpu& g = f.gpu;
    EXPECT_EQ(g.num_sms(), 16u);
    EXPECT_EQ(g.l2_banks(), 6u);
    EXPECT_EQ(g.line_size(), 128u);
    EXPECT_EQ(g.l2().config().sets_per_bank(), 1024u);
    EXPECT_EQ(g.clock().frequency_hz(), 1'200'000'000u);
    EXPECT_EQ(g.sm(0).l1d().tags().sets(), 64u);
    EXPECT_EQ(g.sm(0).l1d().tags().ways(), 6u);
}

TEST(GpuFragment, LoadsAndBuildsTheA100) {
    // The A100 fragment overrides the Table I one it includes; the geometry follows from
    // its values: L2 40 MiB / 80 slices / 16 ways / 128 B = 256 sets per slice, L1D
    // 128 KiB / 8 ways / 128 B = 128 sets.
    FragmentGpu f("gpu_a100.yaml");
    Gpu& g = f.gpu;
    EXPECT_EQ(g.num_sms(), 108u);
    EXPECT_EQ(g.l2_banks(), 80u);
    EXPECT_EQ(g.l2().config().sets_per_bank(), 256u);
    EXPECT_EQ(g.clock().frequency_hz(), 1'410'000'000u);
    EXPECT_EQ(g.sm(107).l1d().tags().sets(), 128u);
    EXPECT_EQ(g.sm(107).l1d().tags().ways(), 8u);
    // Values the fragment does not set keep Table I's: the L2 line and read latency.
    EXPECT_EQ(g.line_size(), 128u);
}

}  // namespace
}  // namespace zng::gpu::testing
