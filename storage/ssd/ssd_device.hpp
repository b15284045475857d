// What sits behind an NVMe SSD's queues: the device model that turns a fetched command
// into the time its data is ready (a read: in the controller, ready to DMA out; a
// write: accepted, in the buffer or programmed). Implementations are chosen in YAML
// (`device: {type: ...}`) from the `ssd_device` slot:
//   calibrated  latency plus IOPS and bandwidth ceilings from a drive's datasheet;
//   firmware    the FirmwareSsd controller (embedded cores, page FTL, DRAM buffer) over
//               the flash model's channels and dies, as Hetero's SSD has always been.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "sim/config/registry.hpp"
#include "storage/io_request.hpp"

namespace zng {
class Simulator;
}
namespace zng::flash {
class FlashOpExecutor;
}

namespace zng::storage {

class SsdDevice {
public:
    // `cmd` is the NVMe SSD's command slot, handed back when the device is done with it.
    using Done = std::function<void(uint32_t cmd)>;
    virtual ~SsdDevice() = default;
    void set_done(Done d) { done_ = std::move(d); }

    // Starts a fetched command on `bytes` at byte `addr` of the device.
    virtual void start(uint32_t cmd, IoOp op, uint64_t addr, uint64_t bytes) = 0;
    virtual uint64_t capacity_bytes() const = 0;
    // Commands must start on a multiple of this (the firmware's flash page).
    virtual uint64_t alignment() const = 0;

protected:
    Done done_;
};

struct SsdDeviceContext {
    std::string stats_name;                 // prefix of the device's statistics
    flash::FlashOpExecutor* flash = nullptr;  // the firmware device's flash (tests); null: built from config
};

using SsdDeviceSlot = Slot<SsdDevice, Simulator&, const SsdDeviceContext&>;
SsdDeviceSlot& ssd_device_slot();

}  // namespace zng::storage
