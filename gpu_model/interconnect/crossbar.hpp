// The crossbar between the SMs and the L2 banks, one network per direction. Each
// output (an L2 bank for requests, an SM for responses) is a link of `width` bytes per
// cycle: a packet (header, plus the data for writes and read responses) occupies it
// for ceil(bytes / width) cycles, then travels `latency` cycles. Packets to one output
// are served in arrival order, so SMs hammering one bank contend there.
// Back-pressure: each request output buffers at most `queue_depth` packets; an SM
// whose packet does not fit is refused and retried when that output drains, the
// refused SMs in round-robin order from the one after the last granted, and an L2
// bank that refuses a delivery holds the output until it calls retry. Responses are
// never refused (their requesters reserved room), so response outputs only queue.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gpu_model/common/warp_mask.hpp"
#include "sim/config/params.hpp"
#include "sim/core/component.hpp"
#include "sim/core/edge_clock.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/mem/port.hpp"

namespace zng::gpu {

struct CrossbarConfig {
    uint32_t width = 32;        // bytes per cycle per output link
    uint32_t latency = 2;       // cycles after serialization
    uint32_t queue_depth = 8;   // packets buffered per request output
    uint32_t header_bytes = 8;  // address/command bytes of every packet

    static const ComponentSchema& schema();
    static CrossbarConfig from(const Params& p);
};

class Crossbar final : public Component, public MemResponder, public MemRequester {
public:
    using Route = std::function<uint32_t(uint64_t paddr)>;
    Crossbar(Simulator& sim, std::string name, const ClockDomain& clock, const CrossbarConfig& cfg,
             uint32_t sources, uint32_t sinks, Route route);

    ResponsePort& source_port(uint32_t i) { return sources_[i]; }
    RequestPort& sink_port(uint32_t b) { return sinks_[b]; }
    uint64_t in_flight() const;

    bool recv_request(MemRequest* r, ResponsePort& port) override;
    void recv_response(MemRequest* r, RequestPort& port) override;
    void recv_retry(RequestPort& port) override;

private:
    EdgeClock edge_{clock()};  // memoised cycle-edge arithmetic
    struct Packet {
        MemRequest* req = nullptr;
        Tick enter = 0;
        Tick ready = 0;
    };
    struct Output {
        Output(Crossbar* x, uint32_t i, bool sink) : xbar(x), index(i), to_sink(sink) {}
        void fire() { xbar->deliver(*this); }
        Crossbar* xbar;
        uint32_t index;
        bool to_sink;  // request network (to an L2 bank) vs response network (to an SM)
        RingQueue<Packet> queue{16};
        Cycle link_free = 0;  // first cycle edge at which the link is free
        bool blocked = false;
        WarpMask waiting;  // sources refused for lack of room here
        // Round-robin arbitration of the room that frees: the source after the last one
        // granted a packet here retries first (a fixed order would starve the last SMs).
        uint32_t rr_next = 0;
        MemberEvent<Output, &Output::fire> event{this, "xbar-output"};
    };
    void enqueue(Output& o, MemRequest* r, uint32_t bytes);
    void deliver(Output& o);

    CrossbarConfig cfg_;
    Route route_;
    std::vector<ResponsePort> sources_;
    std::vector<RequestPort> sinks_;
    std::vector<std::unique_ptr<Output>> to_banks_;
    std::vector<std::unique_ptr<Output>> to_sms_;
    Counter& request_bytes_;
    Counter& response_bytes_;
    Counter& requests_;
    Counter& refusals_;
    Average& queue_delay_;
};

}  // namespace zng::gpu
