// The simplest memory: every port is a link of fixed bandwidth followed by a fixed
// latency, with a bounded number of requests in flight per port. A sanity reference
// and a stand-in for tests of the parts in front of the memory.
#pragma once
#include <vector>

#include "memory/backend_ports.hpp"
#include "sim/core/timed_queue.hpp"
#include "sim/mem/memory_backend.hpp"
#include "sim/mem/serial_link.hpp"

namespace zng::memory {

class FixedLatencyMemory final : public MemoryBackend {
public:
    static const ComponentSchema& schema();
    FixedLatencyMemory(const Params& p, Simulator& sim, const BackendContext& ctx);

    bool recv_request(MemRequest* r, ResponsePort& port) override;
    ResponsePort& port(uint32_t i) override { return ports_.port(i); }
    uint32_t num_ports() const override { return ports_.size(); }
    uint64_t in_flight() const override { return traffic_.in_flight(); }
    uint64_t medium_bytes_read() const override { return bytes_read_; }
    uint64_t medium_bytes_written() const override { return bytes_written_; }
    uint64_t capacity_bytes() const override { return capacity_; }

    // Analytical peak: ports x per-port bandwidth (bytes/s).
    double peak_bandwidth() const { return bandwidth_ * static_cast<double>(ports_.size()); }

private:
    struct Done {
        MemRequest* req;
        uint32_t port;
    };
    void done(Done& d);

    std::string name_;
    Simulator& sim_;
    double bandwidth_;
    uint32_t queue_;
    uint64_t capacity_;
    BackendPorts ports_;
    BackendTraffic traffic_;
    std::vector<SerialLink> links_;   // per port: its link, then the fixed latency
    std::vector<uint32_t> occupied_;  // per port: requests in flight
    uint64_t bytes_read_ = 0, bytes_written_ = 0;
    TimedQueue<Done> pending_;
};

}  // namespace zng::memory
