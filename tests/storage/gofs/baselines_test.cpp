// Seed 001's GPUfs and GeminiFS baselines on the storage rig (tests/storage/
// storage_rig.hpp). Costs used: a 4 KiB SSD read's doorbell 0.5 + fetch 1 + device 10,
// its DMA into host memory 1.28 (x4 link) + 0.2 + 0.1 (fabric) = 1.58 us or into GPU
// memory + 0.3 (GPU link) = 1.88 us, completion entry 0.5 + poll 0.1; a host -> GPU copy
// of 4 KiB 0.32 + 0.3 = 0.62 us, of 8 KiB 0.64 + 0.3 = 0.94 us (GPU x16 link, 12.8 GB/s).
#include <gtest/gtest.h>

#include <vector>

#include "../storage_rig.hpp"
#include "storage/gofs/file_offset.hpp"
#include "storage/gofs/geminifs_plane.hpp"
#include "storage/gofs/gpufs_plane.hpp"

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

HostCpuSettings posix_host() {
    HostCpuSettings h;
    h.stack = IoStack::Posix;
    h.posix_cost = 6 * kMicrosecond;
    h.poll_interval = 100 * kNanosecond;
    return h;
}

template <typename Plane>
struct Rig {
    template <typename Settings>
    explicit Rig(const Settings& s)
        : rig(topology(1), nvme(16, 64), fast_device()), cpu(posix_host()), client(rig.sim),
          plane(StoragePath{rig.sim, rig.array, rig.pcie, cpu}, s) {}
    // Submits one warp's requests and runs to completion; returns the completion times
    // of this call's requests, from its start.
    std::vector<Tick> run(std::vector<StorageIo> ios, uint32_t warp = 0) {
        const Tick t0 = rig.sim.now();
        const size_t before = client.done.size();
        plane.submit(StorageIoBatch{0, 0, warp, ios.data(), static_cast<uint32_t>(ios.size())}, client);
        rig.sim.run();
        std::vector<Tick> t;
        for (size_t i = before; i < client.done.size(); ++i) t.push_back(client.done[i].second - t0);
        return t;
    }
    StorageRig rig;
    HostCpu cpu;
    Recorder client;
    Plane plane;
};

StorageIo read(uint64_t file, uint64_t block, uint64_t token = 1) {
    return StorageIo{file_io_offset(file, block * 4096), 0x1000, token, 4096, false};
}

GpufsSettings gpufs() {
    GpufsSettings s;
    s.basic.host.data = PlaneData::HostBounce;
    s.basic.host.threads = 4;
    s.basic.host.round_robin = true;
    s.basic.host.copy_call_cost = 2'460 * kNanosecond;
    s.basic.host.gpu_signal_latency = 1 * kMicrosecond;
    s.basic.host.poll_pickup = true;
    s.basic.host.host_signal_latency = 1 * kMicrosecond;
    return s;
}

TEST(GofsGpufsPlane, AColdReadIsAnRpcToHostF2fsAndACopy) {
    Rig<GpufsPlane> r(gpufs());
    // The call reaches host memory 1 us, the server's loop passes at 1.0 us; pread's
    // 6 us; the SSD read into host memory 0.5 + 1 + 10 + 1.58 + 0.6; the copy call 2.46
    // and its 0.62 us transfer; the completion back 1 us:
    // 1 + 6 + 13.68 + 3.08 + 1 = 24.76 us.
    EXPECT_EQ(r.run({read(0, 3)}), std::vector<Tick>{24'760 * kNanosecond});
    EXPECT_EQ(r.plane.rpcs(), 1u);
    // The page is now in the GPU file cache: the lookup alone, 1.275 us, no SSD read.
    EXPECT_EQ(r.run({read(0, 3, 2)}), std::vector<Tick>{1'275 * kNanosecond});
    EXPECT_EQ(r.plane.cache_hits(), 1u);
    EXPECT_EQ(r.rig.ssd().bytes_read(), 4096u);
    EXPECT_EQ(r.plane.requests(), 2u);
}

}  // namespace
}  // namespace zng::storage::gofs

namespace zng::storage::gofs {
namespace {

GeminifsSettings geminifs() {
    GeminifsSettings s;
    s.file_bytes = 1 << 20;
    s.sqe_write_latency = 400 * kNanosecond;
    s.host_threads = 4;
    return s;
}

TEST(GofsGeminifsPlane, AColdReadOpensThroughTheHostThenReadsAsBam) {
    Rig<GeminifsPlane> r(geminifs());
    // Open: to the host 1 us, the open's 6 us on a host thread, the read of the inode's
    // ext4 inode-table block into host memory 0.5 + 1 + 10 + 1.58 + 0.6 = 13.68 us, the
    // copy call 2.46 and 8 KiB of metadata 0.94 us, back 1 us = 25.08 us; then BaM's
    // read: entry 0.4 + 0.5 + 1 + 10 + 1.88 + 0.6 = 14.38 us. 39.46 us.
    EXPECT_EQ(r.run({read(1, 3)}), std::vector<Tick>{39'460 * kNanosecond});
    EXPECT_EQ(r.plane.opens(), 1u);
    EXPECT_EQ(r.plane.inode_reads(), 1u);
    // Another block of the open file: BaM's read alone; the same block: the page cache.
    EXPECT_EQ(r.run({read(1, 4)}), std::vector<Tick>{14'380 * kNanosecond});
    EXPECT_EQ(r.run({read(1, 4)}), std::vector<Tick>{1'275 * kNanosecond});
    EXPECT_EQ(r.plane.cache_hits(), 1u);
    // The inode block and two 4 KiB reads of file 1's bytes (at 1 x file_size).
    EXPECT_EQ(r.rig.ssd().bytes_read(), 3u * 4096u);
}

TEST(GofsGeminifsPlane, OpensOfFilesWhoseInodesShareABlockWaitForItsOneRead) {
    Rig<GeminifsPlane> r(geminifs());
    // Files 0-3 (inodes in block 0 of 16) from four warps, one host thread each: all four
    // open system calls end at 1 + 6 = 7 us, one read of block 0 ends at 7 + 13.68 =
    // 20.68 us, and every open returns then. Their metadata copies go in turn over the
    // GPU link, calls at 23.14 us: 8 KiB each 0.64 us behind the one before (the 0.3 us
    // latency overlapping), landing at 24.08, 24.72, 25.36 and 26.00 us; back at +1 us;
    // then each warp's BaM read, 14.38 us, the four DMAs 1.28 us apart on the SSD link:
    // 39.46, 40.74, 42.02, 43.30 us.
    std::vector<StorageIo> ios;
    for (uint64_t f = 0; f < 4; ++f) ios.push_back(read(f, 0, f + 1));
    const Tick t0 = r.rig.sim.now();
    for (uint32_t w = 0; w < 4; ++w) r.plane.submit(StorageIoBatch{0, 0, w, &ios[w], 1}, r.client);
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 4u);
    std::vector<Tick> t;
    for (const auto& [token, when] : r.client.done) t.push_back(when - t0);
    EXPECT_EQ(t, (std::vector<Tick>{39'460 * kNanosecond, 40'740 * kNanosecond, 42'020 * kNanosecond,
                                    43'300 * kNanosecond}));
    EXPECT_EQ(r.plane.opens(), 4u);
    EXPECT_EQ(r.plane.inode_reads(), 1u);
    // File 16's inode is in block 1: a read of its own.
    EXPECT_EQ(r.run({read(16, 0, 9)}), std::vector<Tick>{39'460 * kNanosecond});
    EXPECT_EQ(r.plane.inode_reads(), 2u);
}

TEST(GofsGeminifsPlane, AWarpsRequestsGoOneAtATimeOtherWarpsAlongside) {
    Rig<GeminifsPlane> r(geminifs());
    r.run({read(0, 0)});  // opens file 0
    // One warp, two lanes: the second starts when the first completes: 14.38, 28.76.
    EXPECT_EQ(r.run({read(0, 1), read(0, 2)}), (std::vector<Tick>{14'380 * kNanosecond, 28'760 * kNanosecond}));
    // Two warps at once: both go; the second's DMA waits 1.28 us behind the first's on
    // the SSD link: 14.38 and 15.66.
    const Tick t0 = r.rig.sim.now();
    const StorageIo a = read(0, 5), b = read(0, 6);
    r.plane.submit(StorageIoBatch{0, 0, 0, &a, 1}, r.client);
    r.plane.submit(StorageIoBatch{0, 0, 1, &b, 1}, r.client);
    r.rig.sim.run();
    ASSERT_EQ(r.client.done.size(), 5u);
    EXPECT_EQ(r.client.done[3].second - t0, 14'380 * kNanosecond);
    EXPECT_EQ(r.client.done[4].second - t0, 15'660 * kNanosecond);
}

TEST(GofsGeminifsPlane, MetadataBeyondItsMemoryClosesFilesThatReopenAtTheHost) {
    GeminifsSettings s = geminifs();
    s.metadata_memory = 8 << 10;  // room for one open file's 8 KiB
    Rig<GeminifsPlane> r(s);
    r.run({read(0, 0)});
    r.run({read(1, 0)});  // closes file 0
    // File 0 again (a block not in the page cache): the open's 11.4 us once more.
    EXPECT_EQ(r.run({read(0, 1)}), std::vector<Tick>{25'780 * kNanosecond});
    EXPECT_EQ(r.plane.opens(), 3u);
}

}  // namespace
}  // namespace zng::storage::gofs
