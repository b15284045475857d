// The basic plane (seed 001's Basic baseline) on the storage rig (tests/storage/
// storage_rig.hpp): writes to the file enter the host plane one per write_lock_hold.
#include <gtest/gtest.h>

#include <vector>

#include "../storage_rig.hpp"
#include "sim/core/timed_queue.hpp"
#include "storage/gofs/basic_plane.hpp"
#include "storage/gofs/file_offset.hpp"

namespace zng::storage::gofs {
namespace {
using namespace zng::storage::test;

struct Recorder final : StorageIoClient {
    Simulator& sim;
    std::vector<std::pair<uint64_t, Tick>> done;
    explicit Recorder(Simulator& s) : sim(s) {}
    void io_done(uint64_t token) override { done.emplace_back(token, sim.now()); }
    void io_room() override {}
};

struct BasicRig {
    explicit BasicRig(Tick transform_cost = 0) : rig(topology(1), nvme(16, 64), fast_device()), cpu([] {
        HostCpuSettings h;
        h.stack = IoStack::Posix;
        h.posix_cost = 6 * kMicrosecond;
        return h;
    }()), client(rig.sim) {
        BasicSettings s;
        s.host.data = PlaneData::HostBounce;
        s.host.threads = 4;
        s.host.round_robin = true;  // the posix default: requests go to the threads in turn
        s.host.copy_call_cost = 2'460 * kNanosecond;
        s.write_lock_hold = 3'720 * kNanosecond;
        s.transform_cost = transform_cost;
        plane = std::make_unique<BasicPlane>(StoragePath{rig.sim, rig.array, rig.pcie, cpu}, s);
    }
    void run_pair(bool write) {
        std::vector<StorageIo> ios{{0, 0x1000, 7, 4096, write}, {1 << 20, 0x2000, 8, 4096, write}};
        plane->submit(StorageIoBatch{0, 0, 0, ios.data(), 2}, client);
        rig.sim.run();
    }
    StorageRig rig;
    HostCpu cpu;
    Recorder client;
    std::unique_ptr<BasicPlane> plane;
};

TEST(GofsBasicPlane, WritesToTheFileSerialiseOnTheInodeLock) {
    BasicRig r;
    r.run_pair(true);
    // The first write holds the lock 3.72 us before entering; the second enters 3.72 us
    // later and otherwise meets no busy resource (its 2.46 us copy and 1.28 us SSD-link
    // transfer are over by then): it completes exactly 3.72 us after the first.
    ASSERT_EQ(r.client.done.size(), 2u);
    EXPECT_EQ(r.client.done[0].first, 7u);  // the issuer's tokens come back
    EXPECT_EQ(r.client.done[1].first, 8u);
    EXPECT_EQ(r.client.done[1].second - r.client.done[0].second, 3'720 * kNanosecond);
    EXPECT_EQ(r.plane->lock_waits(), 1u);
}

TEST(GofsBasicPlane, ReadsTakeNoLock) {
    BasicRig r;
    r.run_pair(false);
    ASSERT_EQ(r.client.done.size(), 2u);
    EXPECT_EQ(r.plane->lock_waits(), 0u);
    // Two threads issue them together; the single copying thread takes them in turn.
    EXPECT_LT(r.client.done[1].second - r.client.done[0].second, 3'720 * kNanosecond);
}

// A lone 4 KiB read into host memory on a rig of its own: the cold open's wait for
// its inode, measured independently of the plane.
Tick lone_host_read() {
    StorageRig rig(topology(1), nvme(16, 64), fast_device());
    IoRequest r = read_4k(0, nullptr);
    r.memory = IoMemory::Host;
    Tick at = 0;
    r.done = [&](IoRequest&) { at = rig.sim.now(); };
    rig.array.submit(std::move(r));
    rig.sim.run();
    return at;
}

TEST(GofsBasicPlane, BatchedOpensRunOnTheThreadsSideBySideCreatesOneAfterAnother) {
    BasicRig r;
    // batch_open of 8 cold files: the 4 threads take them in turn, each a 6 us system
    // call and then the wait for its inode's 4 KiB read: two rounds. The first round's
    // four reads cross the SSD's link (4096 B in 1.28 us) one after another, so the
    // fourth thread starts its second file 3 x 1.28 us late; in the second round the
    // threads arrive 1.28 us apart and nothing waits.
    StorageIo open{batch_io_offset(BatchCall::Open, 0, 8), 0, 5, 0, false};
    r.plane->submit(StorageIoBatch{0, 0, 0, &open, 1}, r.client);
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 1u);
    const Tick link = 1'280 * kNanosecond;
    EXPECT_EQ(r.client.done[0],
              std::make_pair(uint64_t{5}, 2 * (6 * kMicrosecond + lone_host_read()) + 3 * link));
    EXPECT_EQ(r.plane->opens(), 8u);
    EXPECT_EQ(r.plane->inode_reads(), 8u);
    EXPECT_EQ(r.rig.ssd().bytes_read(), 8u * 4096u);
    // Opened again, their inodes are in the host's page cache: two rounds of 6 us.
    Tick t0 = r.rig.sim.now();
    r.plane->submit(StorageIoBatch{0, 0, 0, &open, 1}, r.client);
    r.rig.sim.run();
    EXPECT_EQ(r.client.done[1].second - t0, 12 * kMicrosecond);
    EXPECT_EQ(r.plane->inode_reads(), 8u);
    // Creating 3 files in one directory: each create holds the directory's inode lock,
    // so 3 x 6 us = 18 us although 4 threads are free.
    t0 = r.rig.sim.now();
    StorageIo create{batch_io_offset(BatchCall::Create, 8, 3), 0, 6, 0, true};
    r.plane->submit(StorageIoBatch{0, 0, 0, &create, 1}, r.client);
    r.rig.sim.run();
    EXPECT_EQ(r.client.done[2].second - t0, 18 * kMicrosecond);
    EXPECT_EQ(r.plane->creates(), 3u);
}

TEST(GofsBasicPlane, ABatchReadIsOneReadPerFileAndCompletesWithTheLast) {
    BasicRig r;
    // 4 files of 8 KiB: 4 reads of 8 KiB at 8 KiB x file (files 2..5), one call done.
    StorageIo read{batch_io_offset(BatchCall::Data, 2, 4), 0x10000, 9, 4 * 8192, false};
    r.plane->submit(StorageIoBatch{0, 0, 0, &read, 1}, r.client);
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 1u);
    EXPECT_EQ(r.client.done[0].first, 9u);
    EXPECT_EQ(r.rig.ssd().bytes_read(), 4u * 8192u);
    EXPECT_EQ(r.plane->lock_waits(), 0u);
}

// A host-transform batch_read of `files` files of `bytes` each from file 0 on, run to
// its end; returns when the call completed.
Tick host_transform_read(BasicRig& r, uint64_t files, uint32_t bytes) {
    StorageIo read{batch_io_offset(BatchCall::HostTransform, 0, files), 0, 3, static_cast<uint32_t>(files * bytes),
                   false};
    r.plane->submit(StorageIoBatch{0, 0, 0, &read, 1}, r.client);
    r.rig.sim.run();
    EXPECT_EQ(r.client.done.size(), 1u);
    return r.client.done.empty() ? 0 : r.client.done[0].second;
}

TEST(GofsBasicPlane, HostTransformReadsAreBoundByTheCoresWhenTheTransformDominates) {
    // 8 files of 4 KiB on the 4 threads, 1 ms of transform each: 8 ms of CPU time on 4
    // cores, 2 ms. The threads' preads (6 us each, two per thread, reserved at t = 0)
    // start files 0-3 at 6 us; their 4 KiB reads cross the SSD's link one after another
    // (1.28 us each), so file 3 arrives at 6 us + a lone read + 3 x 1.28 us. Each arrival
    // takes the core free first: files 0-3 cores 0-3, files 4-7 (arrived long before
    // 1 ms) the same cores after them; core 3 ends last, 2 ms after file 3 arrived.
    BasicRig r(kMillisecond);
    const Tick done = host_transform_read(r, 8, 4096);
    const Tick link = 1'280 * kNanosecond;
    EXPECT_EQ(done, 6 * kMicrosecond + lone_host_read() + 3 * link + 2 * kMillisecond);
    EXPECT_EQ(r.client.done[0].first, 3u);
    EXPECT_EQ(r.plane->transforms(), 8u);
    EXPECT_EQ(r.cpu.busy_time(), 8 * 6 * kMicrosecond);  // the preads; transforms are not commands
    EXPECT_EQ(r.rig.ssd().bytes_read(), 8u * 4096u);
    // The data stays in host memory: nothing crosses the GPU's link.
    EXPECT_EQ(r.rig.pcie.gpu_link_down().busy_time(), 0u);
}

TEST(GofsBasicPlane, HostTransformsOverlapTheReadsOfLaterFiles) {
    // 8 files of 1 MiB: each read holds the SSD's link 1 MiB / 3.2 GB/s = 327.68 us, so
    // the files arrive at least that far apart, and a 100 us transform ends before the
    // next file arrives. All but the last file's transform hide behind the reads: the
    // call takes the reads' time plus 100 us, not plus the 800 us of CPU time.
    BasicRig reads_only(0);
    const Tick reads = host_transform_read(reads_only, 8, 1 << 20);
    EXPECT_GT(reads, 8 * 327'680 * kNanosecond);
    BasicRig r(100 * kMicrosecond);
    EXPECT_EQ(host_transform_read(r, 8, 1 << 20), reads + 100 * kMicrosecond);
    EXPECT_EQ(r.plane->transforms(), 8u);
}

TEST(GofsBasicPlane, SystemCallsPreemptATransformAndLengthenIt) {
    // 4 files of 4 KiB at t = 0 take the 4 cores from their arrival (file 3 at 6 us + a
    // lone read + 3 x 1.28 us, as above) for 1 ms each. At 100 us 4 more files are read:
    // their preads (6 us, threads 0-3 in turn) run at once on the transforming cores and
    // their data arrives long before 1 ms, so the first transforms end 6 us late and the
    // next four follow them at once: the first call is done at file 3's arrival + 1 ms +
    // 6 us, the second 1 ms later. Had the preads waited for the transforms, the second
    // call would also wait for the reads.
    BasicRig r(kMillisecond);
    StorageIo first{batch_io_offset(BatchCall::HostTransform, 0, 4), 0, 1, 4 * 4096, false};
    StorageIo second{batch_io_offset(BatchCall::HostTransform, 4, 4), 0, 2, 4 * 4096, false};
    TimedQueue<int> later(r.rig.sim, [&](int&) { r.plane->submit(StorageIoBatch{0, 0, 0, &second, 1}, r.client); },
                          "test-later");
    r.plane->submit(StorageIoBatch{0, 0, 0, &first, 1}, r.client);
    later.push(0, 100 * kMicrosecond);
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 2u);
    const Tick file3 = 6 * kMicrosecond + lone_host_read() + 3 * 1'280 * kNanosecond;
    EXPECT_EQ(r.client.done[0], std::make_pair(uint64_t{1}, file3 + kMillisecond + 6 * kMicrosecond));
    EXPECT_EQ(r.client.done[1], std::make_pair(uint64_t{2}, file3 + 2 * kMillisecond + 6 * kMicrosecond));
    EXPECT_EQ(r.plane->transforms(), 8u);
}

TEST(GofsBasicPlane, HostTransformWritesGoFromHostMemory) {
    BasicRig r(kMillisecond);
    // 4 files of 4 KiB from file 10 on: one pwrite each, nothing copied from the GPU and
    // nothing transformed (the transform belongs to the read).
    StorageIo write{batch_io_offset(BatchCall::HostTransform, 10, 4), 0x10000, 4, 4 * 4096, true};
    r.plane->submit(StorageIoBatch{0, 0, 0, &write, 1}, r.client);
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 1u);
    EXPECT_EQ(r.client.done[0].first, 4u);
    EXPECT_EQ(r.rig.ssd().bytes_written(), 4u * 4096u);
    EXPECT_EQ(r.rig.pcie.gpu_link_up().busy_time(), 0u);
    EXPECT_EQ(r.plane->transforms(), 0u);
    EXPECT_EQ(r.plane->lock_waits(), 0u);
}

}  // namespace
}  // namespace zng::storage::gofs
