// BackendPorts retries the ports that wait for a resource round-robin: after room frees
// once, the port after the one retried first goes first the next time.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "memory/backend_ports.hpp"

namespace zng::memory {
namespace {

struct NullResponder final : MemResponder {
    bool recv_request(MemRequest*, ResponsePort&) override { return false; }
};

// Records which of its ports were retried, in order.
struct RetryLog final : MemRequester {
    explicit RetryLog(BackendPorts& bp) {
        for (uint32_t i = 0; i < bp.size(); ++i) {
            ports.push_back(std::make_unique<RequestPort>(*this, "p"));
            ports.back()->bind(bp.port(i));
        }
    }
    void recv_response(MemRequest*, RequestPort&) override {}
    void recv_retry(RequestPort& p) override {
        for (uint32_t i = 0; i < ports.size(); ++i)
            if (ports[i].get() == &p) order.push_back(i);
    }
    std::vector<std::unique_ptr<RequestPort>> ports;
    std::vector<uint32_t> order;
};

TEST(BackendPorts, PortsWaitingForARoomAreRetriedInTurn) {
    NullResponder owner;
    BackendPorts bp(owner, "mem", 3);
    RetryLog log(bp);
    MemRequest r;
    auto refuse_all = [&] {
        for (uint32_t i = 0; i < 3; ++i) {
            EXPECT_FALSE(log.ports[i]->send(&r));  // the owner refuses: the port waits
            bp.refused(bp.port(i), 7);
        }
    };
    refuse_all();
    bp.room_freed(7);
    refuse_all();
    bp.room_freed(7);
    refuse_all();
    bp.room_freed(5);  // another resource: nobody waits for it
    bp.room_freed(7);
    EXPECT_EQ(log.order, (std::vector<uint32_t>{0, 1, 2, 1, 2, 0, 2, 0, 1}));
}

}  // namespace
}  // namespace zng::memory
