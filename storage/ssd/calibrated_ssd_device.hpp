// Device `calibrated`: an SSD described by its datasheet rather than its flash. A
// command takes the drive's latency when it is alone; underneath, two ceilings hold
// whatever the load: commands pass an IOPS server (one 4 KiB operation per 1 / IOPS)
// and a bandwidth server (bytes / sequential bandwidth), reads and writes each their
// own. A command is ready at the latest of start + latency and the ends of its two
// reservations, so a drive saturates at min(IOPS x 4 KiB, bandwidth) while a lone
// command costs the latency. The flash's channel x die parallelism is what these
// ceilings measure; the firmware device models it structurally instead.
#pragma once
#include "sim/core/timed_queue.hpp"
#include "storage/bandwidth_server.hpp"
#include "storage/ssd/ssd_device.hpp"

namespace zng::storage {

struct CalibratedSsdSettings {
    Tick read_latency = 0, write_latency = 0;
    double read_iops = 0, write_iops = 0;            // 4 KiB operations per second
    double read_bandwidth = 0, write_bandwidth = 0;  // bytes/s
    uint64_t capacity = 0;
    static constexpr uint64_t kOpBytes = 4096;      // the granule datasheet IOPS are quoted in
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
        BandwidthServer ops;    // "bytes" are 4 KiB operations: its rate is the IOPS
        BandwidthServer bytes;
    };
    Simulator& sim_;
    CalibratedSsdSettings s_;
    Side read_, write_;
    TimedQueue<uint32_t> ready_;
};

}  // namespace zng::storage
