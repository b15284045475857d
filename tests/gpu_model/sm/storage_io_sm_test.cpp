// io_submit and io_wait on a whole SM: a waiting warp issues nothing until its group's
// requests have completed, and a CTA's wait does not wait for another CTA's requests.
// The service completes each request after as many nanoseconds as its storage offset.
#include <gtest/gtest.h>

#include <map>

#include "sim/core/timed_queue.hpp"
#include "support/gpu_harness.hpp"
#include "support/trace_helpers.hpp"

namespace zng::gpu::testing {
namespace {

struct DelayService final : StorageIoService {
    explicit DelayService(Simulator& sim)
        : sim(sim), done(sim, [this](std::pair<StorageIoClient*, uint64_t>& d) { d.first->io_done(d.second); }) {}
    bool can_submit(uint32_t, StorageIoClient&) override { return true; }
    void submit(const StorageIoBatch& b, StorageIoClient& c) override {
        for (uint32_t i = 0; i < b.count; ++i) done.push({&c, b.ios[i].token}, sim.now() + b.ios[i].offset * kNanosecond);
    }
    uint64_t in_flight() const override { return done.size(); }
    Simulator& sim;
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
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

}  // namespace
}  // namespace zng::gpu::testing
