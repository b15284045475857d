// A lone L1 data cache in front of a fixed-latency memory (10 cycles of 1 ns), with a
// client that keeps refused accesses in order as an SM does.
#pragma once
#include <deque>
#include <vector>

#include "gpu_model/cache/l1_data_cache.hpp"
#include "sim/core/simulator.hpp"
#include "support/fixed_latency_backend.hpp"

namespace zng::gpu::testing {

// Keeps refused accesses in order and offers the first again when unblocked, as an SM
// does.
struct WaitingClient final : L1Client {
    void l1_complete(MemRequest* r) override {
        completed.push_back(r->paddr);
        completed_at.push_back(l1->sim().now());
    }
    void l1_unblocked() override {
        ++unblocks;
        while (!waiting.empty() && l1->access(waiting.front())) waiting.pop_front();
    }
    void offer(MemRequest* r) {
        if (!waiting.empty() || !l1->access(r)) waiting.push_back(r);
    }
    L1DataCache* l1 = nullptr;
    std::deque<MemRequest*> waiting;
    std::vector<uint64_t> completed;
    std::vector<Tick> completed_at;
    uint32_t unblocks = 0;
};

struct L1Rig {
    explicit L1Rig(L1Config cfg, uint32_t max_outstanding = 0)
        : memory(sim, clock, 1, 10, max_outstanding), l1(sim, "l1", clock, cfg, client) {
        client.l1 = &l1;
        l1.port().bind(memory.port(0));
    }
    MemRequest* load(uint64_t paddr) { return request(MemOp::Read, paddr); }
    MemRequest* request(MemOp op, uint64_t paddr, bool local = false) {
        MemRequest* r = sim.requests().get();
        r->op = op;
        r->paddr = paddr;
        r->size = 32;
        r->sector_mask = 1;
        r->local = local;
        return r;
    }
    double fails() { return sim.stats().value("l1.reservation_fails"); }

    Simulator sim;
    ClockDomain clock{"gpu", 1'000'000'000};  // 1 ns cycles
    FixedLatencyBackend memory;
    WaitingClient client;
    L1DataCache l1;
};

}  // namespace zng::gpu::testing
