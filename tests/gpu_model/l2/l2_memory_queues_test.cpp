// The L2 bank's memory side: reads and writes wait in queues of their own, so a store
// the back end refuses does not hold up a read queued after it.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "gpu_model/l2/l2_cache.hpp"
#include "gpu_model/l2/prefetch/register_prefetch.hpp"
#include "gpu_model/register.hpp"
#include "sim/core/timed_queue.hpp"
#include "sim/mem/memory_backend.hpp"
#include "support/cycle_driver.hpp"

namespace zng::gpu::testing {
namespace {

// One port; reads answered 10 cycles after arrival; writes refused until `open_at`,
// when it calls retry() and then takes them (answered 10 cycles later as well).
class WriteRefusingMemory final : public MemoryBackend {
public:
    WriteRefusingMemory(Simulator& sim, const ClockDomain& clock, Cycle open_at)
        : sim_(sim), clock_(clock), port_(*this, "memory.port0"),
          done_(sim, [this](MemRequest*& r) { --in_flight_, send_response(r); }),
          open_(sim, [this](int&) {
              open_now_ = true;
              port_.retry();
          }) {
        int dummy = 0;
        open_.push(dummy, clock.cycle_to_tick(open_at));
    }
    ResponsePort& port(uint32_t) override { return port_; }
    uint32_t num_ports() const override { return 1; }
    uint64_t in_flight() const override { return in_flight_; }
    uint64_t medium_bytes_read() const override { return 0; }
    uint64_t medium_bytes_written() const override { return 0; }
    uint64_t capacity_bytes() const override { return uint64_t{1} << 40; }
    bool recv_request(MemRequest* r, ResponsePort&) override {
        if (is_write_op(r->op) && !open_now_) {
            ++refusals;
            return false;
        }
        ++in_flight_;
        done_.push(r, clock_.edge_after(sim_.now(), 10));
        return true;
    }
    uint64_t refusals = 0;

private:
    Simulator& sim_;
    const ClockDomain& clock_;
    ResponsePort port_;
    TimedQueue<MemRequest*> done_;
    TimedQueue<int> open_;
    bool open_now_ = false;
    uint64_t in_flight_ = 0;
};

TEST(L2MemoryQueues, ARefusedStoreDoesNotDelayAReadBehindIt) {
    register_gpu_model_components();
    register_l2_prefetch_components();
    Simulator sim;
    ClockDomain clock("gpu", 1'000'000'000);
    auto node = parse_config_text(
        "l2: {banks: 1, size: 64KiB, technology: sram, policy: {type: zng, write_bypass: true}}", "t");
    L2Config cfg = L2Config::from(Params(node.find("l2"), L2Config::schema(), "l2"));
    L2Cache l2(sim, "l2", clock, cfg);
    WriteRefusingMemory memory(sim, clock, 100);
    CycleDriver d(sim, clock);
    d.port().bind(l2.bank(0).cpu_port());
    l2.bank(0).mem_port().bind(memory.port(0));
    // Cycle 0: a store, bypassed to memory and refused there. Cycle 1: a read miss of
    // another line: lookup 1 cycle, sent at 2, answered by memory at 12 and forwarded as
    // its fill arrives: 12 (behind the store in one FIFO it would wait until 100).
    // The store is taken at 100 (retry) and acknowledged at 110.
    const uint64_t store = d.at(0, MemOp::Write, 0x1000);
    const uint64_t read = d.at(1, MemOp::Read, 0x8000);
    sim.run();
    EXPECT_EQ(d.done.at(read), 12u);
    EXPECT_EQ(d.done.at(store), 110u);
    // Refused when queued (0) and once more at 2: the read accepted then ended the port's
    // wait, so the store is offered again to wait for the retry; then taken at 100.
    EXPECT_EQ(memory.refusals, 2u);
    EXPECT_TRUE(l2.idle());
    EXPECT_EQ(sim.requests().live(), 0u);
}

}  // namespace
}  // namespace zng::gpu::testing
