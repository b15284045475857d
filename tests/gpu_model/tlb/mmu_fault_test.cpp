// The MMU's fault path: a walk that faults frees its walker thread once the fault is
// handed to the translator, so more faults are in flight than there are walkers, and
// the L1 TLB misses wait on the fault (merged into its walk record), not on a walker.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "gpu_model/tlb/mmu.hpp"
#include "sim/core/clock_domain.hpp"
#include "sim/core/simulator.hpp"
#include "sim/core/timed_queue.hpp"

namespace zng::gpu {
namespace {

// Every page faults on its first translation; the fault is served `delay` later (ppn = vpn).
class SlowFaultTranslator final : public AddressTranslator {
public:
    SlowFaultTranslator(Simulator& sim, Tick delay)
        : sim_(sim), delay_(delay), served_(sim, [this](Pending& p) { serve(p); }, "slow-fault") {}
    uint64_t page_size() const override { return 4096; }
    bool translate(uint16_t, uint64_t vpn, uint64_t& ppn) override {
        if (!mapped_.count(vpn)) return false;
        ppn = vpn;
        return true;
    }
    void resolve_fault(uint16_t, uint64_t vpn, FaultDone done) override {
        max_in_flight = std::max(max_in_flight, ++in_flight);
        served_.push(Pending{vpn, std::move(done)}, sim_.now() + delay_);
    }
    uint32_t in_flight = 0, max_in_flight = 0;

private:
    struct Pending {
        uint64_t vpn;
        FaultDone done;
    };
    void serve(Pending& p) {
        --in_flight;
        mapped_.insert(p.vpn);
        p.done(p.vpn);
    }
    Simulator& sim_;
    Tick delay_;
    TimedQueue<Pending> served_;
    std::set<uint64_t> mapped_;
};

// An L1 TLB that records when each of its misses was answered.
struct AnswerLog final : TranslationClient {
    explicit AnswerLog(Simulator& s) : sim(s) {}
    void translation_done(uint16_t, uint64_t vpn, uint64_t) override { answered[vpn] = sim.now(); }
    void invalidate(uint16_t, uint64_t) override {}
    Simulator& sim;
    std::map<uint64_t, Tick> answered;
};

TEST(MmuFaults, AFaultFreesItsWalkerSoMoreFaultsAreInFlightThanWalkers) {
    Simulator sim;
    ClockDomain clock("gpu", 1'000'000'000);  // 1 cycle = 1 ns
    const Tick cycle = kNanosecond;
    MmuConfig cfg;
    cfg.walkers = 2;
    cfg.l2_tlb_latency = 10;
    cfg.walk_cache_latency = 1;
    cfg.levels = 4;
    cfg.level_latency = 20;
    SlowFaultTranslator translator(sim, 1000 * cycle);
    Mmu mmu(sim, "mmu", clock, cfg, translator, 2);
    AnswerLog sm0(sim), sm1(sim);
    mmu.attach(0, sm0);
    mmu.attach(1, sm1);
    // SM 0 misses on four pages at cycle 0; SM 1 misses on page 0 at cycle 200, while
    // page 0's fault is being served.
    for (uint64_t vpn = 0; vpn < 4; ++vpn) mmu.request(0, 0, vpn, 0);
    mmu.request(1, 0, 0, 200);  // reaches the L2 TLB at 210 (after the 10-cycle lookup)
    sim.run();
    // Pages 0 and 1 take the two walkers at cycle 10 (L2 TLB lookup) and read all 4
    // levels (empty walk cache): 10 + 1 + 4 x 20 = 91, then fault. Their walkers are
    // free at once, so pages 2 and 3 start at 91 and find the upper levels in the walk
    // cache (installed by the walks that just ended): 91 + 1 + 20 = 112, then fault.
    // Each fault takes 1000 cycles: pages 0, 1 answered at 1091, pages 2, 3 at 1112.
    // (Were the walkers held through the faults, pages 2 and 3 would start at 1091 and
    // be answered at 1091 + 21 + 1000 = 2112, with at most 2 faults in flight.)
    EXPECT_EQ(sm0.answered.at(0), 1091 * cycle);
    EXPECT_EQ(sm0.answered.at(1), 1091 * cycle);
    EXPECT_EQ(sm0.answered.at(2), 1112 * cycle);
    EXPECT_EQ(sm0.answered.at(3), 1112 * cycle);
    EXPECT_EQ(translator.max_in_flight, 4u);
    // SM 1's miss on the faulting page 0 merged into its walk and waited on the fault.
    EXPECT_EQ(sm1.answered.at(0), 1091 * cycle);
    EXPECT_EQ(sim.stats().value("mmu.walks"), 4.0);
    EXPECT_EQ(sim.stats().value("mmu.faults"), 4.0);
    EXPECT_EQ(sim.stats().value("mmu.walk_merges"), 1.0);
}

}  // namespace
}  // namespace zng::gpu
