#include "flash_model/network/onfi_channel.hpp"

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace zng::flash {

namespace {
using namespace param_kind;
const auto kRate = Param<Rate>("rate", "800MT/s", "bus transfer rate (ONFI NV-DDR3: 800 MT/s)").min(1);
const auto kWidth = Param<Size>("width", "1B", "bytes per bus transfer (ONFI: 8-bit DQ bus)").range(1, 1024);
const auto kCommandBytes =
    Param<Size>("command_bytes", "7B",
                "command and address cycles carried before every message (1 cmd + 5 addr + 1 cmd)")
        .range(0, 1024);
}  // namespace

ComponentSchema OnfiChannelNetwork::schema() {
    return {"flash_network",
            "onfi_bus",
            "Bus-based ONFI flash channels: one shared bus per channel between its controller and packages.",
            {kRate, kWidth, kCommandBytes},
            {}};
}

OnfiChannelNetwork::OnfiChannelNetwork(Simulator& sim, const std::string& name, const FlashNetworkLayout& layout,
                                       const Params& p)
    : OwnedClock(ClockDomain(name + ".clock", p[kRate])),
      Component(sim, name, own_clock),
      layout_(layout),
      width_(static_cast<uint32_t>(p[kWidth])),
      command_bytes_(static_cast<uint32_t>(p[kCommandBytes])),
      done_(sim, [this](Done& d) { finish(d); }, "onfi-bus"),
      messages_(stats().counter("messages", "messages delivered", "messages")),
      bytes_(stats().counter("bytes", "payload bytes delivered", "B")),
      busy_ps_(stats().counter("busy_ps", "total bus-busy time over all channels", "ps")) {
    endpoints_.assign(layout.endpoints(), nullptr);
    buses_.resize(layout.controllers);
}

void OnfiChannelNetwork::attach(uint32_t endpoint, FlashEndpoint* e) { endpoints_.at(endpoint) = e; }

uint32_t OnfiChannelNetwork::channel_of(uint32_t e) const {
    return e < layout_.controllers ? e : layout_.package_channel.at(e - layout_.controllers);
}

void OnfiChannelNetwork::send(const FlashMessage& m) {
    if (m.src >= endpoints_.size() || m.dst >= endpoints_.size() || !endpoints_[m.dst])
        throw SimError(fmt::format("{}: message from endpoint {} to endpoint {} has no attached receiver", name(),
                                   m.src, m.dst));
    uint32_t ch = channel_of(m.src);
    if (ch != channel_of(m.dst))
        throw SimError(fmt::format("{}: endpoints {} and {} are on different channels ({} and {})", name(), m.src,
                                   m.dst, ch, channel_of(m.dst)));
    ++in_flight_;
    buses_[ch].waiting.push_back(m);
    if (!buses_[ch].busy) start(ch);
}

void OnfiChannelNetwork::start(uint32_t ch) {
    Bus& b = buses_[ch];
    if (b.waiting.empty()) return;
    FlashMessage m = b.waiting.front();
    b.waiting.pop_front();
    b.busy = true;
    Tick begin = clock().next_edge(now());
    Tick end = clock().edge_after(now(), transfers(m.payload));
    busy_ps_ += end - begin;
    done_.push({ch, m}, end);
}

void OnfiChannelNetwork::finish(Done& d) {
    buses_[d.channel].busy = false;
    --in_flight_;
    ++messages_;
    bytes_ += d.m.payload;
    FlashMessage m = d.m;
    start(d.channel);
    endpoints_[m.dst]->receive(m);
}

}  // namespace zng::flash
