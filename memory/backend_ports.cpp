#include "memory/backend_ports.hpp"

#include <fmt/format.h>

namespace zng::memory {

void check_in_capacity(const std::string& who, const MemRequest& r, uint64_t capacity) {
    if (r.paddr >= capacity || r.size > capacity - r.paddr)
        throw SimError(fmt::format("{}: request {} ({} B at physical address {:#x}) lies beyond the capacity of {} B",
                                   who, r.id, r.size, r.paddr, capacity));
}

BackendPorts::BackendPorts(MemResponder& owner, const std::string& name, uint32_t ports)
    : waiting_on_(ports, kNone), turn_(ports) {
    for (uint32_t i = 0; i < ports; ++i) {
        ports_.push_back(std::make_unique<ResponsePort>(owner, name + ".port" + std::to_string(i)));
        ports_.back()->index = i;
    }
}

void BackendPorts::retry_waiting(uint32_t resource) {
    turn_.pass([&](uint32_t i) {
        if (waiting_on_[i] != resource) return false;
        waiting_on_[i] = kNone;  // cleared first: the retry may send (and be refused) again
        --waiting_;
        ports_[i]->retry();
        return true;
    });
}

BackendTraffic::BackendTraffic(Simulator& sim, const std::string& name)
    : sim_(sim),
      reads_(sim.stats().counter(name + ".reads", "read requests answered (reads, prefetches, atomics)", "requests")),
      writes_(sim.stats().counter(name + ".writes", "write requests answered (writes, write-backs)", "requests")),
      bytes_read_(sim.stats().counter(name + ".bytes_read", "bytes delivered to requesters", "B")),
      bytes_written_(sim.stats().counter(name + ".bytes_written", "bytes written by requesters", "B")),
      refusals_(sim.stats().counter(name + ".refusals", "requests refused because a queue was full", "requests")),
      latency_(sim.stats().average(name + ".latency", "arrival to response, per request", "ns")) {
    Simulator* s = &sim;
    Counter* rd = &bytes_read_;
    Counter* wr = &bytes_written_;
    sim.stats().formula(name + ".bandwidth_gbps", "requested bytes moved per second of simulated time", "GB/s",
                        [s, rd, wr] {
                            const double secs = ticks_to_seconds(s->now());
                            return secs > 0 ? static_cast<double>(rd->get() + wr->get()) / secs / 1e9 : 0.0;
                        });
    const uint64_t* f = &in_flight_;
    sim.stats().formula(name + ".in_flight", "requests accepted and not yet answered", "requests",
                        [f] { return static_cast<double>(*f); });
}

void BackendTraffic::accepted(MemRequest* r) {
    r->mark(Stage::MemArrive, sim_.now());
    ++in_flight_;
}

void BackendTraffic::respond(MemRequest* r) {
    const Tick now = sim_.now();
    if (!r->passed(Stage::MediumDone)) r->mark(Stage::MediumDone, now);
    if (is_write_op(r->op)) {
        ++writes_;
        bytes_written_ += r->size;
    } else {
        ++reads_;
        bytes_read_ += r->size;
    }
    latency_.sample(static_cast<double>(now - r->at(Stage::MemArrive)) / static_cast<double>(kNanosecond));
    --in_flight_;
    send_response(r);
}

}  // namespace zng::memory
