// Throughput with many commands outstanding caps at the smallest of: SSDs x the
// per-SSD rate, queue depth / command latency, and the PCIe link.
#include <gtest/gtest.h>

#include "tests/storage/storage_rig.hpp"

namespace zng::storage::test {
namespace {

// Keeps every SSD's queue pair 0 full of 4 KiB reads (a new one at each completion)
// until `total` have been issued; returns the tick of the last completion.
Tick closed_loop(StorageRig& rig, uint32_t total) {
    uint32_t issued = 0;
    Tick last = 0;
    std::function<void(uint32_t)> fill = [&](uint32_t ssd) {
        NvmeSsd& s = rig.ssd(ssd);
        while (issued < total && s.can_submit(0)) {
            s.submit(read_4k(uint64_t{issued} * 8 % (uint64_t{1} << 21), [&](IoRequest& r) { last = r.completed; }));
            ++issued;
        }
    };
    for (uint32_t i = 0; i < rig.array.size(); ++i) {
        rig.ssd(i).set_on_room([&fill, i](uint32_t) { fill(i); });
    }
    // Round-robin start so that every SSD gets work at once.
    for (uint32_t i = 0; i < rig.array.size(); ++i) fill(i);
    rig.sim.run();
    return last;
}

double gbps(uint64_t bytes, Tick t) { return static_cast<double>(bytes) / (static_cast<double>(t) / kSecond) / 1e9; }

TEST(StorageThroughput, CapsAtTheSsdsRate) {
    // 2 SSDs at 100K IOPS each (4 KiB): 2 x 100K x 4096 B = 0.8192 GB/s. Queue depth
    // 64 / 13.98 us x 4096 B = 18.75 GB/s per SSD and the 12.8 GB/s GPU link are far.
    CalibratedSsdSettings d = fast_device();
    d.read_iops = 100000;
    StorageRig rig(topology(2), nvme(1, 64), d);
    const Tick last = closed_loop(rig, 2000);
    // Per SSD 1000 reads: the IOPS server ends the k-th at 1.5 us + k x 10 us, the 1000th
    // at 10,001.5 us, on both SSDs at once: the two reads cross their own SSD links
    // together but share the GPU link, so the second leaves 320 ns after the first:
    // + 1.88 + 0.32 us, then the 0.6 us completion.
    EXPECT_EQ(last, 10001500 * kNanosecond + 2800 * kNanosecond);
    EXPECT_NEAR(gbps(2000 * 4096, last), 0.8192, 0.8192 * 0.001);
}

TEST(StorageThroughput, CapsAtQueueDepthOverLatency) {
    // One SSD, one queue pair of depth 4, each command 13.98 us alone: 4 x 4096 B per
    // 13.98 us = 1.172 GB/s; the device and the links are far faster.
    StorageRig rig(topology(1), nvme(1, 4), fast_device());
    const Tick last = closed_loop(rig, 400);
    // The four of the first wave leave the SSD link 1.28 us apart (13.98, 15.26, 16.54,
    // 17.82 us); each is replaced at its completion and no later command waits again:
    // the k-th round of slot i ends at k x 13.98 + i x 1.28 us; the 100th of slot 3 at
    // 1398 + 3.84 = 1401.84 us.
    EXPECT_EQ(last, 1401840 * kNanosecond);
    EXPECT_NEAR(gbps(400 * 4096, last), 4 * 4096 / 13.98e-6 / 1e9, 0.01);
}

TEST(StorageThroughput, CapsAtTheGpuLink) {
    // 4 SSDs, each behind a 3.2 GB/s x4 link (12.8 GB/s together), queue depth 64, and
    // a GPU link of x4 = 3.2 GB/s: the GPU link is the smallest.
    StorageRig rig(topology(4, 4), nvme(1, 64), fast_device());
    const Tick last = closed_loop(rig, 4000);
    // 4000 x 4096 B at 3.2 GB/s = 5.12 ms of GPU-link time; the link is busy all of it
    // and only the first command's 13.98 us less its 1.28 us on the link come before.
    EXPECT_EQ(rig.pcie.gpu_link_down().busy_time(), 4000 * 1280 * kNanosecond);
    EXPECT_NEAR(gbps(4000 * 4096, last), 3.2, 3.2 * 0.01);
    EXPECT_GE(last, 4000 * 1280 * kNanosecond);
}

}  // namespace
}  // namespace zng::storage::test
