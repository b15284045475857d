#include "flash_model/network/mesh_network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/core/errors.hpp"

namespace zng::flash {

namespace {
using namespace param_kind;
const auto kRows = Param<UInt32>("rows", "0", "router rows (0: chosen with cols to hold every package)").range(0, 1024);
const auto kCols = Param<UInt32>("cols", "0", "router columns (0: ceil(sqrt(packages)))").range(0, 1024);
const auto kClock =
    Param<Frequency>("clock", "800MHz", "router and link clock (assumption: the interface rate)").min(1);
const auto kLinkWidth =
    Param<Size>("link_width", "8B", "bytes per flit and per link cycle (Table I: 8 B)").range(1, 1024);
const auto kHeaderBytes =
    Param<Size>("header_bytes", "8B", "header of every packet (command, address, routing)").range(0, 1024);
const auto kMaxPacket =
    Param<Size>("max_packet", "512B", "largest payload of one packet; longer messages are split").range(1, 1 << 20);
const auto kRouterLatency =
    Param<UInt32>("router_latency", "2", "cycles a head spends in a router before leaving on a link").range(0, 1000);
const auto kBufferFlits =
    Param<UInt32>("buffer_flits", "0", "flits of buffer per router input (0: two largest packets)").range(0, 1 << 20);
}  // namespace

ComponentSchema MeshNetwork::schema() {
    return {"flash_network",
            "mesh",
            "ZnG's 2D mesh flash network: XY routing, virtual cut-through routers with input buffers and credit "
            "back-pressure, one packet per link at a time.",
            {kRows, kCols, kClock, kLinkWidth, kHeaderBytes, kMaxPacket, kRouterLatency, kBufferFlits},
            {}};
}

MeshNetwork::MeshNetwork(Simulator& sim, const std::string& name, const FlashNetworkLayout& layout, const Params& p)
    : OwnedClock(ClockDomain(name + ".clock", p[kClock])),
      Component(sim, name, own_clock),
      width_(static_cast<uint32_t>(p[kLinkWidth])),
      header_(static_cast<uint32_t>(p[kHeaderBytes])),
      max_payload_(static_cast<uint32_t>(p[kMaxPacket])),
      router_latency_(p[kRouterLatency]),
      events_(sim, own_clock, events_horizon(), [this](Ev& e) { on_event(e); }, "mesh"),
      messages_(stats().counter("messages", "messages delivered", "messages")),
      packets_(stats().counter("packets", "packets delivered", "packets")),
      flits_(stats().counter("flits", "flits delivered", "flits")),
      bytes_(stats().counter("bytes", "payload bytes delivered", "B")),
      latency_(stats().average("latency", "message latency from send to delivery", "ns")) {
    uint32_t packages = static_cast<uint32_t>(layout.package_channel.size());
    rows_ = p[kRows];
    cols_ = p[kCols];
    if (cols_ == 0) cols_ = rows_ ? (packages + rows_ - 1) / rows_ : static_cast<uint32_t>(std::ceil(std::sqrt(packages)));
    if (cols_ == 0) cols_ = 1;
    if (rows_ == 0) rows_ = (packages + cols_ - 1) / cols_;
    if (rows_ == 0) rows_ = 1;
    if (static_cast<uint64_t>(rows_) * cols_ < packages)
        p.fail(kRows.key(), fmt::format("a {}x{} mesh has fewer routers than the {} packages", rows_, cols_, packages));
    routers_ = rows_ * cols_;
    uint32_t largest = packet_flits(max_payload_);
    buffer_flits_ = p[kBufferFlits];
    if (buffer_flits_ == 0) buffer_flits_ = 2 * largest;
    if (buffer_flits_ < largest)
        p.fail(kBufferFlits.key(), fmt::format("a router input must hold a whole packet ({} flits of the largest packet)",
                                           largest));

    package_channel_ = layout.package_channel;
    endpoint_router_.resize(layout.endpoints());
    for (uint32_t k = 0; k < packages; ++k) endpoint_router_[layout.controllers + k] = k;
    for (uint32_t c = 0; c < layout.controllers; ++c) {
        uint32_t first = 0;
        while (first < packages && layout.package_channel[first] != c) ++first;
        uint32_t row = first < packages ? first / cols_ : c % rows_;
        endpoint_router_[c] = row * cols_;
    }
    endpoints_.assign(layout.endpoints(), nullptr);
    uint32_t outputs = 4 * routers_ + layout.endpoints();
    out_busy_.assign(outputs, 0);
    out_wait_.resize(outputs);
    out_wake_.assign(outputs, 0);
    credits_.assign(outputs, buffer_flits_);
    inject_wait_.resize(layout.endpoints());
    inject_busy_.assign(layout.endpoints(), 0);
    inject_wake_.assign(layout.endpoints(), 0);
}

void MeshNetwork::attach(uint32_t endpoint, FlashEndpoint* e) { endpoints_.at(endpoint) = e; }

uint32_t MeshNetwork::packet_flits(uint32_t payload) const { return (header_ + payload + width_ - 1) / width_; }

Cycle MeshNetwork::events_horizon() const {
    // A head waits router_latency_ cycles in a router; a port is busy, and a packet's
    // tail follows its head, for at most the largest packet's flits.
    return std::max<Cycle>(router_latency_, packet_flits(max_payload_));
}

uint32_t MeshNetwork::hops(uint32_t a, uint32_t b) const {
    uint32_t ra = router_of(a), rb = router_of(b);
    int dx = static_cast<int>(ra % cols_) - static_cast<int>(rb % cols_);
    int dy = static_cast<int>(ra / cols_) - static_cast<int>(rb / cols_);
    return static_cast<uint32_t>(std::abs(dx) + std::abs(dy));
}

uint32_t MeshNetwork::busiest_link_packages() const {
    // Replies leave a package towards its controller; requests retrace the same links the
    // other way (XY and YX paths differ only when both coordinates differ, which the
    // controller placement on its package row's edge rules out), so one count per link.
    const uint32_t controllers = static_cast<uint32_t>(endpoint_router_.size() - package_channel_.size());
    std::vector<uint32_t> crossing(4 * routers_, 0);
    uint32_t busiest = 0;
    for (uint32_t k = 0; k < package_channel_.size(); ++k) {
        uint32_t r = endpoint_router_[controllers + k];
        const uint32_t dst = endpoint_router_[package_channel_[k]];
        while (r != dst) {
            const uint32_t dir = route(r, dst);
            busiest = std::max(busiest, ++crossing[4 * r + dir]);
            r = neighbor(r, dir);
        }
    }
    return busiest;
}

uint32_t MeshNetwork::route(uint32_t r, uint32_t dst) const {
    uint32_t x = r % cols_, y = r / cols_, dx = dst % cols_, dy = dst / cols_;
    if (dx > x) return kEast;
    if (dx < x) return kWest;
    return dy > y ? kSouth : kNorth;
}

uint32_t MeshNetwork::neighbor(uint32_t r, uint32_t dir) const {
    switch (dir) {
        case kNorth: return r - cols_;
        case kEast: return r + 1;
        case kSouth: return r + cols_;
        default: return r - 1;
    }
}

void MeshNetwork::send(const FlashMessage& m) {
    if (m.src >= endpoints_.size() || m.dst >= endpoints_.size() || !endpoints_[m.dst])
        throw SimError(fmt::format("{}: message from endpoint {} to endpoint {} has no attached receiver", name(),
                                   m.src, m.dst));
    uint32_t id = msgs_.alloc();
    Message& msg = msgs_[id];
    msg.m = m;
    msg.sent = now();
    uint32_t parts = m.payload == 0 ? 1 : (m.payload + max_payload_ - 1) / max_payload_;
    msg.parts_left = parts;
    uint32_t left = m.payload;
    for (uint32_t i = 0; i < parts; ++i) {
        uint32_t part = left < max_payload_ ? left : max_payload_;
        left -= part;
        uint32_t pk = pkts_.alloc();
        pkts_[pk].msg = id;
        pkts_[pk].flits = packet_flits(part);
        inject_wait_[m.src].push_back(pk);
    }
    const Cycle edge = now_cycle();
    if (clock().cycle_to_tick(edge) == now()) {
        try_inject(m.src);
    } else if (!inject_wake_[m.src]) {
        inject_wake_[m.src] = 1;
        events_.push({EvKind::WakeInject, m.src, 0}, edge);
    }
}

void MeshNetwork::try_inject(uint32_t e) {
    auto& q = inject_wait_[e];
    while (!q.empty()) {
        uint32_t pk = q.front();
        if (inject_busy_[e] > now_cycle()) {
            if (!inject_wake_[e]) {
                inject_wake_[e] = 1;
                events_.push({EvKind::WakeInject, e, 0}, inject_busy_[e]);
            }
            return;
        }
        uint32_t buf = inject_buffer(e);
        if (credits_[buf] < pkts_[pk].flits) return;  // woken by the credit's return
        q.pop_front();
        inject_busy_[e] = now_cycle() + pkts_[pk].flits;
        credits_[buf] -= pkts_[pk].flits;
        pkts_[pk].buffer = buf;
        pkts_[pk].router = endpoint_router_[e];
        arrive(pk);
    }
}

void MeshNetwork::arrive(uint32_t pk) {
    const Packet& p = pkts_[pk];
    uint32_t dst = msgs_[p.msg].m.dst;
    if (p.router == endpoint_router_[dst]) {
        uint32_t out = eject_output(dst);
        out_wait_[out].push_back(pk);
        try_output(out);
    } else {
        events_.push({EvKind::Ready, pk, 0}, now_cycle() + router_latency_);
    }
}

void MeshNetwork::try_output(uint32_t out) {
    auto& q = out_wait_[out];
    while (!q.empty()) {
        uint32_t pk = q.front();
        Packet& p = pkts_[pk];
        if (out_busy_[out] > now_cycle()) {
            if (!out_wake_[out]) {
                out_wake_[out] = 1;
                events_.push({EvKind::WakeOutput, out, 0}, out_busy_[out]);
            }
            return;
        }
        bool link = out < 4 * routers_;
        uint32_t next = 0, next_buf = 0;
        if (link) {
            uint32_t dir = out % 4;
            next = neighbor(out / 4, dir);
            next_buf = next * 4 + opposite(dir);
            if (credits_[next_buf] < p.flits) return;  // woken when that buffer returns credits
        }
        q.pop_front();
        const Cycle tail = now_cycle() + p.flits;
        out_busy_[out] = tail;
        // The tail leaves this router's input buffer when it has crossed the output.
        if (link) {
            events_.push({EvKind::Credit, p.buffer, p.flits}, tail);
            credits_[next_buf] -= p.flits;
            p.buffer = next_buf;
            p.router = next;
            arrive(pk);
        } else {
            events_.push({EvKind::Ejected, pk, 0}, tail);
        }
    }
}

void MeshNetwork::wake_feeder(uint32_t buf) {
    if (buf >= 4 * routers_) {
        try_inject(buf - 4 * routers_);
        return;
    }
    uint32_t router = buf / 4, side = buf % 4;
    // A packet entering from side `side` left its neighbour on that side through the
    // opposite direction.
    uint32_t up = neighbor(router, side);
    try_output(up * 4 + opposite(side));
}

void MeshNetwork::on_event(Ev& e) {
    switch (e.kind) {
        case EvKind::Ready: {
            Packet& p = pkts_[e.a];
            uint32_t out = p.router * 4 + route(p.router, endpoint_router_[msgs_[p.msg].m.dst]);
            out_wait_[out].push_back(e.a);
            try_output(out);
            break;
        }
        case EvKind::WakeOutput:
            out_wake_[e.a] = 0;
            try_output(e.a);
            break;
        case EvKind::WakeInject:
            inject_wake_[e.a] = 0;
            try_inject(e.a);
            break;
        case EvKind::Credit:
            return_credits(e.a, e.b);
            break;
        case EvKind::Ejected:
            return_credits(pkts_[e.a].buffer, pkts_[e.a].flits);
            deliver(e.a);
            break;
    }
}

void MeshNetwork::return_credits(uint32_t buf, uint32_t flits) {
    credits_[buf] += flits;
    wake_feeder(buf);
}

void MeshNetwork::deliver(uint32_t pk) {
    uint32_t mid = pkts_[pk].msg;
    ++packets_;
    flits_ += pkts_[pk].flits;
    pkts_.release(pk);
    Message& m = msgs_[mid];
    if (--m.parts_left > 0) return;
    FlashMessage done = m.m;
    ++messages_;
    bytes_ += done.payload;
    latency_.sample(static_cast<double>(now() - m.sent) / kNanosecond);
    msgs_.release(mid);
    endpoints_[done.dst]->receive(done);
}

}  // namespace zng::flash
