// L2Cache::flush_app: the L2 keeps each line's owning application; a flush writes back
// that application's dirty lines through the banks' write-back queues, invalidates all
// of its lines, leaves other applications' lines alone, and returns without waiting.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gpu_model/l2/l2_cache.hpp"
#include "gpu_model/register.hpp"
#include "support/cycle_driver.hpp"
#include "support/fixed_latency_backend.hpp"

namespace zng::gpu::testing {
namespace {

// Sits between the bank and the memory back end and notes every write-back that the
// back end accepts.
class WritebackRecorder final : public MemResponder, public MemRequester {
public:
    struct Seen {
        uint64_t paddr;
        uint16_t app;
        bool operator==(const Seen&) const = default;
    };
    WritebackRecorder() : in_(*this, "recorder.in"), out_(*this, "recorder.out") {}
    ResponsePort& in() { return in_; }
    RequestPort& out() { return out_; }
    bool recv_request(MemRequest* r, ResponsePort&) override {
        if (!out_.send(r)) return false;
        if (r->op == MemOp::Writeback) writebacks.push_back({r->paddr, r->app});
        return true;
    }
    void recv_response(MemRequest* r, RequestPort&) override { send_response(r); }
    void recv_retry(RequestPort&) override { in_.retry(); }
    std::vector<Seen> writebacks;

private:
    ResponsePort in_;
    RequestPort out_;
};

TEST(L2Flush, WritesBackAndInvalidatesOnlyTheOwnersLines) {
    register_gpu_model_components();
    Simulator sim;
    ClockDomain clock("gpu", 1'000'000'000);
    // One bank, 64 KiB, 8 ways, 128 B lines: 64 sets, so every line below has its own set.
    auto node = parse_config_text("l2: {banks: 1, size: 64KiB, ways: 8, technology: sram}", "t");
    L2Config cfg = L2Config::from(Params(node.find("l2"), L2Config::schema(), "l2"));
    L2Cache l2(sim, "l2", clock, cfg);
    // Memory answers after 10 cycles and holds one request at a time: a flush's
    // write-backs beyond the first wait in the bank's queue.
    FixedLatencyBackend memory(sim, clock, 1, 10, 1);
    WritebackRecorder rec;
    CycleDriver d(sim, clock);
    d.port().bind(l2.bank(0).cpu_port());
    l2.bank(0).mem_port().bind(rec.in());
    rec.out().bind(memory.port(0));

    // App 0: two whole-line stores (dirty, no fetch), one read miss (clean).
    d.at(0, 0, MemOp::Write, 0x0000, 0xf);
    d.at(0, 0, MemOp::Write, 0x0080, 0xf);
    d.at(0, 0, MemOp::Read, 0x0100, 0x1);
    // App 1: two whole-line stores (dirty), one read miss (clean).
    d.at(0, 1, MemOp::Write, 0x1000, 0xf);
    d.at(0, 1, MemOp::Write, 0x1080, 0xf);
    d.at(0, 1, MemOp::Read, 0x1100, 0x1);
    // A line app 0 fetched and app 1 then stored to belongs to app 1, and the reverse.
    d.at(0, 0, MemOp::Read, 0x0200, 0x1);
    d.at(0, 1, MemOp::Read, 0x0300, 0x1);
    d.at(200, 1, MemOp::Write, 0x0200, 0x1);
    d.at(200, 0, MemOp::Write, 0x0300, 0xf);
    sim.run();
    ASSERT_EQ(d.answered, 10u);
    // Memory so far: the 4 read misses, no write-back (nothing was evicted).
    EXPECT_EQ(memory.requests(MemOp::Read), 4u);
    EXPECT_EQ(memory.requests(MemOp::Writeback), 0u);
    EXPECT_EQ(l2.bank(0).tags().valid_lines(), 8u);

    // App 0 owns 0x0000, 0x0080 (dirty), 0x0100 (clean) and 0x0300 (dirty): 4 lines
    // invalidated, 3 written back. The call returns with the back end holding the
    // first write-back and the other 2 queued in the bank.
    const Tick t0 = sim.now();
    l2.flush_app(0);
    EXPECT_EQ(sim.now(), t0);
    EXPECT_EQ(memory.requests(MemOp::Writeback), 1u);
    EXPECT_FALSE(l2.idle());
    EXPECT_EQ(l2.bank(0).tags().valid_lines(), 4u);
    sim.run();

    EXPECT_EQ(memory.requests(MemOp::Writeback), 3u);
    EXPECT_EQ(memory.requests(MemOp::Read), 4u);
    EXPECT_EQ(rec.writebacks, (std::vector<WritebackRecorder::Seen>{{0x0000, 0}, {0x0080, 0}, {0x0300, 0}}));
    const TagArray& tags = l2.bank(0).tags();
    auto resident = [&](uint64_t paddr) {
        const uint64_t line = paddr >> 7;
        return tags.find(static_cast<uint32_t>(line % tags.sets()), line) != TagArray::kMiss;
    };
    for (uint64_t a : {0x0000, 0x0080, 0x0100, 0x0300}) EXPECT_FALSE(resident(a)) << std::hex << a;
    for (uint64_t a : {0x1000, 0x1080, 0x1100, 0x0200}) EXPECT_TRUE(resident(a)) << std::hex << a;
    EXPECT_EQ(tags.valid_lines(), 4u);
    EXPECT_EQ(sim.stats().value("l2.flushes"), 1.0);
    EXPECT_EQ(sim.stats().value("l2.flushed_lines"), 3.0);
    EXPECT_EQ(sim.stats().value("l2.flush_invalidations"), 4.0);
    EXPECT_EQ(sim.stats().value("l2.writebacks"), 3.0);

    // Nothing of app 0 is left: a second flush writes nothing back.
    l2.flush_app(0);
    sim.run();
    EXPECT_EQ(memory.requests(MemOp::Writeback), 3u);
    EXPECT_EQ(sim.stats().value("l2.flushes"), 2.0);
    EXPECT_EQ(sim.stats().value("l2.flushed_lines"), 3.0);
    EXPECT_TRUE(l2.idle());
    EXPECT_EQ(sim.requests().live(), 0u);
}

// Lines a flush invalidates leave the L2 as evicted lines do: the policy hears of each
// (its prefetch and pin tracking would otherwise keep lines that are gone).
TEST(L2Flush, PolicySeesEveryFlushedLineAsEvicted) {
    register_gpu_model_components();
    Simulator sim;
    ClockDomain clock("gpu", 1'000'000'000);
    auto node = parse_config_text(
        "l2: {banks: 1, size: 64KiB, ways: 8, technology: sram, policy: {type: zng, prefetch: fixed-1KB}}", "t");
    L2Config cfg = L2Config::from(Params(node.find("l2"), L2Config::schema(), "l2"));
    L2Cache l2(sim, "l2", clock, cfg);
    FixedLatencyBackend memory(sim, clock, 1, 10, 4);
    CycleDriver d(sim, clock);
    d.port().bind(l2.bank(0).cpu_port());
    l2.bank(0).mem_port().bind(memory.port(0));
    // One read miss: the demand line and the 7 other lines of its 1 KiB window.
    d.at(0, 0, MemOp::Read, 0x0000, 0x1);
    sim.run();
    ASSERT_EQ(d.answered, 1u);
    ASSERT_EQ(sim.stats().value("l2.policy.prefetch_fills"), 7.0);
    ASSERT_EQ(l2.bank(0).tags().valid_lines(), 8u);
    EXPECT_EQ(sim.stats().value("l2.policy.waste_ratio"), 0.0);  // nothing evicted yet

    // By hand: 8 lines leave, 7 of them prefetched and never used -> waste 7 / 8.
    l2.flush_app(0);
    sim.run();
    EXPECT_EQ(l2.bank(0).tags().valid_lines(), 0u);
    EXPECT_DOUBLE_EQ(sim.stats().value("l2.policy.waste_ratio"), 7.0 / 8.0);
    // A prefetched line read again after the flush is a new miss, not a use of the prefetch.
    d.at(1000, 0, MemOp::Read, 0x0080, 0x1);
    sim.run();
    EXPECT_EQ(sim.stats().value("l2.policy.prefetch_used"), 0.0);
    EXPECT_EQ(sim.requests().live(), 0u);
}

}  // namespace
}  // namespace zng::gpu::testing
