#include "sim/mem/port.hpp"

#include <gtest/gtest.h>

#include <deque>

#include "sim/core/component.hpp"

namespace zng {
namespace {

// A receiver with a queue of `capacity` that serves one request every `service` ps and
// answers it; it refuses when the queue is full and calls retry() when a slot frees.
class SlowReceiver : public Component, public MemResponder {
public:
    SlowReceiver(Simulator& s, const ClockDomain& c, size_t capacity, Tick service)
        : Component(s, "rx", c), port(*this, "rx.in"), cap_(capacity), service_(service) {}
    bool recv_request(MemRequest* r, ResponsePort&) override {
        if (q_.size() >= cap_) {
            ++refusals;
            return false;
        }
        q_.push_back(r);
        if (!ev_.scheduled()) schedule_at(ev_, now() + service_);
        return true;
    }
    ResponsePort port;
    int refusals = 0;

private:
    void serve() {
        MemRequest* r = q_.front();
        q_.pop_front();
        send_response(r);
        port.retry();  // a slot is free now
        if (!q_.empty()) schedule_at(ev_, now() + service_);
    }
    std::deque<MemRequest*> q_;
    size_t cap_;
    Tick service_;
    MemberEvent<SlowReceiver, &SlowReceiver::serve> ev_{this, "rx-serve"};
};

// Sends `n` requests back to back at tick 0 and whenever retried.
class Sender : public Component, public MemRequester {
public:
    Sender(Simulator& s, const ClockDomain& c, int n) : Component(s, "tx", c), port(*this, "tx.out"), left_(n) {}
    void start() { pump(); }
    void recv_response(MemRequest* r, RequestPort&) override {
        done_at.push_back(now());
        sim().requests().put(r);
    }
    void recv_retry(RequestPort&) override {
        ++retries;
        retry_at.push_back(now());
        pump();
    }
    RequestPort port;
    std::vector<Tick> done_at, retry_at;
    int retries = 0, sent = 0;

private:
    void pump() {
        while (left_ > 0) {
            MemRequest* r = pending_ ? pending_ : sim().requests().get();
            pending_ = nullptr;
            if (!port.send(r)) {
                pending_ = r;  // hold it until the retry
                return;
            }
            ++sent;
            --left_;
        }
    }
    int left_;
    MemRequest* pending_ = nullptr;
};

TEST(Port, FullReceiverStallsSenderAndRetryWakesIt) {
    Simulator sim;
    ClockDomain clk("c", 1'000'000'000);
    SlowReceiver rx(sim, clk, /*capacity=*/2, /*service=*/10'000);
    Sender tx(sim, clk, 5);
    tx.port.bind(rx.port);
    tx.start();
    // At tick 0 two requests fit; the third is refused and the sender stalls.
    EXPECT_EQ(tx.sent, 2);
    EXPECT_EQ(rx.refusals, 1);
    EXPECT_TRUE(tx.port.waiting_retry());
    sim.run();
    // Service is serial at 10 ns each: completions at 10, 20, 30, 40, 50 ns.
    EXPECT_EQ(tx.done_at, (std::vector<Tick>{10'000, 20'000, 30'000, 40'000, 50'000}));
    // Each completion frees one slot: the sender is woken at 10 ns (sends #3, then is
    // refused for #4), at 20 ns (#4, refused for #5), at 30 ns (#5). Three retries.
    EXPECT_EQ(tx.retry_at, (std::vector<Tick>{10'000, 20'000, 30'000}));
    EXPECT_EQ(tx.sent, 5);
    EXPECT_EQ(rx.refusals, 3);
    EXPECT_EQ(sim.requests().live(), 0u);
}

TEST(Port, ResponseFollowsRouteThroughIntermediate) {
    // tx -> relay -> rx: the relay forwards requests without remembering who sent them;
    // the response finds its way back through the route stack.
    struct Relay : MemResponder, MemRequester {
        RequestPort out{*this, "relay.out"};
        ResponsePort in{*this, "relay.in"};
        int forwarded = 0, returned = 0;
        bool recv_request(MemRequest* r, ResponsePort&) override {
            ++forwarded;
            return out.send(r);
        }
        void recv_response(MemRequest* r, RequestPort&) override {
            ++returned;
            send_response(r);
        }
        void recv_retry(RequestPort&) override { in.retry(); }
    };
    Simulator sim;
    ClockDomain clk("c", 1'000'000'000);
    SlowReceiver rx(sim, clk, 4, 1'000);
    Relay relay;
    Sender tx(sim, clk, 3);
    tx.port.bind(relay.in);
    relay.out.bind(rx.port);
    tx.start();
    sim.run();
    EXPECT_EQ(relay.forwarded, 3);
    EXPECT_EQ(relay.returned, 3);
    EXPECT_EQ(tx.done_at.size(), 3u);
}

TEST(Port, UnboundSendIsAnError) {
    Simulator sim;
    ClockDomain clk("c", 1'000'000'000);
    Sender tx(sim, clk, 1);
    EXPECT_THROW(tx.start(), SimError);
}

}  // namespace
}  // namespace zng
