// One NVMe SSD: a command's time is the sum of its stages, and a queue pair holds at
// most queue_depth commands.
#include <gtest/gtest.h>

#include "tests/storage/storage_rig.hpp"

namespace zng::storage::test {
namespace {

TEST(NvmeSsd, OneReadCostsTheSumOfItsStages) {
    StorageRig rig(topology(1), nvme(1, 8), fast_device());
    IoRequest seen;
    rig.ssd().submit(read_4k(0, [&](IoRequest& r) { seen = r; }));
    rig.sim.run();
    // Submission: doorbell 500 ns + command fetch 1 us = 1.5 us.
    EXPECT_EQ(seen.fetched, 1500 * kNanosecond);
    // Device: the 10 us read latency (IOPS and bandwidth far from binding).
    EXPECT_EQ(seen.device_done, 11500 * kNanosecond);
    // Transfer, cut-through: the SSD's x4 link at 3.2 GB/s carries 4096 B in 1.28 us,
    // then the link's 200 ns, the fabric's 100 ns and the GPU link's 300 ns (its 320 ns
    // of serialisation overlaps the SSD link's): 1.88 us. Completion: entry write
    // 500 ns + poll 100 ns. Total 1.5 + 10 + 1.88 + 0.6 = 13.98 us.
    EXPECT_EQ(seen.completed, 13980 * kNanosecond);
    EXPECT_EQ(rig.dma.bytes_written(), 4096u);
    EXPECT_EQ(rig.pcie.host_memory_bytes_written(), 0u);  // peer-to-peer: host DRAM untouched
}

TEST(NvmeSsd, OneWriteOverlapsItsDataTransferWithTheDevice) {
    StorageRig rig(topology(1), nvme(1, 8), fast_device());
    Tick done = 0;
    IoRequest w = read_4k(8, [&](IoRequest& r) { done = r.completed; });
    w.op = IoOp::Write;
    rig.ssd().submit(std::move(w));
    rig.sim.run();
    // Fetched at 1.5 us; data GPU -> SSD ends 1.5 + 1.88 = 3.38 us, inside the device's
    // 20 us write latency: done at 1.5 + 20 = 21.5 us, completion +0.6 = 22.1 us.
    EXPECT_EQ(done, 22100 * kNanosecond);
    EXPECT_EQ(rig.dma.bytes_read(), 4096u);
    EXPECT_EQ(rig.ssd().bytes_written(), 4096u);
}

TEST(NvmeSsd, CommandBeyondTheQueueDepthWaitsForACompletion) {
    StorageRig rig(topology(1), nvme(2, 2), fast_device());
    std::vector<Tick> done;
    auto record = [&](IoRequest& r) { done.push_back(r.completed); };
    NvmeSsd& ssd = rig.ssd();
    ssd.submit(read_4k(0, record));
    ssd.submit(read_4k(8, record));
    EXPECT_FALSE(ssd.can_submit(0));  // depth 2 reached on queue pair 0
    EXPECT_TRUE(ssd.can_submit(1));   // the other queue pair is empty
    EXPECT_THROW(ssd.submit(read_4k(16, record)), SimError);
    // The third command goes in when a completion frees a slot of queue 0.
    Tick third_submitted = 0;
    ssd.set_on_room([&](uint32_t q) {
        if (q != 0 || third_submitted) return;
        third_submitted = rig.sim.now();
        ssd.submit(read_4k(16, record));
    });
    rig.sim.run();
    ASSERT_EQ(done.size(), 3u);
    // First: 13.98 us (the stages above). Second: ready with the first at 11.5 us but
    // the SSD link is busy until 12.78 us: its 1.28 us end 1.28 us later, 15.26 us.
    EXPECT_EQ(done[0], 13980 * kNanosecond);
    EXPECT_EQ(done[1], 15260 * kNanosecond);
    // Third: submitted at the first completion, 13.98 us, then a whole lone read.
    EXPECT_EQ(third_submitted, 13980 * kNanosecond);
    EXPECT_EQ(done[2], 13980 * kNanosecond + 13980 * kNanosecond);
}

TEST(NvmeSsd, InterruptCompletionCostsTheInterruptInsteadOfThePoll) {
    NvmeSettings n = nvme(1, 8);
    n.notice = CompletionNotice::Interrupt;
    n.interrupt_latency = 2 * kMicrosecond;
    StorageRig rig(topology(1), n, fast_device());
    Tick done = 0;
    rig.ssd().submit(read_4k(0, [&](IoRequest& r) { done = r.completed; }));
    rig.sim.run();
    // 13.98 us - 100 ns poll + 2 us interrupt.
    EXPECT_EQ(done, 15880 * kNanosecond);
}

TEST(NvmeSsd, UnalignedOrOutOfRangeCommandsAreErrors) {
    StorageRig rig(topology(1), nvme(1, 8), fast_device());
    IoRequest odd = read_4k(0, nullptr);
    odd.bytes = 1000;  // not whole 512 B blocks
    EXPECT_THROW(rig.ssd().submit(std::move(odd)), SimError);
    // 1 GiB = 2,097,152 blocks: the last 4 KiB starts at block 2,097,144.
    EXPECT_NO_THROW(rig.ssd().submit(read_4k(2097144, nullptr)));
    EXPECT_THROW(rig.ssd().submit(read_4k(2097145, nullptr)), SimError);
}

}  // namespace
}  // namespace zng::storage::test
