// The calibrated device's two ceilings, computed by hand: the IOPS server takes one
// operation per command, the bandwidth server the command's bytes, and a lone command
// costs the drive's latency.
#include <gtest/gtest.h>

#include <vector>

#include "sim/core/simulator.hpp"
#include "storage/ssd/calibrated_ssd_device.hpp"

namespace zng::storage {
namespace {

constexpr uint64_t k4KiB = 4096;
constexpr uint64_t k8KiB = 8192;
constexpr uint64_t k128KiB = 131072;

// Round figures so that every occupancy is a whole number of nanoseconds:
// 200K IOPS -> 5 us per command; 2.048 GB/s -> 4 KiB in 2 us, 128 KiB in 64 us;
// reads 1M IOPS -> 1 us, 4.096 GB/s -> 128 KiB in 32 us.
CalibratedSsdSettings round_drive() {
    CalibratedSsdSettings s;
    s.read_latency = 80 * kMicrosecond;
    s.write_latency = 20 * kMicrosecond;
    s.read_iops = 1e6;
    s.write_iops = 2e5;
    s.read_bandwidth = 4.096e9;
    s.write_bandwidth = 2.048e9;
    s.capacity = uint64_t{1} << 40;
    return s;
}

// Starts `n` commands of `bytes` at tick 0, back to back in the address space, and
// returns every command's completion tick in issue order.
std::vector<Tick> burst(const CalibratedSsdSettings& s, IoOp op, uint32_t n, uint64_t bytes) {
    Simulator sim;
    CalibratedSsdDevice dev(sim, s);
    std::vector<Tick> done(n, 0);
    dev.set_done([&](uint32_t cmd) { done[cmd] = sim.now(); });
    for (uint32_t i = 0; i < n; ++i) dev.start(i, op, uint64_t{i} * bytes, bytes);
    sim.run();
    return done;
}

double bytes_per_second(uint64_t bytes, Tick t) { return static_cast<double>(bytes) / ticks_to_seconds(t); }

TEST(CalibratedSsdDevice, LoneCommandCostsItsLatency) {
    // 4 KiB write: latency 20 us against 5 us (IOPS) and 2 us (bandwidth) -> 20 us.
    EXPECT_EQ(burst(round_drive(), IoOp::Write, 1, k4KiB)[0], 20 * kMicrosecond);
    // 128 KiB read: latency 80 us against 1 us (IOPS) and 32 us (bandwidth) -> 80 us.
    EXPECT_EQ(burst(round_drive(), IoOp::Read, 1, k128KiB)[0], 80 * kMicrosecond);
}

TEST(CalibratedSsdDevice, SequentialLargeWritesSaturateAtTheBandwidthCeiling) {
    // 100 x 128 KiB writes at once: the k-th leaves the bandwidth server at k x 64 us and
    // the IOPS server at k x 5 us (one operation each), so the last is done at 6,400 us:
    // 100 x 131,072 B / 6.4 ms = 2.048 GB/s, the bandwidth. (Charged per 4 KiB, each
    // would be 32 operations = 160 us, and the last done at 16,000 us: 0.8192 GB/s.)
    const std::vector<Tick> done = burst(round_drive(), IoOp::Write, 100, k128KiB);
    EXPECT_EQ(done[0], 64 * kMicrosecond);  // max(20 us latency, 5 us, 64 us)
    EXPECT_EQ(done[99], 6400 * kMicrosecond);
    EXPECT_DOUBLE_EQ(bytes_per_second(100 * k128KiB, done[99]), 2.048e9);
}

TEST(CalibratedSsdDevice, RandomSmallWritesSaturateAtTheIopsCeiling) {
    // 100 x 4 KiB writes at once: the k-th leaves the IOPS server at k x 5 us and the
    // bandwidth server at k x 2 us; the first waits for the 20 us latency, the 4th on
    // (20 us) are IOPS-bound, the last done at 500 us: 200K commands per second.
    const std::vector<Tick> done = burst(round_drive(), IoOp::Write, 100, k4KiB);
    EXPECT_EQ(done[0], 20 * kMicrosecond);
    EXPECT_EQ(done[4], 25 * kMicrosecond);
    EXPECT_EQ(done[99], 500 * kMicrosecond);
    EXPECT_DOUBLE_EQ(100 / ticks_to_seconds(done[99]), 2e5);
}

TEST(CalibratedSsdDevice, MidSizeCommandsMeetTheLowerOfTheTwoCeilings) {
    // 8 KiB writes: 5 us per command on the IOPS server, 4 us on the bandwidth server:
    // IOPS-bound, 100 done at 500 us (200K x 8 KiB = 1.6384 GB/s, below 2.048 GB/s).
    EXPECT_EQ(burst(round_drive(), IoOp::Write, 100, k8KiB)[99], 500 * kMicrosecond);
    // 16 KiB writes: 5 us against 8 us: bandwidth-bound, 100 done at 800 us.
    EXPECT_EQ(burst(round_drive(), IoOp::Write, 100, 2 * k8KiB)[99], 800 * kMicrosecond);
}

TEST(CalibratedSsdDevice, ReadsAndWritesHaveTheirOwnCeilings) {
    // 10 x 128 KiB reads (32 us each on the read bandwidth server; latency 80 us) and
    // 10 x 128 KiB writes (64 us each on the write one) at once: reads end at
    // max(80, k x 32) us -> the 10th at 320 us; writes at k x 64 us -> the 10th at 640 us.
    Simulator sim;
    CalibratedSsdDevice dev(sim, round_drive());
    std::vector<Tick> done(20, 0);
    dev.set_done([&](uint32_t cmd) { done[cmd] = sim.now(); });
    for (uint32_t i = 0; i < 10; ++i) {
        dev.start(i, IoOp::Read, uint64_t{i} * k128KiB, k128KiB);
        dev.start(10 + i, IoOp::Write, uint64_t{i} * k128KiB, k128KiB);
    }
    sim.run();
    EXPECT_EQ(done[0], 80 * kMicrosecond);
    EXPECT_EQ(done[9], 320 * kMicrosecond);
    EXPECT_EQ(done[19], 640 * kMicrosecond);
}

TEST(CalibratedSsdDevice, Pm1725WritesItsSequentialBandwidthNotIopsTimes4KiB) {
    // configs/fragments/ssd_samsung_pm1725.yaml: 180K random write IOPS, 2.6 GB/s
    // sequential write. A 128 KiB command occupies the bandwidth server
    // ceil(131,072 B / 2.6 GB/s) = ceil(50,412,307.7 ps) = 50,412,308 ps and the IOPS
    // server ceil(1 / 180K s) = 5,555,556 ps: 100 of them end at 100 x 50,412,308 ps =
    // 5,041,230,800 ps, 2.6 GB/s (to the rounding), not 180K x 4 KiB = 737 MB/s.
    CalibratedSsdSettings s;
    s.read_latency = 90 * kMicrosecond;
    s.write_latency = 20 * kMicrosecond;
    s.read_iops = 1e6;
    s.write_iops = 1.8e5;
    s.read_bandwidth = 6.2e9;
    s.write_bandwidth = 2.6e9;
    s.capacity = uint64_t{1600} * 1000 * 1000 * 1000;
    const Tick last = burst(s, IoOp::Write, 100, k128KiB)[99];
    EXPECT_EQ(last, Tick{5'041'230'800});
    EXPECT_NEAR(bytes_per_second(100 * k128KiB, last), 2.6e9, 2.6e9 * 1e-6);
}

}  // namespace
}  // namespace zng::storage
