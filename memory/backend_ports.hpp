// What every memory back end in this folder shares: one ResponsePort per L2 bank, the
// record of which refused port waits for which internal resource (a channel, a port's
// queue) so that only the right requesters are retried, and the traffic statistics a
// back end reports (requests, bytes, in flight, latency, achieved bandwidth).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/mem/port.hpp"
#include "sim/mem/round_robin.hpp"

namespace zng::memory {

// Throws SimError unless [paddr, paddr + size) lies inside the capacity.
void check_in_capacity(const std::string& who, const MemRequest& r, uint64_t capacity);

class BackendPorts {
public:
    BackendPorts(MemResponder& owner, const std::string& name, uint32_t ports);
    ResponsePort& port(uint32_t i) { return *ports_.at(i); }
    uint32_t size() const { return static_cast<uint32_t>(ports_.size()); }
    // Port `port` was refused because `resource` is full.
    void refused(const ResponsePort& port, uint32_t resource) {
        if (waiting_on_[port.index] == kNone) ++waiting_;
        waiting_on_[port.index] = resource;
    }
    // Room freed in `resource`: retry the ports that wait for it, round-robin. Inline for the usual
    // case, no port waiting: a channel frees room on every request it takes on, and a
    // GPU of 80 L2 slices has as many ports to walk.
    void room_freed(uint32_t resource) {
        if (waiting_ != 0) retry_waiting(resource);
    }

private:
    void retry_waiting(uint32_t resource);
    static constexpr uint32_t kNone = ~0u;
    std::vector<std::unique_ptr<ResponsePort>> ports_;
    std::vector<uint32_t> waiting_on_;
    uint32_t waiting_ = 0;  // ports whose waiting_on_ is not kNone
    RoundRobin turn_;
};

// Requests accepted and answered, and the back end's summary statistics under its name
// (e.g. "memory.reads", "memory.bandwidth_gbps").
class BackendTraffic {
public:
    BackendTraffic(Simulator& sim, const std::string& name);
    void accepted(MemRequest* r);
    void refused() { ++refusals_; }
    // Stamps MediumDone (if the device did not), records latency, sends the response.
    void respond(MemRequest* r);
    uint64_t in_flight() const { return in_flight_; }

private:
    Simulator& sim_;
    uint64_t in_flight_ = 0;
    Counter& reads_;
    Counter& writes_;
    Counter& bytes_read_;
    Counter& bytes_written_;
    Counter& refusals_;
    Average& latency_;
};

}  // namespace zng::memory
