// GoFS's batched calls (seed 001 Fig. 9: batch_open, batch_read/batch_write, batched
// creation) on the storage rig (tests/storage/storage_rig.hpp): a 4 KiB read alone costs
// SQE write 0.4 + doorbell 0.5 + fetch 1 + device 10 + DMA 1.88 + CQE 0.5 + poll 0.1 =
// 14.38 us; reads issued together share the SSD's x4 link, 4096 B in 1.28 us each. The
// namespace: one directory of 4 files of 16 KiB (4 blocks each, one dentry block).
#include <gtest/gtest.h>

#include <vector>

#include "../storage_rig.hpp"
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

struct BatchRig {
    explicit BatchRig(uint32_t directories = 1, uint64_t files = 4)
        : rig(topology(1), nvme(16, 64), fast_device()), cpu(HostCpuSettings{}), client(rig.sim) {
        GofsSettings s;
        s.listing = {directories, files, 16 << 10};
        s.node_area = 2 << 20;
        s.metadata_cache = 1 << 20;
        s.sqe_write_latency = 400 * kNanosecond;
        plane = std::make_unique<GofsPlane>(StoragePath{rig.sim, rig.array, rig.pcie, cpu}, s);
    }
    // Runs one call to completion; returns its duration.
    Tick call(BatchCall c, uint64_t first, uint64_t count, bool write = false) {
        const StorageIo io{batch_io_offset(c, first, count), 0x10000, 77,
                           c == BatchCall::Data ? static_cast<uint32_t>(count * (16 << 10)) : 0u, write};
        const Tick t0 = rig.sim.now();
        plane->submit(StorageIoBatch{0, 0, 0, &io, 1}, client);
        rig.sim.run();
        return client.done.back().second - t0;
    }
    StorageRig rig;
    HostCpu cpu;
    Recorder client;
    std::unique_ptr<GofsPlane> plane;
};

TEST(GofsBatch, BatchOpenReadsTheDirectoryOnceThenAllInodesTogether) {
    BatchRig r;
    // One launch 9.2; the directory's path (root dentry, directory inode) and its one
    // dentry block, each needing the one before: 3 x 14.38 = 43.14; then the 4 inode
    // blocks at once, the last behind 3 others on the SSD link: 14.38 + 3 x 1.28 =
    // 18.22. 9.2 + 43.14 + 18.22 = 70.56 us. One call per file would pay 4 launches and
    // read each inode only after its own lookup.
    EXPECT_EQ(r.call(BatchCall::Open, 0, 4), 70'560 * kNanosecond);
    EXPECT_EQ(r.plane->metadata_reads(), 7u);
    EXPECT_EQ(r.plane->lock_waits(), 0u);
    EXPECT_EQ(r.plane->requests(), 1u);
}

TEST(GofsBatch, BatchReadMovesEveryFileWholeWithOneLaunch) {
    BatchRig r;
    r.call(BatchCall::Open, 0, 4);
    // The inodes are cached and hold all 4 pointers of each file: no metadata read.
    // Each file is one 16 KiB command (formatted contiguously), all 4 at once: one alone
    // is 0.4 + 0.5 + 1 + 10 + DMA (16384 B / 3.2 GB/s = 5.12, + 0.6) + 0.6 = 18.22 us,
    // the last one behind 3 x 5.12 us on the SSD link: 33.58; + the launch 9.2 = 42.78.
    EXPECT_EQ(r.call(BatchCall::Data, 0, 4), 42'780 * kNanosecond);
    EXPECT_EQ(r.plane->metadata_reads(), 7u);
    EXPECT_EQ(r.rig.ssd().bytes_read(), (7u + 16u) * 4096u);
    EXPECT_EQ(r.plane->requests(), 2u);
}

TEST(GofsBatch, BatchCreateWritesDentriesInodesAndTheParentOnce) {
    BatchRig r;
    // Launch 9.2; the directory's path, 2 reads in turn: 28.76; then 6 writes at once
    // (the dentry block, 4 inodes, the directory's inode once), each 0.4 + 0.5 + 1 +
    // device 20 (the DMAs, 6 x 1.28 = 7.68 us, end inside it) + 0.6 = 22.5 us:
    // 9.2 + 28.76 + 22.5 = 60.46 us.
    EXPECT_EQ(r.call(BatchCall::Create, 0, 4), 60'460 * kNanosecond);
    EXPECT_EQ(r.plane->metadata_reads(), 2u);
    EXPECT_EQ(r.plane->metadata_writes(), 6u);
    EXPECT_EQ(r.rig.ssd().bytes_written(), 6u * 4096u);
    // The created files are open: writing them reads no metadata.
    r.call(BatchCall::Data, 0, 4, true);
    EXPECT_EQ(r.plane->metadata_reads(), 2u);
    EXPECT_EQ(r.rig.ssd().bytes_written(), (6u + 16u) * 4096u);
}

TEST(GofsBatch, ABatchStaysInsideOneDirectory) {
    BatchRig r(2, 8);  // files 0..3 in /d0, 4..7 in /d1
    EXPECT_THROW(r.call(BatchCall::Open, 2, 4), SimError);
    EXPECT_THROW(r.call(BatchCall::Open, 6, 4), SimError);  // past the listing
    const StorageIo wrong{batch_io_offset(BatchCall::Data, 0, 4), 0, 1, 4096, false};  // not 4 x 16 KiB
    EXPECT_THROW(r.plane->submit(StorageIoBatch{0, 0, 0, &wrong, 1}, r.client), SimError);
    EXPECT_EQ(r.call(BatchCall::Open, 4, 4), 70'560 * kNanosecond);  // /d1 as /d0 in the first test
}

}  // namespace
}  // namespace zng::storage::gofs
