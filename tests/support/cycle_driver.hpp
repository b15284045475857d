// Sends requests through one port at given cycles of a clock and notes the cycle each
// is answered in: drives a lone component (an L2 bank) on a schedule written by hand.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <map>

#include "sim/core/clock_domain.hpp"
#include "sim/core/timed_queue.hpp"
#include "sim/mem/memory_backend.hpp"

namespace zng::gpu::testing {

class CycleDriver final : public MemRequester {
public:
    CycleDriver(Simulator& sim, const ClockDomain& clock)
        : sim_(sim), clock_(clock), port_(*this, "driver"), sends_(sim, [this](MemRequest*& r) {
              ASSERT_TRUE(port_.send(r));
          }) {}
    RequestPort& port() { return port_; }
    // Sends, at cycle `c`, a request for the 32 B sectors of `sector_mask` of the line at
    // `paddr`; returns its id.
    uint64_t at(Cycle c, MemOp op, uint64_t paddr, uint32_t sector_mask = 1) {
        return at(c, 0, op, paddr, sector_mask);
    }
    // The same on behalf of application `app`.
    uint64_t at(Cycle c, uint16_t app, MemOp op, uint64_t paddr, uint32_t sector_mask) {
        MemRequest* r = sim_.requests().get();
        r->app = app;
        r->op = op;
        r->paddr = paddr;
        r->sector_mask = sector_mask;
        r->size = 32 * static_cast<uint32_t>(__builtin_popcount(sector_mask));
        sends_.push(r, clock_.cycle_to_tick(c));
        return r->id;
    }
    void recv_response(MemRequest* r, RequestPort&) override {
        done[r->id] = clock_.tick_to_cycle(sim_.now());
        ++answered;
        sim_.requests().put(r);
    }
    void recv_retry(RequestPort&) override {}

    std::map<uint64_t, Cycle> done;  // request id -> cycle answered
    uint32_t answered = 0;

private:
    Simulator& sim_;
    const ClockDomain& clock_;
    RequestPort port_;
    TimedQueue<MemRequest*> sends_;
};

}  // namespace zng::gpu::testing
