#include "storage/ssd/calibrated_ssd_device.hpp"

#include <algorithm>

namespace zng::storage {
namespace {
using namespace param_kind;
// Defaults: the Intel D7-P5510 3.84 TB of seed 000's testbed (Table III: "12 x 3.84TB
// Intel P5510"), from Intel's product specification. Seed 000 (II-C) quotes the same
// two latencies for it with read and write swapped ("a random read latency of 15
// microseconds and a random write latency of 82 microseconds [49]"); the read is the
// slower one on a TLC drive (sensing a TLC page alone takes tens of microseconds,
// while writes are acknowledged from the controller's buffer).
const Param<Time> kReadLatency{"read_latency", "82us", "4 KiB random read latency, QD1 (Intel P5510 specification)"};
const Param<Time> kWriteLatency{"write_latency", "15us",
                                "4 KiB random write latency, QD1 (Intel P5510 specification)"};
const auto kReadIops =
    Param<Real>("read_iops", "700000",
                "read commands per second, the datasheet's 4 KiB random read IOPS (Intel P5510 3.84 TB: 700K)")
        .min(1);
const auto kWriteIops =
    Param<Real>("write_iops", "170000",
                "write commands per second, the datasheet's 4 KiB random write IOPS (Intel P5510 3.84 TB: 170K)")
        .min(1);
const auto kReadBandwidth =
    Param<Bandwidth>("read_bandwidth", "6500MB/s", "sequential read bandwidth (Intel P5510 3.84 TB: 6500 MB/s)")
        .min(1);
const auto kWriteBandwidth =
    Param<Bandwidth>("write_bandwidth", "3400MB/s", "sequential write bandwidth (Intel P5510 3.84 TB: 3400 MB/s)")
        .min(1);
const auto kCapacity = Param<Size>("capacity", "3840GB", "user capacity (Intel P5510: 3.84 TB)").min(4096);
}  // namespace

const ComponentSchema& CalibratedSsdDevice::schema() {
    static const ComponentSchema s{
        .slot = "ssd_device",
        .name = "calibrated",
        .description = "SSD from its datasheet: lone-command latency, and IOPS and bandwidth ceilings that hold "
                       "under load (reads and writes each their own).",
        .params = {kReadLatency, kWriteLatency, kReadIops, kWriteIops, kReadBandwidth, kWriteBandwidth, kCapacity},
        .ports = {}};
    return s;
}

CalibratedSsdSettings CalibratedSsdDevice::read(const Params& p) {
    CalibratedSsdSettings s;
    s.read_latency = p[kReadLatency];
    s.write_latency = p[kWriteLatency];
    s.read_iops = p[kReadIops];
    s.write_iops = p[kWriteIops];
    s.read_bandwidth = p[kReadBandwidth];
    s.write_bandwidth = p[kWriteBandwidth];
    s.capacity = p[kCapacity];
    return s;
}

CalibratedSsdDevice::CalibratedSsdDevice(Simulator& sim, const CalibratedSsdSettings& s)
    : sim_(sim), s_(s), read_{s.read_latency, BandwidthServer(s.read_iops, 0), BandwidthServer(s.read_bandwidth, 0)},
      write_{s.write_latency, BandwidthServer(s.write_iops, 0), BandwidthServer(s.write_bandwidth, 0)},
      ready_(sim, [this](uint32_t& c) { done_(c); }, "ssd-calibrated") {}

// Datasheets quote the two ceilings with different commands: random performance as IOPS
// of 4 KB commands, sequential performance as MB/s of 128 KB commands (Intel's P5510
// specification measures its random read/write IOPS with 4 KB transfers and its
// sequential read/write with 128 KB ones; Samsung's PM1725a and 990 PRO datasheets
// likewise quote "4KB" random IOPS and "128KB" sequential MB/s). The IOPS figure is a
// rate of commands, each a 4 KiB one: charging it per 4 KiB of a larger command would
// make a 128 KiB sequential write 32 random ones and cap a drive at IOPS x 4 KiB (a
// PM1725's 180K x 4 KiB = 737 MB/s, not its 2.6 GB/s). So every command takes one
// operation and its bytes take the bandwidth server; nothing else changes with the
// command's size. A command under 4 KiB is still one operation (a drive's mapping
// unit is 4 KiB and no datasheet quotes faster IOPS below it), one above 128 KiB is
// bandwidth-bound as a 128 KiB one is. Between 4 and 128 KiB the datasheet gives no
// figure, and the model takes the lower of its two ceilings, min(IOPS x bytes,
// bandwidth); it knows no access pattern (the address is unused), so it does not model
// the garbage collection that makes a full drive's small random writes slower than its
// sequential ones beyond what the 4 KiB random-write IOPS already says.
void CalibratedSsdDevice::start(uint32_t cmd, IoOp op, uint64_t, uint64_t bytes) {
    Side& side = op == IoOp::Write ? write_ : read_;
    const Tick now = sim_.now();
    const Tick ready = std::max({now + side.latency, side.ops.transfer(now, 1), side.bytes.transfer(now, bytes)});
    ready_.push(cmd, ready);
}

}  // namespace zng::storage
