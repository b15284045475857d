// A lone L2 (no SMs, no crossbar) with the zng policy in front of a fixed-latency
// memory: requests are sent straight to the bank that owns their address, so tests can
// follow every line through fill, access and eviction.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "support/fixed_latency_backend.hpp"
#include "gpu_model/l2/l2_cache.hpp"
#include "gpu_model/l2/prefetch/register_prefetch.hpp"
#include "gpu_model/l2/prefetch/zng_l2_policy.hpp"
#include "sim/config/config_node.hpp"

namespace zng::gpu::testing {

struct L2Rig final : MemRequester {
    Simulator sim;
    ClockDomain clock{"gpu", 1'000'000'000};
    ConfigNode policy_node;
    std::unique_ptr<L2Cache> l2;
    std::unique_ptr<FixedLatencyBackend> memory;
    std::vector<std::unique_ptr<RequestPort>> ports;
    uint64_t completed = 0;

    // One bank of `sets` x `ways` 128 B lines; `policy` is the YAML of the policy section.
    L2Rig(uint32_t sets, uint32_t ways, const std::string& policy)
        : policy_node(parse_config_text(policy, "policy.yaml")) {
        register_l2_policies();
        register_l2_prefetch_components();
        L2Config cfg;
        cfg.banks = 1;
        cfg.ways = ways;
        cfg.line = 128;
        cfg.size = uint64_t{sets} * ways * cfg.line;
        cfg.memory_queue = 64;  // room for a whole page of prefetches: none is dropped
        cfg.policy = &policy_node;
        cfg.path = "gpu.l2";
        l2 = std::make_unique<L2Cache>(sim, "gpu.l2", clock, cfg);
        memory = std::make_unique<FixedLatencyBackend>(sim, clock, 1, 100);
        l2->bank(0).mem_port().bind(memory->port(0));
        ports.push_back(std::make_unique<RequestPort>(*this, "test.l2"));
        ports.back()->bind(l2->bank(0).cpu_port());
    }
    ZngL2Policy& policy() { return dynamic_cast<ZngL2Policy&>(l2->policy()); }

    // Sends one request and runs to quiescence.
    void access(uint64_t paddr, MemOp op, uint64_t pc = 0x100, uint32_t warp = 0) {
        MemRequest* r = sim.requests().get();
        r->paddr = paddr;
        r->size = 128;
        r->sector_mask = op == MemOp::Read ? 1u : 0xfu;
        r->op = op;
        r->pc = pc;
        r->warp = warp;
        if (!ports[0]->send(r)) throw SimError("the L2 refused a test request");
        sim.run();
    }
    const TagLine* line(uint64_t paddr) const {
        const TagArray& t = l2->bank(0).tags();
        const uint64_t ln = paddr / 128;
        const int w = t.find(static_cast<uint32_t>(ln % t.sets()), ln);
        return w == TagArray::kMiss ? nullptr : &t.at(static_cast<uint32_t>(ln % t.sets()), static_cast<uint32_t>(w));
    }
    // The prefetch and accessed bits of a valid line, null when the line is not valid.
    const LineMarks* marks(uint64_t paddr) const {
        const L2Bank& b = l2->bank(0);
        const uint64_t ln = paddr / 128;
        const uint32_t set = static_cast<uint32_t>(ln % b.tags().sets());
        const int w = b.tags().find(set, ln);
        return w == TagArray::kMiss ? nullptr : &b.marks().at(set, static_cast<uint32_t>(w));
    }
    double stat(const std::string& n) { return sim.stats().value(n); }

    void recv_response(MemRequest* r, RequestPort&) override {
        ++completed;
        sim.requests().put(r);
    }
    void recv_retry(RequestPort&) override {}
};

}  // namespace zng::gpu::testing
