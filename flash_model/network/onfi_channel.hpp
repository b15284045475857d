// Bus-based flash channels (ONFI) of conventional SSDs and of HybridGPU: one bus per
// channel, `width` bytes per transfer at `rate` transfers per second, shared by the
// channel's controller and all its packages. A message occupies its channel's bus for
// ceil((command_bytes + payload) / width) transfers; messages waiting for the bus are
// served in the order they were sent; delivery is at the end of the transfer. The bus
// is the packages' I/O pins, so packages add no separate I/O-port time
// (carries_package_io() is true).
#pragma once
#include <cstdint>
#include <vector>

#include "flash_model/network/flash_network.hpp"
#include "sim/core/component.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/timed_queue.hpp"

namespace zng::flash {

class OnfiChannelNetwork final : private OwnedClock, public FlashNetwork, public Component {
public:
    static ComponentSchema schema();
    OnfiChannelNetwork(Simulator& sim, const std::string& name, const FlashNetworkLayout& layout, const Params& p);

    void attach(uint32_t endpoint, FlashEndpoint* e) override;
    void send(const FlashMessage& m) override;
    bool carries_package_io() const override { return true; }
    uint64_t in_flight() const override { return in_flight_; }

    // Bus transfers (cycles of the bus clock) of a message with `payload` bytes.
    uint32_t transfers(uint32_t payload) const { return (command_bytes_ + payload + width_ - 1) / width_; }
    // Channel a message between these endpoints uses.
    uint32_t channel_of(uint32_t endpoint) const;

private:
    struct Bus {
        RingQueue<FlashMessage> waiting;
        bool busy = false;
    };
    struct Done {
        uint32_t channel;
        FlashMessage m;
    };
    void start(uint32_t channel);
    void finish(Done& d);

    FlashNetworkLayout layout_;
    uint32_t width_ = 1;
    uint32_t command_bytes_ = 7;
    std::vector<FlashEndpoint*> endpoints_;
    std::vector<Bus> buses_;
    TimedQueue<Done> done_;
    uint64_t in_flight_ = 0;
    Counter& messages_;
    Counter& bytes_;
    Counter& busy_ps_;
};

}  // namespace zng::flash
