// The flash side of a platform, reusable by every flash back end: one controller per
// channel, the flash network between controllers and packages (mesh or ONFI buses,
// chosen in YAML), and the packages. Demand requests enter through accept(); firmware
// and GC operations through submit() (FlashOpExecutor). The zng_flash back end wraps
// it; an SSD model (HybridGPU, Hetero's NVMe SSD) can build one with the onfi_bus
// network and drive it with FlashOps from its firmware FTL.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flash_model/controller/flash_controller.hpp"
#include "flash_model/array/flash_package.hpp"
#include "flash_model/flash_transaction.hpp"

namespace zng::flash {

struct FlashBackboneSettings {
    std::string name = "flash";                 // stats prefix
    const ConfigNode* network = nullptr;        // `type:` mesh | onfi_bus
    std::string network_path = "network";
    std::string default_network = "mesh";
    const ConfigNode* scheduler = nullptr;      // `type:` fifo | read_priority
    std::string scheduler_path = "scheduler";
    uint64_t controller_clock_hz = 1'200'000'000;
    ControllerSettings controller;

    // Parameters a back end adds to its schema to configure its backbone, and the
    // reader of their values.
    static std::vector<ParamSpec> params();
    static FlashBackboneSettings read(const Params& p, const std::string& name);
};

class FlashBackbone final : private OwnedClock, public FlashOpExecutor {
public:
    FlashBackbone(Simulator& sim, const FlashSpec& spec, const FlashBackboneSettings& s);
    ~FlashBackbone() override;

    // Demand request for r->paddr (decoded with the geometry). False: the channel's
    // controller is full; `room` (set_room_callback) is called when it frees.
    bool accept(MemRequest* r);
    void set_room_callback(std::function<void()> f);
    void set_log_block_map(LogBlockMap* m) { shared_.log_map = m; }

    // FlashOpExecutor
    const FlashGeometry& geometry() const override { return shared_.spec.geometry; }
    void submit(FlashOp op) override;
    void set_block_erased(const FlashAddress& block) override;
    // Also re-addresses the demand and eviction transactions still in flight for `from`
    // (writes parked on the merged log block among them): the merge freed `from`, and
    // their data now belongs to `to`.
    void block_moved(const FlashAddress& from, const FlashAddress& to) override;
    uint32_t erase_count(const FlashAddress& block) const override { return shared_.blocks.erase_count(block); }
    FlashAddress newest_copy(const FlashAddress& data_page) const override;
    bool page_programmed(const FlashAddress& page) const override { return shared_.blocks.page_programmed(page); }

    const FlashSpec& spec() const { return shared_.spec; }
    const BlockStateTable& blocks() const { return shared_.blocks; }
    FlashNetwork& network() { return *network_; }
    FlashController& controller(uint32_t c) { return *controllers_.at(c); }
    FlashPackage& package(uint32_t flat) { return *packages_.at(flat); }
    FlashPackage& package_of(const FlashAddress& a) { return package(shared_.spec.geometry.package_index(a)); }
    const FlashPackage& package_of(const FlashAddress& a) const {
        return *packages_.at(shared_.spec.geometry.package_index(a));
    }
    uint32_t controllers() const { return static_cast<uint32_t>(controllers_.size()); }
    const ClockDomain& interface_clock() const { return own_clock; }

    // Demand requests and firmware operations not yet answered (posted writes are answered).
    uint64_t in_flight() const;
    uint64_t bytes_sensed() const { return shared_.c.bytes_sensed->get(); }
    uint64_t bytes_programmed() const { return shared_.c.bytes_programmed->get(); }
    const FlashCounters& counters() const { return shared_.c; }
    // Packages whose thrashing checker currently asks for L2 redirection.
    uint32_t thrashing_packages() const { return shared_.thrashing_packages; }
    // (Programs from registers + pages still dirty in registers) / distinct pages written.
    double write_redundancy() const;

private:
    FlashShared shared_;
    ClockDomain controller_clock_;
    std::unique_ptr<FlashNetwork> network_;
    std::vector<std::unique_ptr<FlashController>> controllers_;
    std::vector<std::unique_ptr<FlashPackage>> packages_;
};

}  // namespace zng::flash
