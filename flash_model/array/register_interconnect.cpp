#include "flash_model/array/register_interconnect.hpp"

#include <algorithm>
#include <vector>

#include "flash_model/array/flash_package.hpp"

namespace zng::flash {

RegisterInterconnectSlot& register_interconnect_slot() {
    static RegisterInterconnectSlot slot("flash_register_interconnect");
    return slot;
}

namespace {

class FullyConnected final : public RegisterInterconnect {
public:
    explicit FullyConnected(Simulator& sim) : sim_(sim) {}
    void migrate(FlashPackage& pkg, uint32_t, uint32_t, uint32_t, uint32_t txn) override {
        pkg.migration_done_at(txn, sim_.now());  // point-to-point wires: no extra time
    }

private:
    Simulator& sim_;
};

// Each plane group's data register is the end of a local-network link; a move holds
// both ends for page / width cycles, and moves between disjoint pairs run in parallel.
class NetworkInFlash final : private OwnedClock, public RegisterInterconnect {
public:
    NetworkInFlash(Simulator& sim, uint32_t planes, uint64_t clock_hz, uint32_t width)
        : OwnedClock(ClockDomain("nif", clock_hz)), sim_(sim), width_(width), free_at_(planes, 0) {}
    void migrate(FlashPackage& pkg, uint32_t from, uint32_t to, uint32_t bytes, uint32_t txn) override {
        Tick start = own_clock.next_edge(std::max({sim_.now(), free_at_[from], free_at_[to]}));
        Tick end = own_clock.edge_after(start, (bytes + width_ - 1) / width_);
        free_at_[from] = free_at_[to] = end;
        pkg.migration_done_at(txn, end);
    }

private:
    Simulator& sim_;
    uint32_t width_;
    std::vector<Tick> free_at_;
};

class SoftwareNetwork final : public RegisterInterconnect {
public:
    void migrate(FlashPackage& pkg, uint32_t, uint32_t, uint32_t, uint32_t txn) override {
        pkg.migrate_through_controller(txn);
    }
};

const auto kNifWidth =
    Param<param_kind::Size>("width", "8B", "local-network width (Table I: HW-NiF 8 B)").range(1, 1 << 16);
const auto kNifClock =
    Param<param_kind::Frequency>("clock", "800MHz", "local-network clock (assumption: the interface rate)").min(1);

}  // namespace

void register_register_interconnects() {
    auto& slot = register_interconnect_slot();
    slot.add({"", "fcnet", "fully connected registers, I/O ports and planes (Fig. 9a): remote moves cost nothing",
              {}, {}},
             [](const Params&, Simulator& sim, uint32_t) { return std::make_unique<FullyConnected>(sim); });
    slot.add({"",
              "nif",
              "Network-in-Flash (Fig. 9b): per plane an I/O bus and a data bus; remote moves cross the local network "
              "between data registers",
              {kNifWidth, kNifClock},
              {}},
             [](const Params& p, Simulator& sim, uint32_t planes) {
                 return std::make_unique<NetworkInFlash>(sim, planes, p[kNifClock],
                                                         static_cast<uint32_t>(p[kNifWidth]));
             });
    slot.add({"", "swnet",
              "software (Fig. 8c): the controller copies a page out through an I/O port and the flash network and back "
              "into the remote register",
              {}, {}},
             [](const Params&, Simulator&, uint32_t) { return std::make_unique<SoftwareNetwork>(); });
}

}  // namespace zng::flash
