// Control planes: one 4 KiB read through each costs the sum of its stages, and a queue
// pair of depth 1 caps BaM at one request per latency. The storage path is the rig's
// (storage_rig.hpp): 4 KiB read 10 us in the device; NVMe submission 500 ns doorbell +
// 1 us fetch, completion 500 ns entry + 100 ns poll; the data's DMA towards GPU memory
// (cut-through: the slowest link's serialisation plus every latency) = SSD link 1.28 us
// + 200 ns, fabric 100 ns, GPU link 300 ns (its 320 ns serialisation hides under the
// SSD link's) = 1.88 us peer-to-peer; into host DRAM (no limit, no latency) 1.58 us.
#include <gtest/gtest.h>

#include <vector>

#include "storage/control/bam_plane.hpp"
#include "storage/control/cpu_managed_plane.hpp"
#include "storage/control/os_fault_plane.hpp"
#include "storage_rig.hpp"

namespace zng::storage::test {
namespace {

struct Recorder final : StorageIoClient {
    Simulator& sim;
    std::vector<std::pair<uint64_t, Tick>> done;
    uint32_t rooms = 0;
    explicit Recorder(Simulator& s) : sim(s) {}
    void io_done(uint64_t token) override { done.emplace_back(token, sim.now()); }
    void io_room() override { ++rooms; }
};

HostCpuSettings host(IoStack stack = IoStack::Spdk) {
    HostCpuSettings h;
    h.cores = 5;
    h.polling_threads = 1;
    h.stack = stack;
    h.spdk_cost = 500 * kNanosecond;
    h.posix_cost = 6 * kMicrosecond;
    h.poll_interval = 300 * kNanosecond;
    return h;
}

struct PlaneRig {
    explicit PlaneRig(uint32_t ssds = 1, uint32_t queues = 4, uint32_t depth = 64, IoStack stack = IoStack::Spdk)
        : rig(topology(ssds), nvme(queues, depth), fast_device()), cpu(host(stack)), client(rig.sim) {}
    StoragePath path() { return StoragePath{rig.sim, rig.array, rig.pcie, cpu}; }
    // One warp's batch of `n` 4 KiB reads at offsets 0, 4096, ... into adjacent buffers.
    void submit(ControlPlane& plane, uint32_t n, uint32_t warp = 0) {
        std::vector<StorageIo> ios(n);
        for (uint32_t i = 0; i < n; ++i) ios[i] = StorageIo{uint64_t{i} * 4096, 0x1000 + uint64_t{i} * 4096, i, 4096, false};
        ASSERT_TRUE(plane.can_submit(n, client));
        plane.submit(StorageIoBatch{0, 0, warp, ios.data(), n}, client);
    }
    StorageRig rig;
    HostCpu cpu;
    Recorder client;
};

TEST(ControlPlane, BamOneReadIsTheSumOfItsStages) {
    PlaneRig r;
    BamSettings s;
    s.sqe_write_latency = 400 * kNanosecond;
    BamPlane plane(r.path(), s);
    r.submit(plane, 1);
    r.rig.sim.run();
    // SQE write 0.4 + doorbell 0.5 + fetch 1 + device 10 + DMA 1.88 + CQE 0.5 + poll 0.1 = 14.38 us.
    ASSERT_EQ(r.client.done.size(), 1u);
    EXPECT_EQ(r.client.done[0].second, 14'380 * kNanosecond);
    EXPECT_EQ(plane.in_flight(), 0u);
}

TEST(ControlPlane, OnlyBamThreadsPoll) {
    // BaM's waiting threads poll their completion entries every poll_interval (default
    // 425 ns = 600 cycles at 1.41 GHz); CAM's are told by the completion flag.
    PlaneRig r;
    const BamSettings s = BamSettings::read(Params(nullptr, BamSettings::schema(), "storage.control_plane"));
    EXPECT_EQ(s.poll_interval, 425 * kNanosecond);
    BamPlane bam(r.path(), s);
    EXPECT_EQ(bam.poll_interval(), 425 * kNanosecond);
    CpuManagedPlane cam(r.path(), CpuManagedSettings{});
    EXPECT_EQ(cam.poll_interval(), 0u);
}

TEST(ControlPlane, CamOneReadIsTheSumOfItsStages) {
    PlaneRig r;
    CpuManagedSettings s;
    s.gpu_signal_latency = 1 * kMicrosecond;
    s.poll_pickup = true;
    s.data = PlaneData::PeerToPeer;
    s.host_signal_latency = 1 * kMicrosecond;
    CpuManagedPlane plane(r.path(), s);
    r.submit(plane, 1);
    r.rig.sim.run();
    // LBAs + flag reach host memory at 1 us; the polling thread's next pass at a
    // multiple of 300 ns: 1.2 us; SPDK command 0.5 -> 1.7; NVMe 1.5 + 10 + DMA 1.88 +
    // 0.6 = 13.98 -> 15.68; completion flag to the GPU 1 us -> 16.68 us.
    ASSERT_EQ(r.client.done.size(), 1u);
    EXPECT_EQ(r.client.done[0].second, 16'680 * kNanosecond);
    // No copy and no host DRAM traffic: data peer-to-peer.
    EXPECT_EQ(plane.copies(), 0u);
    EXPECT_EQ(r.rig.pcie.host_memory_bytes_written(), 0u);
}

TEST(ControlPlane, OsFaultPageInIsTheSumOfItsStages) {
    // The fault handler's read of one 4 KiB page into host DRAM: NVMe 1.5 + device 10 +
    // DMA into host DRAM 1.58 + completion 0.6 = 13.68 us (no per-command CPU cost: the
    // handler's is the translator's, per batch); its copy over the GPU link: 0.32 + 0.3
    // -> 14.30 us.
    PlaneRig r;
    OsFaultPlane plane(r.path(), OsFaultSettings{});
    Tick read_done = 0;
    plane.read(0, 4096, [&](IoRequest&) { read_done = r.rig.sim.now(); });
    r.rig.sim.run();
    EXPECT_EQ(read_done, 13'680 * kNanosecond);
    EXPECT_EQ(plane.host_to_gpu(read_done, 4096, 0), 14'300 * kNanosecond);
    // The page passed through host DRAM: written by the SSD's DMA, read by the copy.
    EXPECT_EQ(r.rig.pcie.host_memory_bytes_written(), 4096u);
    EXPECT_EQ(r.rig.pcie.host_memory_bytes_read(), 4096u);
    // GPU-issued I/O has no place on the fault path.
    StorageIo io{0, 0x1000, 0, 4096, false};
    EXPECT_THROW(plane.submit(StorageIoBatch{0, 0, 0, &io, 1}, r.client), SimError);
}

TEST(ControlPlane, CamSizesItsPoolBetweenAQuarterAndHalfTheSsds) {
    // 8 SSDs: ceil(8/2) = 4 threads before any batch; after a batch whose I/O took
    // longer than the (zero) compute before it, still 4.
    PlaneRig r(8);
    CpuManagedSettings s;
    CpuManagedPlane plane(r.path(), s);
    EXPECT_EQ(plane.threads(), 4u);
    r.submit(plane, 1);
    r.rig.sim.run();
    EXPECT_EQ(plane.threads(), 4u);
    // A batch submitted 1 ms after the last one completed: its I/O (13.98 us) hides
    // under that compute, so the pool shrinks to ceil(8/4) = 2.
    struct Later : Event {
        PlaneRig& r;
        ControlPlane& plane;
        Later(PlaneRig& r, ControlPlane& p) : Event("later"), r(r), plane(p) {}
        void process() override { r.submit(plane, 1); }
    } later(r, plane);
    r.rig.sim.schedule(later, r.rig.sim.now() + 1000 * kMicrosecond);
    r.rig.sim.run();
    EXPECT_EQ(plane.threads(), 2u);
}

TEST(ControlPlane, SpdkBouncesThroughHostMemoryAndCopiesEachRun) {
    PlaneRig r;
    CpuManagedSettings s;
    s.data = PlaneData::HostBounce;
    s.copy_call_cost = 2 * kMicrosecond;
    CpuManagedPlane plane(r.path(), s);
    r.submit(plane, 1);
    r.rig.sim.run();
    // SPDK command 0.5 + NVMe 1.5 + 10 + DMA into host DRAM 1.58 + 0.6 = 14.18 us;
    // copy call 2 -> 16.18; host DRAM -> GPU link 0.32 + 0.3 -> 16.80 us.
    ASSERT_EQ(r.client.done.size(), 1u);
    EXPECT_EQ(r.client.done[0].second, 16'800 * kNanosecond);
    // The bounce costs host DRAM twice: written by the SSD's DMA, read by the copy.
    EXPECT_EQ(r.rig.pcie.host_memory_bytes_written(), 4096u);
    EXPECT_EQ(r.rig.pcie.host_memory_bytes_read(), 4096u);
    EXPECT_EQ(plane.copies(), 1u);
}

TEST(ControlPlane, PosixPaysTheKernelStackPerCommand) {
    PlaneRig r(1, 4, 64, IoStack::Posix);
    CpuManagedSettings s;
    s.data = PlaneData::HostBounce;
    s.copy_call_cost = 2 * kMicrosecond;
    CpuManagedPlane plane(r.path(), s);
    r.submit(plane, 1);
    r.rig.sim.run();
    // As SPDK with the 6 us POSIX command instead of 0.5 us: 16.80 + 5.5 = 22.30 us.
    ASSERT_EQ(r.client.done.size(), 1u);
    EXPECT_EQ(r.client.done[0].second, 22'300 * kNanosecond);
}

TEST(ControlPlane, GdsCallsAreSynchronousPerThread) {
    // One thread, synchronous calls of 20 us each around the 0.5 us SPDK-stack command,
    // data peer-to-peer. Request 0: call ends at 0.5 + 20 = 20.5 us, NVMe 13.98 ->
    // 34.48 us. Request 1 waits for it: 34.48 + 20.5 + 13.98 = 68.96 us.
    PlaneRig r;
    CpuManagedSettings s;
    s.threads = 1;
    s.call_cost = 20 * kMicrosecond;
    s.synchronous_calls = true;
    CpuManagedPlane plane(r.path(), s);
    r.submit(plane, 2);
    r.rig.sim.run();
    // The batch completes (and is seen, host_signal 0) with its last request.
    ASSERT_EQ(r.client.done.size(), 2u);
    EXPECT_EQ(r.client.done[1].second, 68'960 * kNanosecond);
}

TEST(ControlPlane, ContiguousDestinationsShareOneCopy) {
    // Four adjacent 4 KiB buffers are one run: one copy call of 16 KiB.
    PlaneRig r;
    CpuManagedSettings s;
    s.data = PlaneData::HostBounce;
    CpuManagedPlane plane(r.path(), s);
    r.submit(plane, 4);
    r.rig.sim.run();
    EXPECT_EQ(plane.copies(), 1u);
    EXPECT_EQ(r.client.done.size(), 4u);
}

TEST(ControlPlane, BamQueueDepthOneCapsAtOneRequestPerLatency) {
    // One SSD, one queue pair of depth 1: the four requests of a warp follow one
    // another, each taking the NVMe part of the path, 13.98 us, after the 0.4 us entry
    // write: the last completes at 0.4 + 4 x 13.98 = 56.32 us.
    PlaneRig r(1, 1, 1);
    BamSettings s;
    s.sqe_write_latency = 400 * kNanosecond;
    BamPlane plane(r.path(), s);
    r.submit(plane, 4);
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 4u);
    EXPECT_EQ(r.client.done[0].second, 14'380 * kNanosecond);
    EXPECT_EQ(r.client.done[3].second, 56'320 * kNanosecond);
}

TEST(ControlPlane, RefusesBeyondItsBoundAndCallsTheWaiterBack) {
    PlaneRig r;
    BamSettings s;
    s.max_in_flight = 32;
    BamPlane plane(r.path(), s);
    r.submit(plane, 32);
    EXPECT_FALSE(plane.can_submit(1, r.client));
    r.rig.sim.run();
    EXPECT_GE(r.client.rooms, 1u);
    EXPECT_TRUE(plane.can_submit(32, r.client));
}

}  // namespace
}  // namespace zng::storage::test
