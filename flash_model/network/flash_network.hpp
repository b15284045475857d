// The network between flash controllers and flash packages (slot "flash_network"):
// ZnG's 2D mesh (mesh_network.hpp) or the bus-based ONFI channel of conventional SSDs
// (onfi_channel.hpp), both usable by any flash back end.
//
// Endpoints are numbered: controller c is endpoint c (0 <= c < controllers), package k
// (flat index channel * packages_per_channel + package) is endpoint controllers + k.
// A message carries `payload` bytes plus the network's header and is delivered whole to
// the destination endpoint's receive(). send() never refuses: contention and
// back-pressure inside the network delay delivery, and senders bound what they have in
// flight by their own credits (a controller's per-plane command credits, a package's
// registers), as hardware does.
//
// API for other back ends (e.g. an SSD model): build one with flash_network_slot().create
// (section, path, "onfi_bus", sim, name, layout), attach() an endpoint for every
// controller and package, then send(). carries_package_io() tells the package model
// whether the network's transfer already is the package I/O transfer (a bus channel is
// the package's I/O pins) or whether the package's I/O ports are a separate stage (mesh).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/registry.hpp"
#include "sim/core/simulator.hpp"

namespace zng::flash {

struct FlashMessage {
    uint32_t src = 0;
    uint32_t dst = 0;
    uint32_t payload = 0;  // bytes of data carried (0 for a bare command or acknowledgement)
    uint32_t tag = 0;      // owner's identifier (a transaction index)
    uint8_t kind = 0;      // owner's message kind
};

class FlashEndpoint {
public:
    virtual ~FlashEndpoint() = default;
    virtual void receive(const FlashMessage& m) = 0;
};

struct FlashNetworkLayout {
    uint32_t controllers = 1;
    // Channel (= controller) of each package, by flat package index.
    std::vector<uint32_t> package_channel;
    uint32_t endpoints() const { return controllers + static_cast<uint32_t>(package_channel.size()); }
};

class FlashNetwork {
public:
    virtual ~FlashNetwork() = default;
    virtual void attach(uint32_t endpoint, FlashEndpoint* e) = 0;
    virtual void send(const FlashMessage& m) = 0;
    virtual bool carries_package_io() const = 0;
    // Messages sent and not yet delivered (for end-of-run invariants).
    virtual uint64_t in_flight() const = 0;
};

using FlashNetworkSlot = Slot<FlashNetwork, Simulator&, const std::string&, const FlashNetworkLayout&>;
FlashNetworkSlot& flash_network_slot();
void register_flash_networks();

}  // namespace zng::flash
