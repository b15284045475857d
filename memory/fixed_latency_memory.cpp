#include "memory/fixed_latency_memory.hpp"

#include <algorithm>

namespace zng::memory {

namespace {
using namespace param_kind;
const auto kLatency =
    Param<Time>("latency", "100ns", "time from the end of a request's transfer to its response").min(0);
const auto kBandwidth = Param<Bandwidth>("bandwidth", "32GB/s", "bytes per second each port's link moves").min(1);
const auto kQueue = Param<UInt32>("queue", "64", "requests in flight per port before it refuses").range(1, 1e9);
const auto kCapacity = Param<Size>("capacity", "64GiB", "total bytes served").min(1);
}  // namespace

const ComponentSchema& FixedLatencyMemory::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.name = "fixed_latency";
        c.description = "each port a link of fixed bandwidth followed by a fixed latency, with a bounded number of "
                        "requests in flight per port";
        c.params = {kLatency, kBandwidth, kQueue, kCapacity};
        c.ports = {"port<i>: one per L2 bank, each with its own link"};
        return c;
    }();
    return s;
}

FixedLatencyMemory::FixedLatencyMemory(const Params& p, Simulator& sim, const BackendContext& ctx)
    : name_(p.path()),
      sim_(sim),
      bandwidth_(p[kBandwidth]),
      queue_(p[kQueue]),
      capacity_(p[kCapacity]),
      ports_(*this, p.path(), ctx.ports),
      traffic_(sim, p.path()),
      links_(ctx.ports, SerialLink(bandwidth_, p[kLatency])),
      occupied_(ctx.ports, 0),
      pending_(sim, [this](Done& d) { done(d); }, "fixed-latency-done") {
    if (ctx.ports == 0) throw ConfigError(p.where(kQueue.key()) + ": the memory needs at least one port");
}

bool FixedLatencyMemory::recv_request(MemRequest* r, ResponsePort& port) {
    check_in_capacity(name_, *r, capacity_);
    const uint32_t i = port.index;
    if (occupied_[i] >= queue_) {
        ports_.refused(port, i);
        traffic_.refused();
        return false;
    }
    traffic_.accepted(r);
    ++occupied_[i];
    r->mark(Stage::MediumStart, std::max(sim_.now(), links_[i].free_at()));
    (is_write_op(r->op) ? bytes_written_ : bytes_read_) += r->size;
    pending_.push(Done{r, i}, links_[i].transfer(sim_.now(), r->size));
    return true;
}

void FixedLatencyMemory::done(Done& d) {
    --occupied_[d.port];
    traffic_.respond(d.req);
    ports_.room_freed(d.port);
}

}  // namespace zng::memory
