// Timing and scheduling of the whole GPU on hand-made traces, against latencies worked
// out by hand from the configuration (see each test's arithmetic).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "support/gpu_harness.hpp"
#include "support/trace_helpers.hpp"

namespace zng::gpu::testing {
namespace {

struct Issue {
    uint32_t sm, slot;
    uint64_t pc;
    Cycle cycle;
};

// Records every issued instruction of every SM.
struct IssueLog {
    explicit IssueLog(Gpu& g) {
        for (uint32_t i = 0; i < g.num_sms(); ++i)
            g.sm(i).set_issue_observer([this](uint32_t sm, uint32_t slot, uint64_t pc, Cycle c) {
                issues.push_back({sm, slot, pc, c});
            });
    }
    std::vector<Issue> issues;
};

// One SM, one scheduler, a 1-line L1 (so a line is evicted by the next), known latencies:
//   L1 TLB 1 (T), L1 1 (L), crossbar latency 2 (X) with 32 B/cycle links and 8 B
//   headers, L2 read 1 (R), memory 100 (M); L2 TLB 10, walk: walk cache 1 + 4 levels x 20.
const char* kTimingGpu = R"(
gpu:
  sms: 1
  sm: {schedulers: 1, compute_latency: 1}
  l1d: {size: 128B, ways: 1, latency: 1}
  l1_tlb: {latency: 1}
  mmu: {l2_tlb_latency: 10, walk_cache_latency: 1, levels: 4, level_latency: 20}
  xbar: {width: 32, latency: 2, header_bytes: 8}
  l2: {banks: 1, size: 128KiB, ways: 8, read_latency: 1}
)";

TEST(GpuTiming, L1HitL2HitAndMemoryAccessCostTheConfiguredLatencies) {
    // One warp: load A (TLB miss, L1 miss, L2 miss), load B in the same page (TLB hit,
    // L1 miss evicting A, L2 miss), load A (L1 miss, L2 hit), load A (L1 hit), exit.
    // Each load stalls the warp, so the gap between issue cycles is the load's latency.
    std::vector<CtaRecords> ctas{{{load(0x10, 0x10000), load(0x20, 0x10080), load(0x30, 0x10000),
                                   load(0x40, 0x10000)}}};
    GpuHarness h(kTimingGpu, one_app(make_trace(ctas, 1)), 100);
    IssueLog log(*h.gpu);
    h.run();
    ASSERT_EQ(log.issues.size(), 5u);
    auto gap = [&](int i) { return log.issues[i + 1].cycle - log.issues[i].cycle; };
    // L1 hit: T + L = 2.
    EXPECT_EQ(gap(3), 2u);
    // L2 hit: T + L + request link (8 B -> 1 cycle) + X + R + response link (8 + 128 B
    // -> 5 cycles) + X = 1 + 1 + 1 + 2 + 1 + 5 + 2 = 13.
    EXPECT_EQ(gap(2), 13u);
    // Memory: the L2 hit path with M added (data forwarded as the fill arrives): 113.
    EXPECT_EQ(gap(1), 113u);
    // First access also misses the TLBs: the miss reaches the L1 at 1 + 10 + (1 + 4 x 20)
    // = 92 instead of 1 cycle after issue: 113 + 91 = 204.
    EXPECT_EQ(gap(0), 204u);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.hits"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.misses"), 3.0);
    EXPECT_EQ(h.stat("gpu.l2.bank0.hits"), 1.0);
    EXPECT_EQ(h.stat("gpu.l2.bank0.misses"), 2.0);
    EXPECT_EQ(h.stat("gpu.mmu.walks"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1_tlb.hits"), 3.0);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

TEST(GpuTiming, MshrMergesMissesToOneLine) {
    // Four warps load the same line one cycle apart: the first miss fetches, the other
    // three merge into its MSHR (the fetch takes > 100 cycles). Same at the TLB.
    CtaRecords cta(4);
    for (auto& w : cta) w.push_back(load(0x10, 0x20000));
    GpuHarness h(kTimingGpu, one_app(make_trace({cta}, 4)), 100);
    h.run();
    EXPECT_EQ(h.stat("gpu.sm0.l1d.misses"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.merges"), 3.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1_tlb.misses"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1_tlb.merges"), 3.0);
    EXPECT_EQ(h.memory->requests(MemOp::Read), 1u);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

TEST(GpuTiming, L1WithASetCountNotAPowerOfTwoIndexesLinesModuloTheSets) {
    // A 3-set direct-mapped L1 (384 B = 3 sets x 1 way x 128 B). Lines of one page are
    // consecutive physical lines, so lines k and k + 3 of a page share a set and lines
    // k and k + 1 do not, wherever the page lies. Loads: line 0, line 3 (evicts 0),
    // line 0 (miss, evicts 3), line 1 (miss, another set), line 0 (hit): 1 hit, 4
    // misses. Indexing by the low two bits instead would put lines 0 and 3 apart and
    // count 2 hits.
    std::string yaml = kTimingGpu;
    yaml.replace(yaml.find("l1d: {size: 128B"), std::string("l1d: {size: 128B").size(), "l1d: {size: 384B");
    std::vector<CtaRecords> ctas{{{load(0x10, 0x10000), load(0x20, 0x10180), load(0x30, 0x10000),
                                   load(0x40, 0x10080), load(0x50, 0x10000)}}};
    GpuHarness h(yaml, one_app(make_trace(ctas, 1)), 100);
    h.run();
    EXPECT_EQ(h.gpu->sm(0).l1d().tags().sets(), 3u);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.hits"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.misses"), 4.0);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

std::vector<uint32_t> issue_order(const char* scheduler) {
    // Two warps of 3 folded compute instructions + exit; compute latency 1 so a warp is
    // ready again the next cycle.
    std::vector<CtaRecords> ctas{{{compute(0x10, 3)}, {compute(0x10, 3)}}};
    std::string yaml = std::string("gpu:\n  sms: 1\n  sm: {schedulers: 1, compute_latency: 1}\n  scheduler: {type: ") +
                       scheduler + "}\n";
    GpuHarness h(yaml, one_app(make_trace(ctas, 2)), 10);
    IssueLog log(*h.gpu);
    h.run();
    std::vector<uint32_t> order;
    for (size_t i = 0; i < log.issues.size(); ++i) {
        EXPECT_EQ(log.issues[i].cycle, i);  // one issue per cycle, no bubble
        order.push_back(log.issues[i].slot);
    }
    return order;
}

TEST(WarpScheduling, GtoKeepsTheOldestWarpWhileItCanIssue) {
    // Greedy: warp 0 issues all 4 of its instructions, then warp 1.
    EXPECT_EQ(issue_order("gto"), (std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1, 1}));
}

TEST(WarpScheduling, LrrAlternates) {
    EXPECT_EQ(issue_order("lrr"), (std::vector<uint32_t>{0, 1, 0, 1, 0, 1, 0, 1}));
}

TEST(WarpScheduling, UnknownSchedulerIsAConfigError) {
    std::vector<CtaRecords> ctas{{{compute(0x10, 1)}}};
    try {
        GpuHarness h("gpu:\n  scheduler: {type: fifo}\n", one_app(make_trace(ctas, 1)));
        FAIL() << "expected a ConfigError";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("fifo"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("test.yaml:2"), std::string::npos) << e.what();
    }
}

TEST(Barrier, NoWarpPassesBeforeAllHaveArrived) {
    // Warp 0 computes 10 instructions before the barrier, warp 1 reaches it at once.
    std::vector<CtaRecords> ctas{{{compute(0x10, 10), barrier(0x20), compute(0x30, 1)},
                                  {barrier(0x20), compute(0x30, 1)}}};
    for (const char* s : {"gto", "lrr"}) {
        std::string yaml = std::string("gpu:\n  sms: 1\n  sm: {schedulers: 1, compute_latency: 1}\n  scheduler: "
                                       "{type: ") + s + "}\n";
        GpuHarness h(yaml, one_app(make_trace(ctas, 2)), 10);
        IssueLog log(*h.gpu);
        h.run();
        Cycle last_barrier = 0, first_after = ~Cycle{0};
        int barriers = 0;
        for (const auto& i : log.issues) {
            if (i.pc == 0x20) last_barrier = std::max(last_barrier, i.cycle), ++barriers;
            if (i.pc == 0x30) first_after = std::min(first_after, i.cycle);
        }
        EXPECT_EQ(barriers, 2) << s;
        EXPECT_GT(first_after, last_barrier) << s;
        // Warp 0's barrier is its 11th instruction: no earlier than cycle 10.
        EXPECT_GE(last_barrier, 10u) << s;
        EXPECT_NO_THROW(h.gpu->check_invariants());
    }
}

TEST(Barrier, ExitedWarpsDoNotHoldTheBarrier) {
    // Warp 0 exits at once; warp 1's barrier must release with warp 1 alone.
    std::vector<CtaRecords> ctas{{{}, {compute(0x10, 5), barrier(0x20), compute(0x30, 2)}}};
    GpuHarness h("gpu: {sms: 1}", one_app(make_trace(ctas, 2)), 10);
    h.run();
    EXPECT_TRUE(h.gpu->finished());
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

WarpRecord phase(uint64_t pc, uint64_t ps) {
    WarpRecord r;
    r.kind = RecordKind::Phase;
    r.pc = pc;
    r.duration_ps = ps;
    return r;
}

TEST(Phase, AWarpWaitsOutItsPhaseAndOthersIssueMeanwhile) {
    // Warp 0: compute, a 1 us phase, compute. Warp 1: 20 compute instructions.
    // At 1.2 GHz (the default clock) 1 us is 1200 cycles: the phase issued at cycle p
    // (edge tick floor(p x 2500 / 3)) ends 1e6 ps later, whose first edge at or after is
    // ceil((floor(p x 2500 / 3) + 1e6) x 3 / 2500) = p + 1200.
    std::vector<CtaRecords> ctas{{{compute(0x10, 1), phase(0x20, 1'000'000), compute(0x30, 1)},
                                  {compute(0x40, 20)}}};
    GpuHarness h("gpu:\n  sms: 1\n  sm: {schedulers: 1, compute_latency: 1}\n", one_app(make_trace(ctas, 2)), 10);
    IssueLog log(*h.gpu);
    h.run();
    Cycle phase_at = 0, after = 0, last_other = 0;
    for (const auto& i : log.issues) {
        if (i.pc == 0x20) phase_at = i.cycle;
        if (i.pc == 0x30 && after == 0) after = i.cycle;   // then its exit record, same pc
        if (i.pc == 0x40) last_other = std::max(last_other, i.cycle);
    }
    EXPECT_EQ(after - phase_at, 1200u) << "phase at " << phase_at << ", next at " << after;
    EXPECT_LT(last_other, after) << "the other warp's 20 instructions issue during the phase";
    EXPECT_TRUE(h.gpu->finished());
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

TEST(Phase, StorageIoOnAGpuWithoutAStoragePathIsATraceError) {
    WarpRecord submit;
    submit.kind = RecordKind::IoSubmit;
    submit.pc = 0x10;
    submit.io_bytes = 4096;
    submit.strided = true;
    submit.stride = 4096;
    std::vector<CtaRecords> ctas{{{submit}}};
    GpuHarness h("gpu: {sms: 1}", one_app(make_trace(ctas, 1)), 10);
    try {
        h.run();
        ADD_FAILURE() << "an io_submit record ran on a GPU without a storage path";
    } catch (const trace::TraceError& e) {
        EXPECT_NE(std::string(e.what()).find("io_submit record: GPU-issued storage I/O needs a platform with a "
                                             "storage path"),
                  std::string::npos)
            << e.what();
    }
}

TEST(MultiApp, SmsAreSplitEquallyAndAppsStayOnTheirOwn) {
    auto trace_with_pc = [](uint64_t pc, uint64_t* n) {
        std::vector<CtaRecords> ctas;
        for (int c = 0; c < 12; ++c) ctas.push_back({{compute(pc, 4), load(pc + 1, 0x1000 + c * 128)}});
        return make_trace(ctas, 1, n);
    };
    uint64_t n0 = 0, n1 = 0;
    std::vector<AppSpec> apps;
    apps.push_back({"betw", trace_with_pc(0x1000, &n0), {}});
    apps.push_back({"back", trace_with_pc(0x2000, &n1), {}});
    GpuHarness h("gpu: {sms: 4}", std::move(apps), 50);
    IssueLog log(*h.gpu);
    h.run();
    std::map<uint64_t, std::set<uint32_t>> sms_of;
    for (const auto& i : log.issues) sms_of[i.pc & ~0xfffull].insert(i.sm);
    EXPECT_EQ(sms_of[0x1000], (std::set<uint32_t>{0, 1}));
    EXPECT_EQ(sms_of[0x2000], (std::set<uint32_t>{2, 3}));
    EXPECT_EQ(h.stat("gpu.app.betw.instructions"), static_cast<double>(n0));
    EXPECT_EQ(h.stat("gpu.app.back.instructions"), static_cast<double>(n1));
    EXPECT_GT(h.stat("gpu.app.betw.ipc"), 0.0);
    auto res = h.gpu->results();
    ASSERT_EQ(res.size(), 2u);
    EXPECT_TRUE(res[0].finished && res[1].finished);
    // Separate address spaces: both touched virtual page 0x1000 >> 12 = 1, two frames.
    EXPECT_EQ(h.translator->frames_used(), 2u);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

TEST(MultiApp, ExplicitSmListAndTheRestSplit) {
    uint64_t n = 0;
    std::vector<CtaRecords> ctas;
    for (int c = 0; c < 6; ++c) ctas.push_back({{compute(0x1000, 2)}});
    std::vector<AppSpec> apps;
    apps.push_back({"a", make_trace(ctas, 1, &n), {3}});
    apps.push_back({"b", make_trace(ctas, 1, &n), {}});
    for (auto& c : ctas) c[0][0].pc = 0x2000;
    apps[1].trace = make_trace(ctas, 1, &n);
    GpuHarness h("gpu: {sms: 4}", std::move(apps), 10);
    IssueLog log(*h.gpu);
    h.run();
    std::set<uint32_t> a_sms, b_sms;
    for (const auto& i : log.issues) ((i.pc & 0xf000) == 0x1000 ? a_sms : b_sms).insert(i.sm);
    EXPECT_EQ(a_sms.count(3), 1u);
    EXPECT_EQ(b_sms.count(3), 0u);
    EXPECT_EQ(b_sms, (std::set<uint32_t>{0, 1, 2}));
}

TEST(MultiApp, OverlappingSmListsAreRejected) {
    std::vector<CtaRecords> ctas{{{compute(0x10, 1)}}};
    std::vector<AppSpec> apps;
    apps.push_back({"a", make_trace(ctas, 1), {0, 1}});
    apps.push_back({"b", make_trace(ctas, 1), {1}});
    EXPECT_THROW(GpuHarness("gpu: {sms: 2}", std::move(apps)), ConfigError);
}

}  // namespace
}  // namespace zng::gpu::testing
