// Whole-GPU runs on a fixed-latency back end: every request completes, instruction
// counts equal the trace's (counted by the trace builder, independently of the GPU),
// bytes requested equal bytes delivered, and two runs give identical stats.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>

#include "support/gpu_harness.hpp"
#include "support/trace_helpers.hpp"

namespace zng::gpu::testing {
namespace {

// A mixed workload: streaming loads, scattered loads, stores, atomics, shared memory,
// barriers and folded compute, over several kernels and more CTAs than fit at once.
std::unique_ptr<trace::VectorTraceSource> mixed_trace(uint64_t seed, uint64_t* instructions) {
    std::mt19937_64 rng(seed);
    std::vector<CtaRecords> ctas;
    for (int c = 0; c < 48; ++c) {
        CtaRecords cta(4);
        for (int w = 0; w < 4; ++w) {
            auto& recs = cta[w];
            uint64_t base = 0x10000000ull + (uint64_t(c) * 4 + w) * 4096;
            for (int i = 0; i < 12; ++i) {
                recs.push_back(compute(0x100 + i, 1 + static_cast<uint32_t>(rng() % 6)));
                recs.push_back(load(0x200 + i, base + i * 128));
                if (i % 3 == 0) {
                    WarpRecord s = mem(RecordKind::Load, 0x300 + i, 0, 0, 4);
                    s.strided = false;
                    for (int l = 0; l < 32; ++l) s.addr[l] = 0x20000000ull + (rng() % (1 << 22)) * 4;
                    recs.push_back(s);
                }
                if (i % 4 == 1) recs.push_back(store(0x400 + i, base + 0x800000 + i * 128));
                if (i % 5 == 2) recs.push_back(mem(RecordKind::Atomic, 0x500 + i, 0x30000000ull + (rng() % 64) * 4, 0));
                if (i % 6 == 3) recs.push_back(mem(RecordKind::Load, 0x600 + i, 0, 4, 4, trace::kFullWarpMask,
                                                   trace::MemSpace::Shared));
                if (i == 6) recs.push_back(barrier(0x700));
            }
        }
        ctas.push_back(std::move(cta));
    }
    return make_trace(ctas, 4, instructions, 2);
}

const char* kSmallGpu = R"(
gpu:
  sms: 4
  l2: {size: 96KiB, banks: 3}
)";

TEST(EndToEnd, EveryRequestCompletesAndCountsMatchTheTrace) {
    uint64_t expected = 0;
    GpuHarness h(kSmallGpu, one_app(mixed_trace(7, &expected)), 80);
    auto res = h.run();
    ASSERT_TRUE(h.gpu->finished());
    EXPECT_FALSE(res.drained);  // stopped by the GPU, not by running dry
    EXPECT_NO_THROW(h.gpu->check_invariants());
    EXPECT_EQ(h.gpu->instructions(), expected);
    EXPECT_EQ(h.stat("gpu.app.app.instructions"), static_cast<double>(expected));
    EXPECT_EQ(h.sim.requests().live(), 0u);  // every request returned to the pool
    EXPECT_EQ(h.memory->in_flight(), 0u);
    uint64_t requested = 0, delivered = 0;
    for (uint32_t i = 0; i < h.gpu->num_sms(); ++i) {
        requested += h.gpu->sm(i).bytes_requested();
        delivered += h.gpu->sm(i).bytes_delivered();
    }
    EXPECT_GT(requested, 0u);
    EXPECT_EQ(requested, delivered);
    // 2 kernels x 48 CTAs.
    EXPECT_EQ(h.stat("gpu.app.app.ctas"), 96.0);
    EXPECT_EQ(h.stat("gpu.app.app.kernels"), 2.0);
    // Memory saw line fills only, each one line.
    EXPECT_EQ(h.memory->medium_bytes_read(), h.memory->requests(MemOp::Read) * 128);
}

TEST(EndToEnd, BackPressureFromMemoryStillCompletesEverything) {
    uint64_t expected = 0;
    GpuHarness h(kSmallGpu, one_app(mixed_trace(11, &expected)), 300, /*max_outstanding=*/2);
    h.run();
    EXPECT_NO_THROW(h.gpu->check_invariants());
    EXPECT_EQ(h.gpu->instructions(), expected);
    EXPECT_GT(h.memory->refusals(), 0u);  // the limit was actually hit
    EXPECT_EQ(h.sim.requests().live(), 0u);
}

TEST(EndToEnd, TheRunEndsWhenTheBackEndHasFinishedWorkItAlreadyAnswered) {
    // The back end goes on 5000 cycles after each answer (as a flash back end runs a
    // merge a write requested): the GPU side is idle soon after the last answer, but the run
    // ends only at the first drain check (every 64 GPU cycles) after that work is done.
    // The applications' cycles, hence IPC, do not depend on it.
    struct End {
        Tick at = 0, background_end = 0, latest_check = 0;
        uint64_t left = 0;
        double cycles = 0;
    };
    auto run = [](bool wait_for_backend) {
        GpuHarness h(kSmallGpu, one_app(mixed_trace(5, nullptr)), 100);
        h.memory->set_background_cycles(5000);
        if (wait_for_backend) h.gpu->set_backend_drained([m = h.memory.get()] { return m->in_flight() == 0; });
        h.run();
        EXPECT_TRUE(h.gpu->finished());
        EXPECT_EQ(h.memory->background_end(), h.gpu->clock().edge_after(h.memory->last_answer(), 5000));
        return End{h.sim.now(), h.memory->background_end(), h.gpu->clock().edge_after(h.memory->background_end(), 64),
                   h.memory->in_flight(), h.stat("gpu.app.app.cycles")};
    };
    const End waited = run(true);
    EXPECT_EQ(waited.left, 0u);
    EXPECT_GE(waited.at, waited.background_end);
    EXPECT_LE(waited.at, waited.latest_check);
    // Without the back end's say, the GPU would stop while that work is still going on.
    const End early = run(false);
    EXPECT_GT(early.left, 0u);
    EXPECT_LT(early.at, early.background_end);
    EXPECT_GT(waited.cycles, 0.0);
    EXPECT_EQ(waited.cycles, early.cycles);
}

TEST(EndToEnd, TwoRunsGiveIdenticalStats) {
    auto run_once = [] {
        GpuHarness h(kSmallGpu, one_app(mixed_trace(3, nullptr)), 120);
        h.run();
        return h.sim.stats().to_json().dump();
    };
    std::string a = run_once();
    std::string b = run_once();
    EXPECT_EQ(a, b);
    EXPECT_NE(a.find("\"ipc\""), std::string::npos);
}

}  // namespace
}  // namespace zng::gpu::testing
