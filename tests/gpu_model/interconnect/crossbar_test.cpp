// Crossbar link timing against hand-computed ticks: serialization, queueing behind a
// busy link and the fixed latency, on a 1.2 GHz clock whose period (833.33.. ps) is
// not a whole number of ticks, so cycle edges must come out exact; and the order in
// which refused sources get the room that frees.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "gpu_model/interconnect/crossbar.hpp"
#include "sim/core/simulator.hpp"

namespace zng::gpu {
namespace {

// Accepts every request and notes when it arrived.
struct RecordingSink final : MemResponder {
    explicit RecordingSink(Simulator& s) : sim(s) {}
    bool recv_request(MemRequest* r, ResponsePort&) override {
        arrivals.push_back({r, sim.now()});
        return true;
    }
    struct Arrival {
        MemRequest* r;
        Tick at;
    };
    Simulator& sim;
    std::vector<Arrival> arrivals;
    ResponsePort port{*this, "sink"};
};

struct SilentSource final : MemRequester {
    void recv_response(MemRequest*, RequestPort&) override {}
    void recv_retry(RequestPort&) override {}
    RequestPort port{*this, "source"};
};

// Sends `r` through `port` when it fires.
struct SendLater final : Event {
    SendLater(RequestPort& p, MemRequest* req) : Event("send-later"), port(p), r(req) {}
    void process() override { EXPECT_TRUE(port.send(r)); }
    RequestPort& port;
    MemRequest* r;
};

TEST(Crossbar, PacketsQueueBehindTheBusyLinkAndArriveOnCycleEdges) {
    Simulator sim;
    ClockDomain clock("gpu", 1'200'000'000);  // cycle n starts at floor(n x 2500 / 3) ps
    CrossbarConfig cfg;                        // 32 B per cycle, latency 2, 8 B headers
    Crossbar xbar(sim, "xbar", clock, cfg, 2, 1, [](uint64_t) { return 0u; });
    RecordingSink sink(sim);
    xbar.sink_port(0).bind(sink.port);
    SilentSource a, b;
    a.port.bind(xbar.source_port(0));
    b.port.bind(xbar.source_port(1));

    MemRequest w1, w2, r3, r4;
    for (MemRequest* w : {&w1, &w2}) {
        w->op = MemOp::Write;
        w->size = 128;
    }
    r3.op = r4.op = MemOp::Read;
    r3.size = r4.size = 128;
    // Tick 0: two 128 B writes, 8 + 128 = 136 B = ceil(136 / 32) = 5 cycles each.
    //   w1: link cycles 0..4, free at 5, delivered at 5 + 2 = cycle 7 = floor(7 x 2500 / 3) = 5833 ps.
    //   w2: waits for the link: cycles 5..9, free at 10, delivered at cycle 12 = 10000 ps.
    ASSERT_TRUE(a.port.send(&w1));
    ASSERT_TRUE(b.port.send(&w2));
    // 20000 ps is exactly edge 24: a read (8 B header, 1 cycle) takes cycle 24, free at
    // 25, delivered at cycle 27 = 22500 ps.
    SendLater send3(a.port, &r3);
    sim.schedule(send3, 20000);
    // 20001 ps lies inside cycle 24: the next edge is 25 (20833 ps), the link is free
    // then, so it takes cycle 25 and is delivered at cycle 28 = floor(70000 / 3) = 23333 ps.
    SendLater send4(b.port, &r4);
    sim.schedule(send4, 20001);
    sim.run();

    ASSERT_EQ(sink.arrivals.size(), 4u);
    EXPECT_EQ(sink.arrivals[0].r, &w1);
    EXPECT_EQ(sink.arrivals[0].at, 5833u);
    EXPECT_EQ(sink.arrivals[1].r, &w2);
    EXPECT_EQ(sink.arrivals[1].at, 10000u);
    EXPECT_EQ(sink.arrivals[2].r, &r3);
    EXPECT_EQ(sink.arrivals[2].at, 22500u);
    EXPECT_EQ(sink.arrivals[3].r, &r4);
    EXPECT_EQ(sink.arrivals[3].at, 23333u);
}

// Sends its requests one after another as fast as the crossbar takes them: after each
// acceptance it tries the next at once, and after a refusal it waits for the retry.
struct GreedySource final : MemRequester {
    GreedySource(uint32_t id, uint32_t n) : reqs(n) {
        for (MemRequest& r : reqs) {
            r.op = MemOp::Read;
            r.size = 128;
            r.sm = static_cast<uint16_t>(id);
        }
    }
    void pump() {
        while (next < reqs.size() && port.send(&reqs[next])) ++next;
    }
    void recv_response(MemRequest*, RequestPort&) override {}
    void recv_retry(RequestPort&) override { pump(); }
    std::vector<MemRequest> reqs;
    size_t next = 0;
    RequestPort port{*this, "source"};
};

TEST(Crossbar, RefusedSourcesTakeTheFreedRoomInTurn) {
    Simulator sim;
    ClockDomain clock("gpu", 1'000'000'000);
    CrossbarConfig cfg;
    cfg.queue_depth = 1;  // one packet buffered: every delivery frees exactly one place
    Crossbar xbar(sim, "xbar", clock, cfg, 3, 1, [](uint64_t) { return 0u; });
    RecordingSink sink(sim);
    xbar.sink_port(0).bind(sink.port);
    std::vector<std::unique_ptr<GreedySource>> src;
    for (uint32_t i = 0; i < 3; ++i) {
        src.push_back(std::make_unique<GreedySource>(i, 3));
        src[i]->port.bind(xbar.source_port(i));
    }
    // At tick 0 source 0's first request takes the one place; its second, and sources 1
    // and 2, are refused. Each delivery then frees the place for the source after the
    // last one granted: 1, 2, 0, 1, 2, 0, ... so the nine requests arrive from sources
    // 0 1 2 0 1 2 0 1 2. Retrying in source order instead would give source 0 all its
    // three first (0 0 0 1 1 1 2 2 2), the last source waiting for everyone else.
    for (auto& s : src) s->pump();
    sim.run();

    ASSERT_EQ(sink.arrivals.size(), 9u);
    std::vector<uint16_t> order;
    for (const auto& a : sink.arrivals) order.push_back(a.r->sm);
    EXPECT_EQ(order, (std::vector<uint16_t>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
}

}  // namespace
}  // namespace zng::gpu
