// Device `calibrated`: an SSD described by its datasheet rather than its flash. A
// command takes the drive's latency when it is alone; underneath, two ceilings hold
// whatever the load, reads and writes each their own: an IOPS server that takes one
// operation per command (1 / IOPS each), and a bandwidth server that takes the
// command's bytes (bytes / sequential bandwidth). A command is ready at the latest of
// start + latency and the ends of its two reservations, so a drive completes
// min(IOPS, bandwidth / command bytes) commands per second: 4 KiB random commands meet
// the IOPS ceiling and 128 KiB sequential ones the bandwidth ceiling, as the two
// datasheet figures are measured, while a lone command costs the latency. The flash's
// channel x die parallelism is what these ceilings measure; the firmware device models
// it structurally instead.
#pragma once
#include "sim/core/timed_queue.hpp"
#include "storage/bandwidth_server.hpp"
#include "storage/ssd/ssd_device.hpp"

namespace zng::storage {

struct CalibratedSsdSettings {
    Tick read_latency = 0, write_latency = 0;
    double read_iops = 0, write_iops = 0;            // commands per second (datasheet: 4 KiB random)
    double read_bandwidth = 0, write_bandwidth = 0;  // bytes/s (datasheet: 128 KiB sequential)
    uint64_t capacity = 0;
};

class CalibratedSsdDevice final : public SsdDevice {
public:
    static const ComponentSchema& schema();
    static CalibratedSsdSettings read(const Params& p);
    CalibratedSsdDevice(Simulator& sim, const CalibratedSsdSettings& s);

    void start(uint32_t cmd, IoOp op, uint64_t addr, uint64_t bytes) override;
    uint64_t capacity_bytes() const override { return s_.capacity; }
    uint64_t alignment() const override { return 1; }

private:
    struct Side {
        Tick latency;
        BandwidthServer ops;    // "bytes" are commands: its rate is the IOPS
        BandwidthServer bytes;
    };
    Simulator& sim_;
    CalibratedSsdSettings s_;
    Side read_, write_;
    TimedQueue<uint32_t> ready_;
};

}  // namespace zng::storage
