// io_submit and io_wait on a whole SM: a waiting warp issues nothing until its group's
// requests have completed, and a CTA's wait does not wait for another CTA's requests.
// The service completes each request after as many nanoseconds as its storage offset.
// Under a service whose threads poll (BaM), a waiting warp reissues its io_wait every
// poll interval, each reissue one issued instruction, and sees the completion at the
// first poll after it.
#include <gtest/gtest.h>

#include <map>

#include "sim/core/timed_queue.hpp"
#include "support/gpu_harness.hpp"
#include "support/trace_helpers.hpp"

namespace zng::gpu::testing {
namespace {

struct DelayService final : StorageIoService {
    explicit DelayService(Simulator& sim, Tick poll = 0)
        : sim(sim), poll(poll), done(sim, [](std::pair<StorageIoClient*, uint64_t>& d) { d.first->io_done(d.second); }) {}
    bool can_submit(uint32_t, StorageIoClient&) override { return true; }
    void submit(const StorageIoBatch& b, StorageIoClient& c) override {
        for (uint32_t i = 0; i < b.count; ++i) done.push({&c, b.ios[i].token}, sim.now() + b.ios[i].offset * kNanosecond);
    }
    uint64_t in_flight() const override { return done.size(); }
    Tick poll_interval() const override { return poll; }
    Simulator& sim;
    Tick poll;
    TimedQueue<std::pair<StorageIoClient*, uint64_t>> done;
};

WarpRecord io_submit(uint64_t pc, uint64_t offset, uint32_t tag) {
    WarpRecord r;
    r.pc = pc;
    r.kind = RecordKind::IoSubmit;
    r.active_mask = 1;
    r.strided = true;
    r.base = offset;
    r.io_bytes = 4096;
    r.io_tag = tag;
    r.io_dest = 0x7f0000000000ull;
    return r;
}

WarpRecord io_wait(uint64_t pc, uint32_t tag) {
    WarpRecord r;
    r.pc = pc;
    r.kind = RecordKind::IoWait;
    r.active_mask = trace::kFullWarpMask;
    r.io_tag = tag;
    return r;
}

const char* kOneSm = "gpu:\n  sms: 1\n  sm: {schedulers: 1, compute_latency: 1}\n";

TEST(SmStorageIo, AWaitingWarpIssuesNothingUntilItsCtaGroupCompletes) {
    // CTA 0 reads with a 2 us request and waits; CTA 1 submits a 50 us request and
    // waits on the same tag. CTA 0's warp issues its next instruction (pc 0x30) right
    // after 2 us, long before 50 us; CTA 1's after 50 us.
    std::vector<CtaRecords> ctas{{{io_submit(0x10, 2000, 0), io_wait(0x20, 0), compute(0x30, 1)}},
                                 {{io_submit(0x10, 50000, 0), io_wait(0x20, 0), compute(0x30, 1)}}};
    GpuHarness h(kOneSm, one_app(make_trace(ctas, 1)), 100);
    DelayService svc(h.sim);
    h.gpu->sm(0).set_storage_io(&svc);
    // The first issue at pc 0x30 of each warp slot (the builder's Exit, which carries
    // trailing compute, may follow at the same pc).
    std::map<uint32_t, Cycle> first;
    h.gpu->sm(0).set_issue_observer([&](uint32_t, uint32_t slot, uint64_t pc, Cycle c) {
        if (pc == 0x30) first.emplace(slot, c);
    });
    h.run();
    ASSERT_EQ(first.size(), 2u);
    std::vector<std::pair<uint32_t, Cycle>> after_wait(first.begin(), first.end());
    const Cycle two_us = h.gpu->clock().tick_to_cycle(2 * kMicrosecond);
    const Cycle fifty_us = h.gpu->clock().tick_to_cycle(50 * kMicrosecond);
    // Submissions issue in the first cycles; each wait ends within a few cycles of its
    // own request's completion.
    EXPECT_GE(after_wait[0].second, two_us);
    EXPECT_LT(after_wait[0].second, two_us + 10);
    EXPECT_GE(after_wait[1].second, fifty_us);
    EXPECT_LT(after_wait[1].second, fifty_us + 10);
    EXPECT_EQ(h.gpu->sm(0).storage_io()->completed(), 2u);
    EXPECT_EQ(h.gpu->sm(0).storage_io()->waits_blocked(), 2u);
    // Blocked warp-slot time: 2 us + 50 us = 52 us (less the cycle or two before each
    // wait issued); nothing polls.
    const Tick blocked = h.gpu->sm(0).storage_io()->blocked_time();
    EXPECT_GT(blocked, 52 * kMicrosecond - 10 * kNanosecond);
    EXPECT_LE(blocked, 52 * kMicrosecond);
    EXPECT_EQ(h.gpu->sm(0).storage_io()->polls(), 0u);
    EXPECT_EQ(h.gpu->sm(0).storage_io()->polling_sm_time(), 0u);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

// The issues of each pc (sm 0) and the cycle of the first issue of `pc`.
struct IssueLog {
    std::map<uint64_t, uint32_t> count;
    std::map<uint64_t, Cycle> first;
    void attach(GpuHarness& h) {
        h.gpu->sm(0).set_issue_observer([this](uint32_t, uint32_t, uint64_t pc, Cycle c) {
            ++count[pc];
            first.emplace(pc, c);
        });
    }
};

TEST(SmStorageIo, APollingWarpIssuesOnePollPerIntervalUntilItSeesTheCompletion) {
    // One warp: a 2.5 us read, then io_wait, polling every 1 us. The wait issues at
    // ~0 (first poll: not done), then polls at ~1, ~2 and ~3 us; the one at ~3 us
    // (the first at or after 2.5 us) sees the completion. 4 polls, and the next
    // instruction (pc 0x30) issues one cycle after the 3 us poll.
    std::vector<CtaRecords> ctas{{{io_submit(0x10, 2500, 0), io_wait(0x20, 0), compute(0x30, 1)}}};
    GpuHarness h(kOneSm, one_app(make_trace(ctas, 1)), 100);
    DelayService svc(h.sim, 1 * kMicrosecond);
    h.gpu->sm(0).set_storage_io(&svc);
    IssueLog log;
    log.attach(h);
    h.run();
    const WarpStorageIo& io = *h.gpu->sm(0).storage_io();
    EXPECT_EQ(log.count[0x20], 4u);
    EXPECT_EQ(io.polls(), 4u);
    EXPECT_EQ(io.waits_polled(), 1u);
    EXPECT_EQ(io.waits_blocked(), 0u);
    const Cycle three_us = h.gpu->clock().tick_to_cycle(3 * kMicrosecond);
    EXPECT_GE(log.first[0x30], three_us);
    EXPECT_LE(log.first[0x30], three_us + 4);
    // Polling from ~0 to ~3 us: 3 us of one warp slot, and 3 us with a polling warp on
    // the SM (within the few cycles before the wait first issued and the edge rounding).
    EXPECT_GT(io.polling_time(), 3 * kMicrosecond - 10 * kNanosecond);
    EXPECT_LT(io.polling_time(), 3 * kMicrosecond + 10 * kNanosecond);
    EXPECT_EQ(io.polling_sm_time(), io.polling_time());
    EXPECT_EQ(io.blocked_time(), 0u);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

TEST(SmStorageIo, PollingSmTimeCountsOverlappingPollersOnce) {
    // Two CTAs on the SM poll every 1 us for 2.5 us and 5.5 us reads: they see their
    // completions at the ~3 us and ~6 us polls (4 and 7 polls). Warp-slot polling
    // time 3 + 6 = 9 us; the SM held a polling warp from ~0 to ~6 us: 6 us.
    std::vector<CtaRecords> ctas{{{io_submit(0x10, 2500, 0), io_wait(0x20, 0), compute(0x30, 1)}},
                                 {{io_submit(0x10, 5500, 0), io_wait(0x20, 0), compute(0x30, 1)}}};
    GpuHarness h(kOneSm, one_app(make_trace(ctas, 1)), 100);
    DelayService svc(h.sim, 1 * kMicrosecond);
    h.gpu->sm(0).set_storage_io(&svc);
    IssueLog log;
    log.attach(h);
    h.run();
    const WarpStorageIo& io = *h.gpu->sm(0).storage_io();
    EXPECT_EQ(io.polls(), 4u + 7u);
    EXPECT_EQ(log.count[0x20], 11u);
    EXPECT_GT(io.polling_time(), 9 * kMicrosecond - 20 * kNanosecond);
    EXPECT_LT(io.polling_time(), 9 * kMicrosecond + 20 * kNanosecond);
    EXPECT_GT(io.polling_sm_time(), 6 * kMicrosecond - 10 * kNanosecond);
    EXPECT_LT(io.polling_sm_time(), 6 * kMicrosecond + 10 * kNanosecond);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

TEST(SmStorageIo, ABlockedWaitIssuesOnceWhereAPolledOneIssuesPerInterval) {
    // The same 2.5 us read: told of the completion, the wait issues once and the warp
    // goes on right after 2.5 us, not at the 3 us poll.
    std::vector<CtaRecords> ctas{{{io_submit(0x10, 2500, 0), io_wait(0x20, 0), compute(0x30, 1)}}};
    GpuHarness h(kOneSm, one_app(make_trace(ctas, 1)), 100);
    DelayService svc(h.sim);
    h.gpu->sm(0).set_storage_io(&svc);
    IssueLog log;
    log.attach(h);
    h.run();
    EXPECT_EQ(log.count[0x20], 1u);
    const Cycle t = h.gpu->clock().tick_to_cycle(2500 * kNanosecond);
    EXPECT_GE(log.first[0x30], t);
    EXPECT_LE(log.first[0x30], t + 4);
}

}  // namespace
}  // namespace zng::gpu::testing
