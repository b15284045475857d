// The gofs control plane on the storage rig (tests/storage/storage_rig.hpp): one 4 KiB
// read costs SQE write 0.4 + doorbell 0.5 + fetch 1 + device 10 + DMA 1.88 + CQE 0.5 +
// poll 0.1 = 14.38 us; an 8 KiB read's DMA is 8192 B over the 3.2 GB/s SSD link
// (2.56 us) + 200 + 100 + 300 ns = 3.16 us, so 15.66 us. The file system: a 2 MiB node
// area, then 511 segments of the 1 GiB SSD; 1 directory with 2 files of 1 MiB.
#include <gtest/gtest.h>

#include <vector>

#include "../storage_rig.hpp"
#include "sim/config/config_node.hpp"
#include "sim/core/errors.hpp"
#include "storage/gofs/file_offset.hpp"
#include "storage/gofs/gofs_plane.hpp"

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

struct GofsRig {
    GofsRig() : rig(topology(1), nvme(16, 64), fast_device()), cpu(HostCpuSettings{}), client(rig.sim) {
        GofsSettings s;
        s.listing = {1, 2, 1 << 20};
        s.node_area = 2 << 20;
        s.metadata_cache = 1 << 20;
        s.sqe_write_latency = 400 * kNanosecond;
        plane = std::make_unique<GofsPlane>(StoragePath{rig.sim, rig.array, rig.pcie, cpu}, s);
    }
    void submit(std::vector<StorageIo> ios, uint16_t sm = 0) {
        plane->submit(StorageIoBatch{0, sm, 0, ios.data(), static_cast<uint32_t>(ios.size())}, client);
    }
    static StorageIo read(uint64_t file, uint64_t off, uint32_t bytes, uint64_t token) {
        return StorageIo{file_io_offset(file, off), 0x1000, token, bytes, false};
    }
    StorageRig rig;
    HostCpu cpu;
    Recorder client;
    std::unique_ptr<GofsPlane> plane;
};

TEST(GofsPlane, AColdReadPaysTheLaunchAndItsMetadataReadsInTurn) {
    GofsRig r;
    r.submit({GofsRig::read(0, 0, 4096, 1)});
    r.rig.sim.run();
    // Launch 9.2 + open /d0/f0 (root dentry, d0 inode, d0 dentry, f0 inode: 4 reads,
    // each needing the one before) + the data read = 9.2 + 5 x 14.38 = 81.1 us.
    ASSERT_EQ(r.client.done.size(), 1u);
    EXPECT_EQ(r.client.done[0].second, 81'100 * kNanosecond);
    EXPECT_EQ(r.plane->metadata_reads(), 4u);
    // Block 1 of the same file: its pointer is in the cached inode: 9.2 + 14.38.
    const Tick t0 = r.rig.sim.now();
    r.submit({GofsRig::read(0, 4096, 4096, 2)});
    r.rig.sim.run();
    EXPECT_EQ(r.client.done[1].second - t0, 23'580 * kNanosecond);
    EXPECT_EQ(r.plane->metadata_reads(), 4u);
}

TEST(GofsPlane, AWriteOverlappingAReadSerialisesOnTheRangeLock) {
    GofsRig r;
    r.submit({GofsRig::read(0, 0, 4096, 0)});  // opens the file
    r.rig.sim.run();
    const Tick t0 = r.rig.sim.now();
    // Read [0, 8K), then a write of [4K, 8K): the write waits for the read's 9.2 +
    // 15.66 = 24.86 us, then writes alone at the log head: entry 0.4 + doorbell 0.5 +
    // fetch 1 + device 20 (its DMA into the SSD ends inside it) + 0.6 = 22.5 us, so
    // 24.86 + 22.5 = 47.36 us.
    StorageIo write = GofsRig::read(0, 4096, 4096, 2);
    write.write = true;
    r.submit({GofsRig::read(0, 0, 8192, 1), write});
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 3u);
    EXPECT_EQ(r.client.done[1].second - t0, 24'860 * kNanosecond);
    EXPECT_EQ(r.client.done[2].second - t0, 47'360 * kNanosecond);
    EXPECT_EQ(r.plane->lock_waits(), 1u);
}

TEST(GofsPlane, OverlappingReadsShareTheRangeLock) {
    GofsRig r;
    r.submit({GofsRig::read(0, 0, 4096, 0)});
    r.rig.sim.run();
    const Tick t0 = r.rig.sim.now();
    // [0, 8K) and [4K, 8K) read together: no wait; the 4 KiB one is done by 9.2 +
    // 14.38 + the 8 KiB one's 2.56 us on the SSD link at most = 26.14 us, not 39.24.
    r.submit({GofsRig::read(0, 0, 8192, 1), GofsRig::read(0, 4096, 4096, 2)});
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 3u);
    EXPECT_EQ(r.plane->lock_waits(), 0u);
    EXPECT_LE(r.client.done[2].second - t0, 26'140 * kNanosecond);
}

TEST(GofsPlane, DisjointRequestsDoNotWait) {
    GofsRig r;
    r.submit({GofsRig::read(0, 0, 4096, 0)});
    r.rig.sim.run();
    const Tick t0 = r.rig.sim.now();
    r.submit({GofsRig::read(0, 0, 8192, 1), GofsRig::read(0, 8192, 4096, 2)});
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 3u);
    EXPECT_EQ(r.plane->lock_waits(), 0u);
    // Both in flight together: the 4 KiB one is done well before 39.24 us.
    EXPECT_LT(r.client.done[2].second - t0, 30'000 * kNanosecond);
}

TEST(GofsPlane, ARandomWriteGoesToTheIssuingSmsLogHead) {
    GofsRig r;
    // The files' 2 x 256 blocks fill segment 0; free segments 1..510 are dealt
    // round-robin to 108 SMs, so SM 3's first is segment 4: block 4 x 512 = 2048.
    r.submit({StorageIo{file_io_offset(1, 5 * 4096), 0x1000, 1, 4096, true}}, 3);
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 1u);
    EXPECT_EQ(r.plane->log().lookup(1, 5), 2048u);
    EXPECT_EQ(r.plane->log().valid(0), 511u);
    EXPECT_EQ(r.rig.ssd().bytes_written(), 4096u);
}

TEST(GofsPlane, ARequestOutsideTheFilesIsAnError) {
    GofsRig r;
    EXPECT_THROW(r.submit({GofsRig::read(2, 0, 4096, 1)}), SimError);      // only files 0 and 1
    EXPECT_THROW(r.submit({GofsRig::read(0, 1 << 20, 4096, 1)}), SimError);  // past the 1 MiB file
}

}  // namespace
}  // namespace zng::storage::gofs

namespace zng::storage::gofs {
namespace {

uint32_t reserved(const std::string& control_plane) {
    const ConfigNode root = parse_config_text("storage:\n  control_plane:\n" + control_plane, "test.yaml");
    return GofsSettings::reserved_sms_of(root.find("storage"), "storage");
}

TEST(GofsPlane, SyncModeHoldsItsPollingSmsAsyncOnlyTheDaemons) {
    // Seed 001: up to 16 of 108 SMs in sync mode; the daemon's single SM in async mode.
    EXPECT_EQ(reserved("    type: gofs\n"), 16u);
    EXPECT_EQ(reserved("    type: gofs\n    polling_sms: 8\n"), 8u);
    EXPECT_EQ(reserved("    type: gofs\n    mode: async\n"), 1u);
    EXPECT_EQ(reserved("    type: bam\n"), 0u);
    EXPECT_THROW(reserved("    type: gofs\n    mode: sometimes\n"), ConfigError);
}

}  // namespace
}  // namespace zng::storage::gofs

namespace zng::storage::gofs {
namespace {

TEST(GofsPlane, AWriteWaitsForTheForegroundGcItTriggers) {
    // 18 MiB formatted: a 2 MiB node area and 8 segments; GC keeps max(2, ceil(5% x 8))
    // = 2 free. One file of 6 segments fills 0..5; SM 0 is dealt segment 6, SM 1 7.
    StorageRig rig(topology(1), nvme(16, 64), fast_device());
    HostCpu cpu(HostCpuSettings{});
    Recorder client(rig.sim);
    GofsSettings s;
    s.listing = {1, 1, 6ull * 2 << 20};
    s.node_area = 2 << 20;
    s.capacity = 18 << 20;
    GofsPlane plane(StoragePath{rig.sim, rig.array, rig.pcie, cpu}, s);
    auto write = [](uint64_t block, uint64_t token) {
        return StorageIo{file_io_offset(0, block * 4096), 0x1000, token, 4096, true};
    };
    // 412 overwrites of segment 0's blocks and 100 of segment 1's fill segment 6.
    std::vector<StorageIo> ios;
    for (uint64_t b = 0; b < 412; ++b) ios.push_back(write(b, b));
    for (uint64_t b = 512; b < 612; ++b) ios.push_back(write(b, b));
    plane.submit(StorageIoBatch{0, 0, 0, ios.data(), 512}, client);
    rig.sim.run();
    EXPECT_EQ(plane.log().valid(0), 100u);
    EXPECT_EQ(plane.log().valid(1), 412u);
    // Block 3000 from SM 0 needs a segment with 1 free: GC moves segment 0's 100 valid
    // blocks, then segment 1's 412, into segment 7, trims both, and the write lands at
    // the head of segment 0.
    const StorageIo last = write(3000, 9999);
    plane.submit(StorageIoBatch{0, 0, 0, &last, 1}, client);
    rig.sim.run();
    EXPECT_EQ(plane.log().lookup(0, 3000), 0u);
    EXPECT_EQ(plane.log().gc_runs(), 2u);
    EXPECT_EQ(plane.log().valid(7), 512u);
    // The SSD saw 512 + 1 data writes and 512 GC writes; 512 GC reads and 6 metadata
    // reads (open: 4; block 3000 is past the inode's 923 + 2 x 1018 pointers, under
    // indirect node 0 and its direct node: 2).
    EXPECT_EQ(rig.ssd().bytes_written(), (512u + 512u + 1u) * 4096u);
    EXPECT_EQ(rig.ssd().bytes_read(), (512u + 6u) * 4096u);
    EXPECT_EQ(plane.metadata_reads(), 6u);
    ASSERT_EQ(client.done.size(), 513u);
    EXPECT_EQ(client.done.back().first, 9999u);
}

}  // namespace
}  // namespace zng::storage::gofs
