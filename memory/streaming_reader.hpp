// A minimal requester for peak-bandwidth microbenchmarks: it streams sequential
// line-sized requests into a memory back end through every port, keeping a fixed number
// outstanding per port, honours refusals (holds the request until the retry), and
// reports the bandwidth achieved between its first request and its last response.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/mem/memory_backend.hpp"

namespace zng::memory {

class StreamingReader final : public MemRequester {
public:
    struct Config {
        uint32_t outstanding_per_port = 64;
        uint64_t bytes = 8ull << 20;  // total requested
        uint32_t request_bytes = 128;
        uint64_t base = 0;            // first address
        MemOp op = MemOp::Read;
    };
    struct Result {
        uint64_t requests = 0;
        uint64_t bytes = 0;
        Tick first_issue = 0;
        Tick last_response = 0;
        double bytes_per_second() const {
            const Tick span = last_response - first_issue;
            return span ? static_cast<double>(bytes) / ticks_to_seconds(span) : 0.0;
        }
    };

    StreamingReader(Simulator& sim, MemoryBackend& memory, const Config& cfg);
    // Issues the first requests at the current tick; run the simulator afterwards.
    void start();
    const Result& result() const { return result_; }
    bool finished() const { return result_.requests == total_; }

    void recv_response(MemRequest* r, RequestPort& port) override;
    void recv_retry(RequestPort& port) override;

private:
    void fill(uint32_t port);

    Simulator& sim_;
    Config cfg_;
    uint64_t total_;
    uint64_t issued_ = 0;
    std::vector<std::unique_ptr<RequestPort>> ports_;
    std::vector<uint32_t> outstanding_;
    std::vector<MemRequest*> held_;  // refused, waiting for the retry
    Result result_;
};

}  // namespace zng::memory
