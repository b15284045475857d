// A memory back end for GPU tests and benchmarks: every request is answered a fixed
// number of GPU cycles after it arrives, so latencies through the GPU can be computed
// by hand. Optionally refuses requests beyond `max_outstanding` per port, to exercise
// the L2's back-pressure path, and optionally keeps working on each request for a while
// after answering it (as a flash back end runs a merge a write requested), to exercise
// the end of a run.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "sim/mem/memory_backend.hpp"

namespace zng::gpu::testing {

class FixedLatencyBackend final : public MemoryBackend {
public:
    FixedLatencyBackend(Simulator& sim, const ClockDomain& clock, uint32_t ports, uint32_t latency_cycles,
                        uint32_t max_outstanding = 0)
        : sim_(sim),
          clock_(clock),
          latency_(latency_cycles),
          max_outstanding_(max_outstanding),
          outstanding_(ports, 0),
          refused_(ports, false),
          done_(sim, [this](MemRequest*& r) { finish(r); }, "test-memory"),
          background_(sim, [this](uint8_t&) { --in_flight_; }, "test-memory-background") {
        ports_.reserve(ports);
        for (uint32_t i = 0; i < ports; ++i) {
            ports_.emplace_back(*this, "memory.port" + std::to_string(i));
            ports_.back().index = i;
        }
    }

    ResponsePort& port(uint32_t i) override { return ports_.at(i); }
    uint32_t num_ports() const override { return static_cast<uint32_t>(ports_.size()); }
    uint64_t in_flight() const override { return in_flight_; }
    uint64_t medium_bytes_read() const override { return bytes_read_; }
    uint64_t medium_bytes_written() const override { return bytes_written_; }
    uint64_t capacity_bytes() const override { return uint64_t{1} << 40; }

    uint64_t requests(MemOp op) const { return by_op_[static_cast<int>(op)]; }
    uint64_t refusals() const { return refusals_; }
    // Each request keeps the back end busy (in_flight) for `cycles` after its answer.
    void set_background_cycles(uint32_t cycles) { background_cycles_ = cycles; }
    // When the last answer was sent, and when the last background work ends.
    Tick last_answer() const { return last_answer_; }
    Tick background_end() const { return background_end_; }

    bool recv_request(MemRequest* r, ResponsePort& port) override {
        uint32_t p = port.index;
        if (max_outstanding_ && outstanding_[p] >= max_outstanding_) {
            refused_[p] = true;
            ++refusals_;
            return false;
        }
        ++outstanding_[p];
        ++in_flight_;
        ++by_op_[static_cast<int>(r->op)];
        (is_write_op(r->op) ? bytes_written_ : bytes_read_) += r->size;
        r->mark(Stage::MemArrive, sim_.now());
        r->mark(Stage::MediumStart, sim_.now());
        done_.push(r, clock_.edge_after(sim_.now(), latency_));
        return true;
    }

private:
    void finish(MemRequest* r) {
        r->mark(Stage::MediumDone, sim_.now());
        uint32_t p = r->route[r->route_depth - 1]->index;  // the port it arrived on
        --outstanding_[p];
        last_answer_ = sim_.now();
        if (background_cycles_) {
            background_end_ = clock_.edge_after(sim_.now(), background_cycles_);
            background_.push(0, background_end_);  // in_flight_ stays counted until then
        } else {
            --in_flight_;
        }
        send_response(r);
        if (refused_[p]) {
            refused_[p] = false;
            ports_[p].retry();
        }
    }

    Simulator& sim_;
    const ClockDomain& clock_;
    uint32_t latency_;
    uint32_t max_outstanding_;
    std::vector<ResponsePort> ports_;
    std::vector<uint32_t> outstanding_;
    std::vector<bool> refused_;
    TimedQueue<MemRequest*> done_;
    TimedQueue<uint8_t> background_;
    uint32_t background_cycles_ = 0;
    Tick last_answer_ = 0, background_end_ = 0;
    uint64_t in_flight_ = 0, bytes_read_ = 0, bytes_written_ = 0, refusals_ = 0;
    uint64_t by_op_[8] = {};
};

}  // namespace zng::gpu::testing
