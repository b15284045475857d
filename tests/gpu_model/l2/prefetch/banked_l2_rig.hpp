// A four-bank L2 with the zng policy in front of a fixed-latency memory, driven at
// given cycles: for tests that follow lines across banks and count bank busy time.
#pragma once
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/fixed_latency_backend.hpp"
#include "gpu_model/l2/l2_cache.hpp"
#include "gpu_model/l2/prefetch/register_prefetch.hpp"
#include "gpu_model/register.hpp"
#include "sim/config/config_node.hpp"

namespace zng::gpu::testing {

// Four STT-MRAM banks (read 1, write 5 cycles), 128 B lines interleaved line by line
// (line n -> bank n % 4), 16 sets x 8 ways per bank, the zng policy with the given
// settings (a YAML flow map's body), memory 100 cycles; requests are sent straight to
// their banks at given cycles and the cycle of each answer is recorded.
struct BankedL2Rig final : MemRequester {
    Simulator sim;
    ClockDomain clock{"gpu", 1'000'000'000};
    ConfigNode node;
    std::unique_ptr<L2Cache> l2;
    std::unique_ptr<FixedLatencyBackend> memory;
    std::vector<std::unique_ptr<RequestPort>> ports;
    std::vector<std::unique_ptr<TimedQueue<MemRequest*>>> sends;
    std::map<uint64_t, Cycle> done;  // request id -> cycle answered

    BankedL2Rig(uint64_t max_read_bytes, const std::string& policy)
        : node(parse_config_text("l2: {banks: 4, size: 64KiB, ways: 8, technology: stt_mram, interleave: 128B, "
                                 "policy: {type: zng, " +
                                     policy + "}}",
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
    // The prefetch and accessed bits of a valid line, null when the line is not valid.
    const LineMarks* marks(uint64_t line_no) const {
        L2Bank& b = l2->bank(static_cast<uint32_t>(line_no % 4));
        const uint32_t set = static_cast<uint32_t>((line_no / 4) % b.tags().sets());
        const int w = b.tags().find(set, line_no);
        return w == TagArray::kMiss ? nullptr : &b.marks().at(set, static_cast<uint32_t>(w));
    }
    double stat(const std::string& n) { return sim.stats().value(n); }
    void recv_response(MemRequest* r, RequestPort&) override {
        done[r->id] = clock.tick_to_cycle(sim.now());
        sim.requests().put(r);
    }
    void recv_retry(RequestPort&) override {}
};

}  // namespace zng::gpu::testing
