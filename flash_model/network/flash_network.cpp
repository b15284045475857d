#include "flash_model/network/flash_network.hpp"

#include "flash_model/network/mesh_network.hpp"
#include "flash_model/network/onfi_channel.hpp"

namespace zng::flash {

FlashNetworkSlot& flash_network_slot() {
    static FlashNetworkSlot slot("flash_network");
    return slot;
}

void register_flash_networks() {
    auto& slot = flash_network_slot();
    slot.add(MeshNetwork::schema(), [](const Params& p, Simulator& sim, const std::string& name,
                                       const FlashNetworkLayout& layout) -> std::unique_ptr<FlashNetwork> {
        return std::make_unique<MeshNetwork>(sim, name, layout, p);
    });
    slot.add(OnfiChannelNetwork::schema(), [](const Params& p, Simulator& sim, const std::string& name,
                                              const FlashNetworkLayout& layout) -> std::unique_ptr<FlashNetwork> {
        return std::make_unique<OnfiChannelNetwork>(sim, name, layout, p);
    });
}

}  // namespace zng::flash
