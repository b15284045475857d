#include "gpu_model/interconnect/crossbar.hpp"

namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kWidth = Param<UInt32>("width", "32", "bytes per cycle of each output link").range(1, 1 << 16);
const auto kLatency =
    Param<UInt32>("latency", "2", "cycles from the end of serialization to delivery").range(0, 100000);
const auto kQueueDepth =
    Param<UInt32>("queue_depth", "8", "request packets buffered per L2-bank output").range(1, 1 << 16);
const auto kHeaderBytes =
    Param<UInt32>("header_bytes", "8", "bytes of address/command in every packet").range(0, 1024);
}  // namespace

const ComponentSchema& CrossbarConfig::schema() {
    static const ComponentSchema s{
        .slot = "gpu.xbar",
        .name = "xbar",
        .description = "crossbar SMs <-> L2 banks: per-output links with serialization, latency and back-pressure",
        .params = {kWidth, kLatency, kQueueDepth, kHeaderBytes},
        .ports = {"sm<i>: from each SM's L1", "bank<b>: to each L2 bank"}};
    return s;
}

CrossbarConfig CrossbarConfig::from(const Params& p) {
    CrossbarConfig c;
    c.width = p[kWidth];
    c.latency = p[kLatency];
    c.queue_depth = p[kQueueDepth];
    c.header_bytes = p[kHeaderBytes];
    return c;
}

Crossbar::Crossbar(Simulator& sim, std::string name, const ClockDomain& clock, const CrossbarConfig& cfg,
                   uint32_t sources, uint32_t sinks, Route route)
    : Component(sim, std::move(name), clock),
      cfg_(cfg),
      route_(std::move(route)),
      request_bytes_(stats().counter("request_bytes", "bytes carried SM -> L2", "B")),
      response_bytes_(stats().counter("response_bytes", "bytes carried L2 -> SM", "B")),
      requests_(stats().counter("requests", "request packets", "packets")),
      refusals_(stats().counter("refusals", "request packets refused: output queue full", "packets")),
      queue_delay_(stats().average("queue_delay", "time from entering the crossbar to delivery", "ns")) {
    if (sources > WarpMask::kMaxWarps) throw SimError(this->name() + ": too many sources");
    sources_.reserve(sources);
    sinks_.reserve(sinks);
    for (uint32_t i = 0; i < sources; ++i) {
        sources_.emplace_back(*this, this->name() + ".sm" + std::to_string(i));
        sources_.back().index = i;
        to_sms_.push_back(std::make_unique<Output>(this, i, false));
    }
    for (uint32_t b = 0; b < sinks; ++b) {
        sinks_.emplace_back(*this, this->name() + ".bank" + std::to_string(b));
        to_banks_.push_back(std::make_unique<Output>(this, b, true));
    }
    StatGroup g = stats();
    auto gbps = [this](const Counter& c) {
        double s = ticks_to_seconds(this->sim().now());
        return s > 0 ? static_cast<double>(c.get()) / s / 1e9 : 0.0;
    };
    g.formula("request_bandwidth", "SM -> L2 bytes per second over the run", "GB/s",
              [this, gbps] { return gbps(request_bytes_); });
    g.formula("response_bandwidth", "L2 -> SM bytes per second over the run", "GB/s",
              [this, gbps] { return gbps(response_bytes_); });
}

uint64_t Crossbar::in_flight() const {
    uint64_t n = 0;
    for (const auto& o : to_banks_) n += o->queue.size();
    for (const auto& o : to_sms_) n += o->queue.size();
    return n;
}

namespace {
bool request_carries_data(MemOp op) { return op == MemOp::Write || op == MemOp::Writeback || op == MemOp::Atomic; }
bool response_carries_data(MemOp op) { return op == MemOp::Read || op == MemOp::Atomic || op == MemOp::Prefetch; }
}  // namespace

void Crossbar::enqueue(Output& o, MemRequest* r, uint32_t bytes) {
    const uint64_t flits = (bytes + cfg_.width - 1) / cfg_.width;
    // Counted in cycles: the link's times are all edges, so one conversion to ticks
    // (for the delivery) replaces two tick -> cycle -> tick round trips.
    const Cycle start = std::max(edge_.edge_cycle(now()), o.link_free);
    o.link_free = start + flits;
    const Tick ready = clock().cycle_to_tick(o.link_free + cfg_.latency);
    o.queue.push_back(Packet{r, now(), ready});
    if (!o.blocked) sim().events().schedule_at_most(o.event, std::max(now(), o.queue.front().ready));
}

bool Crossbar::recv_request(MemRequest* r, ResponsePort& port) {
    const uint32_t b = route_(r->paddr);
    if (b >= to_banks_.size()) throw SimError(name() + ": address routed to a bank that does not exist");
    Output& o = *to_banks_[b];
    if (o.queue.size() >= cfg_.queue_depth) {
        o.waiting.set(port.index);
        ++refusals_;
        return false;
    }
    o.rr_next = port.index + 1 == sources_.size() ? 0 : port.index + 1;
    uint32_t bytes = cfg_.header_bytes + (request_carries_data(r->op) ? r->size : 0);
    request_bytes_ += bytes;
    ++requests_;
    enqueue(o, r, bytes);
    return true;
}

void Crossbar::recv_response(MemRequest* r, RequestPort&) {
    // The top of the route is the source port this request entered by.
    const uint32_t sm = r->route[r->route_depth - 1]->index;
    uint32_t bytes = cfg_.header_bytes + (response_carries_data(r->op) ? r->size : 0);
    response_bytes_ += bytes;
    enqueue(*to_sms_[sm], r, bytes);
}

void Crossbar::recv_retry(RequestPort& port) {
    Output& o = *to_banks_[static_cast<size_t>(&port - sinks_.data())];
    o.blocked = false;
    deliver(o);
}

void Crossbar::deliver(Output& o) {
    while (!o.blocked && !o.queue.empty() && o.queue.front().ready <= now()) {
        MemRequest* r = o.queue.front().req;
        const Tick enter = o.queue.front().enter;
        if (o.to_sink) {
            if (!sinks_[o.index].send(r)) {
                o.blocked = true;
                return;
            }
        }
        o.queue.pop_front();
        queue_delay_.sample(static_cast<double>(now() - enter) / static_cast<double>(kNanosecond));
        if (!o.to_sink) {
            send_response(r);
            continue;
        }
        // Room freed: refused SMs may try again, round-robin from the one after the last
        // granted (GPGPU-Sim's local crossbar arbitrates its inputs round-robin or by
        // iSLIP; a fixed SM order would let the first SMs take every freed slot while the
        // last wait). One that is refused again re-registers itself, so retry a
        // snapshot of the set.
        if (o.waiting.any()) {
            WarpMask waiting = o.waiting;
            o.waiting = WarpMask{};
            const uint32_t first = o.rr_next;
            for (uint32_t s = waiting.next(first); s != WarpMask::kNone; s = waiting.next(s + 1)) sources_[s].retry();
            for (uint32_t s = waiting.next(0); s != WarpMask::kNone && s < first; s = waiting.next(s + 1))
                sources_[s].retry();
        }
    }
    if (!o.blocked && !o.queue.empty())
        sim().events().schedule_at_most(o.event, std::max(now(), o.queue.front().ready));
}

}  // namespace zng::gpu
