// The cache_vol control plane (storage/cache_vol/cache_vol_plane.hpp) on the storage rig
// (tests/storage/storage_rig.hpp). The cache level is host memory at 2 GB/s unless a
// test says otherwise, so that every stage is a bandwidth server with round numbers:
// 2,000,000 B take 1 ms in the cache level, 2 ms at 1 GB/s, 0.5 ms at 4 GB/s.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "../storage_rig.hpp"
#include "sim/core/timed_queue.hpp"
#include "storage/cache_vol/cache_vol_plane.hpp"
#include "storage/cache_vol/file_close.hpp"

namespace zng::storage::cache_vol {
namespace {
using namespace zng::storage::test;

constexpr uint32_t kBytes = 2'000'000;
constexpr Tick kMs = kMillisecond;

struct Recorder final : StorageIoClient {
    Simulator& sim;
    std::vector<std::pair<uint64_t, Tick>> done;
    std::function<void(uint64_t)> then;  // what the issuer does next, on a completion
    explicit Recorder(Simulator& s) : sim(s) {}
    void io_done(uint64_t token) override {
        done.emplace_back(token, sim.now());
        if (then) then(token);
    }
    void io_room() override {}
};

CacheVolSettings settings() {
    CacheVolSettings s;
    s.level = CacheLevel::HostMemory;
    s.host_memory_bandwidth = 2e9;
    s.capacity = uint64_t{1} << 30;
    s.pfs_write = {8e9, 0, 8, 1};  // 8 nodes: 1 GB/s each
    s.pfs_read = {8e9, 0, 8, 1};
    s.network = {4e9, 0, 1, 1};
    s.migration_threads = 1;
    s.chunk_size = 2 << 20;  // offset 0: chunk 0, offset 2 MiB: chunk 1
    return s;
}

struct CacheVolRig {
    explicit CacheVolRig(const CacheVolSettings& s)
        : rig(topology(1), nvme(16, 64), fast_device()),
          cpu([] {
              HostCpuSettings h;
              h.stack = IoStack::Posix;
              h.posix_cost = 6 * kMicrosecond;
              return h;
          }()),
          client(rig.sim),
          plane(StoragePath{rig.sim, rig.array, rig.pcie, cpu}, s),
          later(rig.sim, [](std::function<void()>& f) { f(); }) {}
    void io(uint64_t token, uint64_t offset, uint32_t bytes, bool write) {
        const StorageIo one{offset, 0x1000, token, bytes, write};
        plane.submit(StorageIoBatch{0, 0, 0, &one, 1}, client);
    }
    void close(uint64_t token, uint64_t file) { io(token, close_io_offset(file), kCloseBytes, false); }
    void at(Tick t, std::function<void()> f) { later.push(std::move(f), t); }
    Tick done_at(uint64_t token) const {
        for (const auto& [tok, t] : client.done)
            if (tok == token) return t;
        ADD_FAILURE() << "request " << token << " did not complete";
        return 0;
    }
    StorageRig rig;
    HostCpu cpu;
    Recorder client;
    CacheVolPlane plane;
    TimedQueue<std::function<void()>> later;
};

TEST(CacheVolPlane, AWriteOverlappedWithALongerComputeCostsOnlyTheNodeLocalWrite) {
    CacheVolRig r(settings());
    r.io(1, 0, kBytes, true);
    // Staged 0-1 ms (2 MB at 2 GB/s): the write returns at 1 ms. Its migration reads the
    // cache 1-2 ms and writes the PFS at this node's 8 / 8 = 1 GB/s, 2-4 ms. A 5 ms
    // compute phase from 1 ms ends at 6 ms, after it: the close returns at once.
    r.at(6 * kMs, [&] { r.close(2, 0); });
    r.rig.sim.run();
    EXPECT_EQ(r.done_at(1), 1 * kMs);
    EXPECT_EQ(r.done_at(2), 6 * kMs);
    EXPECT_EQ(r.plane.close_wait_sum(), 0);
    EXPECT_EQ(r.plane.staged_bytes(), kBytes);
    EXPECT_EQ(r.plane.migrated_bytes(), kBytes);
    // The close dropped the dataset's cache (III-C).
    EXPECT_FALSE(r.plane.space().holds(0));
}

TEST(CacheVolPlane, CloseWaitsForItsFilesPendingMigration) {
    CacheVolRig r(settings());
    r.io(1, 0, kBytes, true);
    // No compute: the close comes when the write returns (1 ms) and waits for the
    // migration's end at 4 ms (as above): 3 ms of waiting.
    r.at(1 * kMs, [&] { r.close(2, 0); });
    r.rig.sim.run();
    EXPECT_EQ(r.done_at(2), 4 * kMs);
    EXPECT_EQ(r.plane.close_wait_sum(), 3 * kMs);
    EXPECT_EQ(r.plane.pending(0), 0u);
}

TEST(CacheVolPlane, ACloseDoesNotWaitForOtherFilesMigrations) {
    CacheVolRig r(settings());
    r.io(1, gofs::file_io_offset(1, 0), kBytes, true);  // file 1: migrating until 4 ms
    r.at(1 * kMs, [&] { r.close(2, 0); });             // file 0 has nothing pending
    r.rig.sim.run();
    EXPECT_EQ(r.done_at(2), 1 * kMs);
}

TEST(CacheVolPlane, MigrationsRunOneAtATimePerThreadFirstInFirstOut) {
    CacheVolRig r(settings());
    r.io(1, 0, kBytes, true);
    r.io(2, 4 << 20, kBytes, true);
    // Staging shares the cache level: writes done at 1 and 2 ms. One thread: task 1
    // reads the cache 2-3 ms (the level is busy with write 2 until 2 ms), writes the PFS
    // 3-5 ms; task 2 then reads 5-6 ms and writes the PFS 6-8 ms. The close waits to 8 ms.
    r.at(2 * kMs, [&] { r.close(3, 0); });
    r.rig.sim.run();
    EXPECT_EQ(r.done_at(1), 1 * kMs);
    EXPECT_EQ(r.done_at(2), 2 * kMs);
    EXPECT_EQ(r.done_at(3), 8 * kMs);
}

TEST(CacheVolPlane, DirectModeWritesThePfsAtTheNodesShareUnderContention) {
    CacheVolSettings s = settings();
    s.direct = true;
    s.pfs_write = {8e9, 100 * kMicrosecond, 8, 2};
    CacheVolRig r(s);
    r.io(1, 0, kBytes, true);
    r.rig.sim.run();
    // 8 GB/s over 8 nodes, halved by other jobs: 0.5 GB/s, 2 MB in 4 ms, + 0.1 ms latency.
    EXPECT_EQ(r.done_at(1), 4 * kMs + 100 * kMicrosecond);
    EXPECT_EQ(r.plane.staged_bytes(), 0u);
}

TEST(CacheVolPlane, AWriteThatDoesNotFitTheCacheGoesToThePfs) {
    CacheVolSettings s = settings();
    s.capacity = kBytes / 2;
    CacheVolRig r(s);
    r.io(1, 0, kBytes, true);
    r.rig.sim.run();
    EXPECT_EQ(r.done_at(1), 2 * kMs);  // 2 MB at 1 GB/s, synchronously
    EXPECT_EQ(r.plane.staged_bytes(), 0u);
}

TEST(CacheVolPlane, AnEpoch2ReadHitsTheNodeLocalCache) {
    CacheVolSettings s = settings();
    s.pfs_read = {1e9, 0, 1, 1};  // one node: 1 GB/s
    CacheVolRig r(s);
    r.io(1, 0, kBytes, false);
    // Epoch 1: the PFS 0-2 ms, then cached 2-3 ms (synchronously): 3 ms.
    // Epoch 2 as soon as it returns: the cache level only, 3-4 ms.
    r.client.then = [&](uint64_t token) {
        if (token == 1) r.io(2, 0, kBytes, false);
    };
    r.rig.sim.run();
    EXPECT_EQ(r.done_at(1), 3 * kMs);
    EXPECT_EQ(r.done_at(2), 4 * kMs);
    EXPECT_EQ(r.plane.misses(), 1u);
    EXPECT_EQ(r.plane.local_hits(), 1u);
    EXPECT_EQ(r.plane.pfs_read_bytes(), kBytes);  // read from the PFS once
}

TEST(CacheVolPlane, AChunkAPeerOwnsIsCachedAndReadOverTheNetwork) {
    CacheVolSettings s = settings();
    s.pfs_read = {2e9, 0, 2, 1};  // two nodes: 1 GB/s each; chunk 1 is node 1's
    CacheVolRig r(s);
    r.io(1, 2 << 20, kBytes, false);
    // Miss: the PFS 0-2 ms, MPI_Put to the owner 2-2.5 ms (4 GB/s), its cache 2.5-3.5 ms.
    // Hit: the owner's cache 3.5-4.5 ms, MPI_Get over the network 4.5-5 ms.
    r.client.then = [&](uint64_t token) {
        if (token == 1) r.io(2, 2 << 20, kBytes, false);
    };
    r.rig.sim.run();
    EXPECT_EQ(r.done_at(1), 3500 * kMicrosecond);
    EXPECT_EQ(r.done_at(2), 5 * kMs);
    EXPECT_EQ(r.plane.remote_hits(), 1u);
    EXPECT_EQ(r.plane.local_hits(), 0u);
}

TEST(CacheVolPlane, AnEvictedFilesReadsMissAgain) {
    CacheVolSettings s = settings();
    s.capacity = kBytes;  // room for one file's chunk
    s.pfs_read = {1e9, 0, 1, 1};
    CacheVolRig r(s);
    // File 0 is cached, then file 1's fill drops it, then file 0 misses again.
    r.client.then = [&](uint64_t token) {
        if (token == 1) r.io(2, gofs::file_io_offset(1, 0), kBytes, false);
        if (token == 2) r.io(3, 0, kBytes, false);
    };
    r.io(1, 0, kBytes, false);
    r.rig.sim.run();
    EXPECT_EQ(r.plane.misses(), 3u);
    EXPECT_EQ(r.plane.local_hits(), 0u);
    EXPECT_EQ(r.plane.space().evictions(), 2u);
}

TEST(CacheVolPlane, TheGpuMemoryLevelStagesAtGpuMemoryBandwidth) {
    CacheVolSettings s = settings();
    s.level = CacheLevel::GpuMemory;
    s.gpu_memory_bandwidth = 4e9;
    CacheVolRig r(s);
    r.io(1, 0, kBytes, true);
    r.at(1 * kMs, [&] { r.close(2, 0); });
    r.rig.sim.run();
    // Staged in 2 MB / 4 GB/s = 0.5 ms; migration reads it back 0.5-1 ms, writes the PFS
    // 1-3 ms; the close at 1 ms waits to 3 ms.
    EXPECT_EQ(r.done_at(1), 500 * kMicrosecond);
    EXPECT_EQ(r.done_at(2), 3 * kMs);
    EXPECT_EQ(r.rig.ssd().bytes_written(), 0u);  // the SSDs are not the cache
    EXPECT_EQ(r.cpu.commands(), 0u);              // nor is the host's I/O stack in the way
}

TEST(CacheVolPlane, TheSsdLevelStagesAndMigratesThroughNvmeCommands) {
    CacheVolSettings s = settings();
    s.level = CacheLevel::Ssd;
    s.capacity = 0;
    CacheVolRig r(s);
    r.io(1, 0, 2 << 20, true);
    r.at(1 * kMs, [&] { r.close(2, 0); });
    r.rig.sim.run();
    // One 2 MiB NVMe write to stage, one 2 MiB read to migrate; the close after both.
    // Each command first costs a host core posix's 6 us: 2 commands, 12 us.
    EXPECT_EQ(r.cpu.commands(), 2u);
    EXPECT_EQ(r.cpu.busy_time(), 12 * kMicrosecond);
    EXPECT_EQ(r.rig.ssd().bytes_written(), uint64_t{2} << 20);
    EXPECT_EQ(r.rig.ssd().bytes_read(), uint64_t{2} << 20);
    EXPECT_EQ(r.plane.migrated_bytes(), uint64_t{2} << 20);
    EXPECT_GT(r.done_at(2), r.done_at(1));
}

}  // namespace
}  // namespace zng::storage::cache_vol
