// A requester bound to one response port of a memory back end, for tests that drive a
// back end the way an L2 bank does: requests are sent in issue order, a refused one is
// held until the back end's retry, and each completion tick is recorded.
#pragma once
#include <deque>
#include <functional>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/mem/port.hpp"

namespace zng::test {

class PortRequester final : public MemRequester {
public:
    PortRequester(Simulator& sim, ResponsePort& target) : sim_(sim), port_(*this, "test.requester") {
        port_.bind(target);
    }

    // Returns the request's index (its slot in done_at).
    size_t issue(uint16_t app, uint64_t paddr, uint32_t size, MemOp op) {
        MemRequest* r = sim_.requests().get();
        r->app = app;
        r->paddr = paddr;
        r->size = size;
        r->op = op;
        r->tag = done_at.size();
        done_at.push_back(kNotDone);
        pending_.push_back(r);
        pump();
        return r->tag;
    }
    void recv_response(MemRequest* r, RequestPort&) override {
        done_at.at(r->tag) = sim_.now();
        ++completed;
        sim_.requests().put(r);
    }
    void recv_retry(RequestPort&) override { pump(); }

    static constexpr Tick kNotDone = ~Tick{0};
    std::vector<Tick> done_at;  // by issue order; kNotDone until answered
    uint64_t completed = 0;

private:
    void pump() {
        while (!pending_.empty() && !port_.waiting_retry()) {
            if (!port_.send(pending_.front())) return;
            pending_.pop_front();
        }
    }
    Simulator& sim_;
    RequestPort port_;
    std::deque<MemRequest*> pending_;
};

}  // namespace zng::test
