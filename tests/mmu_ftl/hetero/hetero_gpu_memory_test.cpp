// The hetero_gpu_memory back end: GDDR5 behind the L2 with every access reported to the
// hetero_host translator, so that pages written through it are written back to the host
// SSD when evicted, while requests, responses and back-pressure pass through unchanged.
#include <gtest/gtest.h>

#include <memory>

#include "memory/register_memory.hpp"
#include "mmu_ftl/hetero/hetero_gpu_memory.hpp"
#include "mmu_ftl/register.hpp"
#include "sim/config/config_node.hpp"
#include "support/port_requester.hpp"
#include "storage/hetero/hetero_host_translator.hpp"
#include "storage/register.hpp"
#include "tests/mmu_ftl/test_flash.hpp"

namespace zng::ftl::test {
namespace {

using zng::test::PortRequester;

// A GPU memory of 4 frames of 4 KiB (16 KiB of single-channel GDDR5); faults are handled
// one by one. `dram_extra` adds keys to the GDDR5 section.
std::string tiny_hetero(const std::string& dram_extra = "") {
    return "translation: {type: hetero_host, gpu_memory: 16KiB, fault_batch_size: 1, fault_batch_window: 0ns}\n"
           "memory:\n  type: hetero_gpu_memory\n  dram: {type: gddr5, channels: 1, capacity: 16KiB" +
           dram_extra + "}\n";
}

struct WrappedRig {
    explicit WrappedRig(const std::string& yaml, bool hetero_translator = true)
        : root(parse_config_text(yaml, "hetero.yaml")),
          ssd_flash(sim, small_ssd_geometry(), 3 * kMicrosecond, 100 * kMicrosecond, kMillisecond) {
        register_mmu_ftl_components();
        storage::register_storage_components();
        memory::register_gpu_memory_components();
        if (hetero_translator) {
            Params p(root.find("translation"), storage::HeteroHostTranslator::schema(), "translation");
            TranslatorContext tctx{&root, 0, {}};
            host = std::make_unique<storage::HeteroHostTranslator>(sim, p, tctx, &ssd_flash);
        }
        BackendContext ctx;
        ctx.root = &root;
        ctx.translator = host.get();
        memory = memory_backend_slot().create(root.find("memory"), "memory", "gddr5", sim, ctx);
    }
    uint64_t fault(uint64_t vpn) {
        uint64_t frame = UINT64_MAX;
        host->resolve_fault(0, vpn, [&](uint64_t p) { frame = p; });
        sim.run();
        EXPECT_NE(frame, UINT64_MAX);
        return frame;
    }

    Simulator sim;
    ConfigNode root;
    TestFlash ssd_flash;
    std::unique_ptr<storage::HeteroHostTranslator> host;
    std::unique_ptr<MemoryBackend> memory;
};

TEST(HeteroGpuMemory, PagesWrittenThroughItAreWrittenBackOnEviction) {
    WrappedRig rig(tiny_hetero());
    PortRequester l2(rig.sim, rig.memory->port(0));
    uint64_t frame[4];
    for (uint64_t vpn = 0; vpn < 4; ++vpn) frame[vpn] = rig.fault(vpn);  // fills the 4 frames
    // Through the wrapper: write pages 1 and 3, read pages 0 and 2 (a line each). LRU
    // order, oldest first, becomes 1, 0, 3, 2.
    l2.issue(0, frame[1] * 4096 + 128, 128, MemOp::Writeback);
    l2.issue(0, frame[0] * 4096, 128, MemOp::Read);
    l2.issue(0, frame[3] * 4096 + 256, 128, MemOp::Writeback);
    l2.issue(0, frame[2] * 4096, 128, MemOp::Read);
    rig.sim.run();
    ASSERT_EQ(l2.completed, 4u);
    EXPECT_EQ(rig.memory->in_flight(), 0u);
    auto* w = dynamic_cast<HeteroGpuMemory*>(rig.memory.get());
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->reported_reads(), 2u);
    EXPECT_EQ(w->reported_writes(), 2u);
    // The inner GDDR5 served them: 2 reads and 2 writes of 128 B in its own stats.
    EXPECT_EQ(rig.sim.stats().value("memory.dram.reads"), 2.0);
    EXPECT_EQ(rig.sim.stats().value("memory.dram.writes"), 2.0);
    EXPECT_EQ(rig.memory->medium_bytes_read(), w->inner().medium_bytes_read());
    EXPECT_EQ(rig.memory->capacity_bytes(), 16384u);
    // Four new pages evict all four, in LRU order: 1 (dirty), 0, 3 (dirty), 2. By hand:
    // 4 evictions, 2 write-backs. The SSD's controller served one 4 KiB flash-page request
    // per fault (8) and per write-back (2).
    for (uint64_t vpn = 4; vpn < 8; ++vpn) rig.fault(vpn);
    EXPECT_EQ(rig.host->evictions(), 4u);
    EXPECT_EQ(rig.host->writebacks(), 2u);
    EXPECT_EQ(rig.sim.stats().value("translation.ssd.requests"), 10.0);
    // Page 1 left first: its frame went to page 4.
    uint64_t ppn = 0;
    ASSERT_TRUE(rig.host->translate(0, 4, ppn));
    EXPECT_EQ(ppn, frame[1]);
}

TEST(HeteroGpuMemory, InnerBackPressureIsPassedThrough) {
    // A read queue of one entry: of three reads sent at once, the GDDR5 refuses some;
    // the wrapper refuses them too and passes the retry on, so all three complete.
    WrappedRig rig(tiny_hetero(", read_queue: 1"));
    PortRequester l2(rig.sim, rig.memory->port(0));
    const uint64_t f = rig.fault(0);
    for (uint32_t i = 0; i < 3; ++i) l2.issue(0, f * 4096 + i * 1024, 128, MemOp::Read);
    rig.sim.run();
    EXPECT_EQ(l2.completed, 3u);
    EXPECT_GE(rig.sim.stats().value("memory.dram.refusals"), 1.0);
    // Only accepted requests are reported: one report per request, not per attempt.
    EXPECT_EQ(dynamic_cast<HeteroGpuMemory&>(*rig.memory).reported_reads(), 3u);
    EXPECT_EQ(rig.memory->in_flight(), 0u);
}

TEST(HeteroGpuMemory, NeedsTheHeteroHostTranslator) {
    try {
        WrappedRig rig(tiny_hetero(), false);
        FAIL() << "built without a hetero_host translator";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("hetero.yaml:3"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("translation.type: hetero_host"), std::string::npos) << e.what();
    }
}

TEST(HeteroGpuMemory, GpuMemoryLargerThanTheDramIsAConfigError) {
    try {
        WrappedRig rig("translation: {type: hetero_host, gpu_memory: 32KiB}\n"
                       "memory: {type: hetero_gpu_memory, dram: {type: gddr5, channels: 1, capacity: 16KiB}}\n");
        FAIL() << "a 16 KiB DRAM accepted 32 KiB of frames";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("memory.dram"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("32768"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace zng::ftl::test
