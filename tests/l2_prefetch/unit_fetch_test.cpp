// Unit-granular fills: a demand read miss and the prefetch of its window are one memory
// transaction, whose lines are written by their owner banks.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../gpu_model/support/fixed_latency_backend.hpp"
#include "gpu_model/l2/l2_cache.hpp"
#include "gpu_model/l2/prefetch/register_prefetch.hpp"
#include "gpu_model/register.hpp"
#include "sim/config/config_node.hpp"

namespace zng::gpu::testing {
namespace {

// Four STT-MRAM banks (read 1, write 5 cycles), 128 B lines interleaved line by line
// (line n -> bank n % 4), zng policy with fixed 4 KB prefetch, memory 100 cycles.
struct UnitRig final : MemRequester {
    Simulator sim;
    ClockDomain clock{"gpu", 1'000'000'000};
    ConfigNode node;
    std::unique_ptr<L2Cache> l2;
    std::unique_ptr<FixedLatencyBackend> memory;
    std::vector<std::unique_ptr<RequestPort>> ports;
    std::vector<std::unique_ptr<TimedQueue<MemRequest*>>> sends;
    std::map<uint64_t, Cycle> done;  // request id -> cycle answered

    explicit UnitRig(uint64_t max_read_bytes, const std::string& prefetch = "fixed-4KB")
        : node(parse_config_text("l2: {banks: 4, size: 64KiB, ways: 8, technology: stt_mram, interleave: 128B, "
                                 "policy: {type: zng, prefetch: " +
                                     prefetch + "}}",
                                 "t")) {
        register_gpu_model_components();
        register_l2_prefetch_components();
        L2Config cfg = L2Config::from(Params(node.find("l2"), L2Config::schema(), "l2"));
        l2 = std::make_unique<L2Cache>(sim, "gpu.l2", clock, cfg);
        l2->set_max_read_bytes(max_read_bytes);
        memory = std::make_unique<FixedLatencyBackend>(sim, clock, 4, 100);
        for (uint32_t b = 0; b < 4; ++b) {
            l2->bank(b).mem_port().bind(memory->port(b));
            ports.push_back(std::make_unique<RequestPort>(*this, "test" + std::to_string(b)));
            ports.back()->bind(l2->bank(b).cpu_port());
            RequestPort* p = ports.back().get();
            sends.push_back(std::make_unique<TimedQueue<MemRequest*>>(
                sim, [p](MemRequest*& r) { ASSERT_TRUE(p->send(r)); }));
        }
    }
    // A read of `paddr` sent to its bank at cycle `c`; returns its id.
    uint64_t read_at(Cycle c, uint64_t paddr) { return access_at(c, paddr, MemOp::Read); }
    uint64_t access_at(Cycle c, uint64_t paddr, MemOp op) {
        MemRequest* r = sim.requests().get();
        r->op = op;
        r->paddr = paddr;
        r->size = 128;
        r->sector_mask = op == MemOp::Read ? 1u : 0xfu;
        r->pc = 0x100;
        sends[l2->map().bank(paddr)]->push(r, clock.cycle_to_tick(c));
        return r->id;
    }
    const TagLine* line(uint64_t line_no) const {
        L2Bank& b = l2->bank(static_cast<uint32_t>(line_no % 4));
        const TagArray& t = b.tags();
        const uint32_t set = static_cast<uint32_t>((line_no / 4) % t.sets());
        const int w = t.find(set, line_no);
        return w == TagArray::kMiss ? nullptr : &t.at(set, static_cast<uint32_t>(w));
    }
    double stat(const std::string& n) { return sim.stats().value(n); }
    void recv_response(MemRequest* r, RequestPort&) override {
        done[r->id] = clock.tick_to_cycle(sim.now());
        sim.requests().put(r);
    }
    void recv_retry(RequestPort&) override {}
};

TEST(UnitFetch, OnePageIsOneMemoryRequestAndItsLinesFillTheirOwnBanks) {
    UnitRig rig(4096);
    // Demand miss of line 0 (bank 0) at cycle 0: lookup 1 cycle, so the unit leaves at
    // 1 and returns at 1 + 100 = 101. A miss of line 5 (bank 1) at 10 finds the unit in
    // flight and waits on it: no memory request of its own.
    const uint64_t a = rig.read_at(0, 0);
    const uint64_t b = rig.read_at(10, 5 * 128);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.memory->requests(MemOp::Prefetch), 0u);
    EXPECT_EQ(rig.memory->medium_bytes_read(), 4096u);  // the whole 4 KB window, once
    // Bank 0 writes line 0 first at 101 and answers it at once. Bank 1 writes its lines
    // in line order 1, 5, ...: line 1 holds it 101..106, line 5 is written at 106.
    EXPECT_EQ(rig.done.at(a), 101u);
    EXPECT_EQ(rig.done.at(b), 106u);
    // 32 lines valid, the 31 other than the demand line marked prefetched.
    uint32_t valid = 0, prefetched = 0;
    for (uint64_t l = 0; l < 32; ++l)
        if (const TagLine* t = rig.line(l)) {
            ++valid;
            prefetched += t->prefetched;
        }
    EXPECT_EQ(valid, 32u);
    EXPECT_EQ(prefetched, 31u);
    EXPECT_FALSE(rig.line(0)->prefetched);
    // Each bank owns 8 lines: 8 array writes x 5 cycles = 40 busy cycles, plus 1 for the
    // lookup of the demand miss (banks 0 and 1).
    EXPECT_EQ(rig.stat("gpu.l2.bank0.busy_cycles"), 41);
    EXPECT_EQ(rig.stat("gpu.l2.bank1.busy_cycles"), 41);
    EXPECT_EQ(rig.stat("gpu.l2.bank2.busy_cycles"), 40);
    EXPECT_EQ(rig.stat("gpu.l2.bank3.busy_cycles"), 40);
    EXPECT_EQ(rig.stat("gpu.l2.policy.unit_fetches"), 1);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 31);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_fills"), 31);
    EXPECT_EQ(rig.stat("gpu.l2.unit_merges"), 1);
    EXPECT_TRUE(rig.l2->idle());
    EXPECT_EQ(rig.sim.requests().live(), 0u);
}

TEST(UnitFetch, LinesAlreadyPresentAreNeitherFetchedAgainNorOverwritten) {
    UnitRig rig(4096);
    // A whole-line store allocates line 7 (bank 3) dirty without a fetch.
    rig.access_at(0, 7 * 128, MemOp::Write);
    rig.sim.run();
    // The miss of line 0 fetches the window 0..31 as one transaction, but prefetches
    // only the 30 lines other than 0 and 7: line 7 keeps the store's data.
    rig.read_at(20, 0);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_issued"), 30);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_fills"), 30);
    ASSERT_NE(rig.line(7), nullptr);
    EXPECT_TRUE(rig.line(7)->dirty);
    EXPECT_FALSE(rig.line(7)->prefetched);
    // A second miss to the same page finds every line present: no request at all.
    rig.read_at(400, 9 * 128);
    rig.sim.run();
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.unit_fetches"), 1);
}

TEST(UnitFetch, BackEndWithoutMultiLineReadsGetsLineFetches) {
    UnitRig rig(0);  // the back end serves one line per request
    rig.read_at(0, 0);
    rig.sim.run();
    // The demand line as a Read, the 31 others as line prefetches.
    EXPECT_EQ(rig.memory->requests(MemOp::Read), 1u);
    EXPECT_EQ(rig.memory->requests(MemOp::Prefetch), 31u);
    EXPECT_EQ(rig.memory->medium_bytes_read(), 32u * 128u);
    EXPECT_EQ(rig.stat("gpu.l2.policy.unit_fetches"), 0);
    EXPECT_EQ(rig.stat("gpu.l2.policy.prefetch_fills"), 31);
}

}  // namespace
}  // namespace zng::gpu::testing
