// Caching tiers (seed 002) on the hand-computable storage path of storage_rig.hpp, with
// sblocks of 4096 B (one NVMe command each) so that every time is a sum of stages:
//   read of one sblock issued at t: SPDK command 0.5 us on a host core, then doorbell 0.5
//     + fetch 1 + device 10 + DMA into host DRAM 1.58 (SSD link 1.28 + 0.2, fabric 0.1)
//     + completion entry 0.5 + poll 0.1 = t + 14.18 us;
//   write of one sblock issued at t: 0.5 CPU, then doorbell 0.5 + fetch 1, device 20
//     (its DMA from host DRAM, 1.58, ends under it), completion 0.6 = t + 22.6 us.
// The lightweight serializer costs 1 ns/B (4.096 us per sblock), Kryo 2 ns/B (8.192 us).
// A task is scripted: each step is submitted `compute` after the previous one completed.
#include <gtest/gtest.h>

#include <vector>

#include "../storage_rig.hpp"
#include "storage/streamer/cache_tier_plane.hpp"
#include "storage/streamer/stream_offset.hpp"

namespace zng::storage::streamer {
namespace {
using test::fast_device;
using test::nvme;
using test::StorageRig;
using test::topology;

constexpr uint64_t kSblock = 4096;

struct Task final : Event, StorageIoClient {
    struct Step {
        uint64_t offset;
        uint32_t bytes;
        bool write;
        Tick compute;  // after the previous step completed
    };
    Simulator& sim;
    ControlPlane& plane;
    std::vector<Step> steps;
    size_t next = 0;
    std::vector<Tick> done;
    Task(Simulator& s, ControlPlane& p) : Event("task"), sim(s), plane(p) {}
    Task& write(uint64_t stream, uint64_t sblock, Tick compute = 0) {
        steps.push_back({stream_io_offset(stream, sblock * kSblock), uint32_t(kSblock), true, compute});
        return *this;
    }
    Task& close(uint64_t stream, Tick compute = 0) {
        steps.push_back({stream_io_offset(stream, kStreamCloseOffset), 512, true, compute});
        return *this;
    }
    Task& read(uint64_t stream, uint64_t sblock, Tick compute = 0) {
        steps.push_back({stream_io_offset(stream, sblock * kSblock), uint32_t(kSblock), false, compute});
        return *this;
    }
    void start(Tick at) { sim.schedule(*this, at); }
    void process() override {
        const Step& st = steps[next++];
        StorageIo io{st.offset, 0x1000, next, st.bytes, st.write};
        ASSERT_TRUE(plane.can_submit(1, *this));
        plane.submit(StorageIoBatch{0, 0, 0, &io, 1}, *this);
    }
    void io_done(uint64_t) override {
        done.push_back(sim.now());
        if (next < steps.size()) sim.schedule(*this, sim.now() + steps[next].compute);
    }
    void io_room() override {}
};

HostCpuSettings host() {
    HostCpuSettings h;
    h.cores = 5;
    h.polling_threads = 1;
    h.spdk_cost = 500 * kNanosecond;
    h.posix_cost = 500 * kNanosecond;
    h.libaio_cost = 500 * kNanosecond;
    return h;
}

CacheTierSettings streamer() {
    CacheTierSettings s;
    s.sblock_size = kSblock;
    s.command_bytes = kSblock;
    s.prefetch_depth = 2;
    s.light_cost = 1000;  // ps per byte
    s.kryo_cost = 2000;
    return s;
}

struct TierRig {
    explicit TierRig(const CacheTierSettings& s)
        : rig(topology(1), nvme(4, 64), fast_device()), cpu(host()),
          plane(StoragePath{rig.sim, rig.array, rig.pcie, cpu}, s) {
        plane.keep_read_log(true);
    }
    StorageRig rig;
    HostCpu cpu;
    CacheTierPlane plane;
};

constexpr Tick us(uint64_t ns) { return ns * kNanosecond; }

TEST(CacheTier, WriteIsBufferedAndFlushedAsOneSblockOnClose) {
    // Write at 0: buffered, done after serialising 4.096 us, nothing sent to the SSD.
    // Close 100 us later (104.096): the sblock with its end-of-stream token is flushed as
    // one command: 104.096 + 22.6 = 126.696 us.
    TierRig r(streamer());
    Task w(r.rig.sim, r.plane);
    w.write(0, 0).close(0, 100 * kMicrosecond).start(0);
    r.rig.sim.run();
    ASSERT_EQ(w.done.size(), 2u);
    EXPECT_EQ(w.done[0], us(4'096));
    EXPECT_EQ(w.done[1], us(126'696));
    EXPECT_EQ(r.rig.ssd(0).commands(), 1u);
    EXPECT_EQ(r.rig.ssd(0).bytes_written(), kSblock);
    EXPECT_EQ(r.plane.sblock_writes(), 1u);
    EXPECT_EQ(r.plane.pool_in_use(), 0u);  // the stream buffer is freed at close
}

TEST(CacheTier, TheNextWriteFlushesThePreviousSblock) {
    // s0 buffered at 4.096; s1 written at 4.096 flushes s0 (CPU to 4.596, on the SSD at
    // 26.696) and is buffered in the second slot: done 8.192; the close at 8.192 flushes
    // s1 (another core: 8.692, SSD 30.792) and returns when no flush is left: 30.792 us.
    TierRig r(streamer());
    Task w(r.rig.sim, r.plane);
    w.write(0, 0).write(0, 1).close(0).start(0);
    r.rig.sim.run();
    ASSERT_EQ(w.done.size(), 3u);
    EXPECT_EQ(w.done[1], us(8'192));
    EXPECT_EQ(w.done[2], us(30'792));
    EXPECT_EQ(r.rig.ssd(0).commands(), 2u);
}

TEST(CacheTier, ChainedStreamIssuesSblockIPlusOneOnlyAfterSblockIArrived) {
    // Three sblocks written, then read from T = 1 ms with no compute between reads.
    // s0 issued at T, arrives T + 14.18; only then is s1's address known: issued
    // T + 14.18, arrives T + 28.36; s2 issued at T + 28.36 (a slot was free from
    // T + 14.18, when the task took s0), arrives T + 42.54. The task's reads complete
    // after deserialising (4.096): T + 18.276, T + 32.456, T + 46.636.
    TierRig r(streamer());
    Task w(r.rig.sim, r.plane);
    w.write(0, 0).write(0, 1).write(0, 2).close(0).start(0);
    Task t(r.rig.sim, r.plane);
    const Tick T = 1000 * kMicrosecond;
    t.read(0, 0).read(0, 1).read(0, 2).start(T);
    r.rig.sim.run();
    const auto& log = r.plane.read_log();
    ASSERT_EQ(log.size(), 3u);
    const Tick issued[] = {T, T + us(14'180), T + us(28'360)};
    const Tick arrived[] = {T + us(14'180), T + us(28'360), T + us(42'540)};
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(log[i].sblock, i);
        EXPECT_EQ(log[i].issued, issued[i]) << "sblock " << i;
        EXPECT_EQ(log[i].arrived, arrived[i]) << "sblock " << i;
    }
    ASSERT_EQ(t.done.size(), 3u);
    EXPECT_EQ(t.done[0], T + us(18'276));
    EXPECT_EQ(t.done[1], T + us(32'456));
    EXPECT_EQ(t.done[2], T + us(46'636));
}

TEST(CacheTier, WithoutChainingBothSlotsFillAtOpen) {
    // The control: the same stream without chaining issues s0 and s1 together at T.
    CacheTierSettings s = streamer();
    s.chained = false;
    TierRig r(s);
    Task w(r.rig.sim, r.plane);
    w.write(0, 0).write(0, 1).write(0, 2).close(0).start(0);
    Task t(r.rig.sim, r.plane);
    const Tick T = 1000 * kMicrosecond;
    t.read(0, 0).read(0, 1).read(0, 2).start(T);
    r.rig.sim.run();
    ASSERT_EQ(r.plane.read_log().size(), 3u);
    EXPECT_EQ(r.plane.read_log()[0].issued, T);
    EXPECT_EQ(r.plane.read_log()[1].issued, T);
}

TEST(CacheTier, DestroyWalksTheChainOneMetadataBlockPerSblock) {
    // Rewriting a 3-sblock stream destroys it first: three 4 KiB reads of the sblocks'
    // last blocks, one after another, each freeing its sblock; the new stream's first
    // sblock takes a fresh run meanwhile (runs 0-2 busy until walked), so 3 runs are
    // free at the end and 1 was taken from the pool's fresh end: 4 in all.
    TierRig r(streamer());
    Task w(r.rig.sim, r.plane);
    w.write(0, 0).write(0, 1).write(0, 2).close(0).write(0, 0).close(0).start(0);
    r.rig.sim.run();
    EXPECT_EQ(r.plane.destroy_reads(), 3u);
    EXPECT_EQ(r.plane.free_sblocks(), 3u);
    EXPECT_EQ(r.rig.ssd(0).bytes_read(), 3 * 4096u);
}

TEST(CacheTier, StreamsShareTheBufferPool) {
    // A pool of one stream buffer (2 x 4096 B): streams 0 and 1 (one sblock each) are
    // opened at T by two tasks; 1 waits for 0's buffer. 0: issued T, arrives T + 14.18,
    // read done T + 18.276; its last sblock taken at T + 14.18 closes it, so 1 opens then:
    // arrives T + 28.36, done T + 32.456.
    CacheTierSettings s = streamer();
    s.buffer_pool = 2 * kSblock;
    TierRig r(s);
    Task w(r.rig.sim, r.plane);
    w.write(0, 0).close(0).write(1, 0).close(1).start(0);
    Task a(r.rig.sim, r.plane), b(r.rig.sim, r.plane);
    const Tick T = 1000 * kMicrosecond;
    a.read(0, 0).start(T);
    b.read(1, 0).start(T);
    r.rig.sim.run();
    ASSERT_EQ(a.done.size(), 1u);
    ASSERT_EQ(b.done.size(), 1u);
    EXPECT_EQ(a.done[0], T + us(18'276));
    EXPECT_EQ(b.done[0], T + us(32'456));
    EXPECT_EQ(r.plane.pool_in_use(), 0u);
}

TEST(CacheTier, MemoryAndDiskSpillsTheLeastRecentPartitionAndPromotesOnRead) {
    // 8 KiB of host DRAM: partitions 0 and 1 (one sblock each) fit; closing partition 2
    // evicts 0, which is spilled: Kryo 8.192 us, then written: 8.192 + 22.6 = 30.792 us.
    // Reading 0 then misses: read 30.792 + 14.18 = 44.972, deserialised 53.164, promoted,
    // which evicts 1 (never on the SSDs): serialised to 61.356, written: 83.956 us.
    // Reading 2 hits host DRAM: at once.
    CacheTierSettings s = streamer();
    s.memory_cache = 2 * kSblock;
    s.spill = true;
    s.prefetch = false;
    s.prefetch_depth = 1;
    s.chained = false;
    s.write_behind = false;
    s.serializer = Serializer::Kryo;
    TierRig r(s);
    Task t(r.rig.sim, r.plane);
    t.write(0, 0).close(0).write(1, 0).close(1).write(2, 0).close(2).read(0, 0).read(2, 0).start(0);
    r.rig.sim.run();
    ASSERT_EQ(t.done.size(), 8u);
    EXPECT_EQ(t.done[4], 0u);
    EXPECT_EQ(t.done[5], us(30'792));
    EXPECT_EQ(t.done[6], us(83'956));
    EXPECT_EQ(t.done[7], us(83'956));
    EXPECT_EQ(r.plane.spilled_partitions(), 2u);
    EXPECT_EQ(r.plane.memory_hits(), 1u);
    EXPECT_EQ(r.rig.ssd(0).bytes_written(), 2 * kSblock);
    EXPECT_EQ(r.rig.ssd(0).bytes_read(), kSblock);
}

TEST(CacheTier, MemoryOnlyRecomputesADroppedPartition) {
    // As above without the SSDs: partition 0 is dropped when 2 enters; reading it costs
    // 4096 B x 10 ns = 40.96 us of recomputation and nothing touches the SSDs.
    CacheTierSettings s = streamer();
    s.memory_cache = 2 * kSblock;
    s.spill = false;
    s.recompute_cost = 10 * kNanosecond;
    s.write_behind = false;
    TierRig r(s);
    Task t(r.rig.sim, r.plane);
    t.write(0, 0).close(0).write(1, 0).close(1).write(2, 0).close(2).read(0, 0).start(0);
    r.rig.sim.run();
    ASSERT_EQ(t.done.size(), 7u);
    EXPECT_EQ(t.done[6], us(40'960));
    EXPECT_EQ(r.plane.recomputed_bytes(), kSblock);
    EXPECT_EQ(r.rig.ssd(0).commands(), 0u);
}

TEST(CacheTier, AWholeSmallRunByHand) {
    // One task: create a 2-sblock stream, then read it twice with 10 us of compute after
    // each read.
    //   write s0 0 -> 4.096; write s1 -> 8.192 (s0 flushed, on the SSD at 26.696);
    //   close 8.192 -> s1 flushed 8.692 -> 30.792.
    //   pass 1: s0 issued 30.792, arrives 44.972 (s1 issued then, arrives 59.152),
    //     deserialised 49.068; compute to 59.068; s1 waits to 59.152, done 63.248.
    //   pass 2: s0 issued 73.248, arrives 87.428 (s1 issued, arrives 101.608), done
    //     91.524; compute to 101.524; s1 at 101.608, done 105.704 = the run's end.
    // Disk access: close 22.6 + reads 14.18 + 0.084 + 14.18 + 0.084 = 51.128 us;
    // serialisation 6 x 4.096 = 24.576 us.
    TierRig r(streamer());
    Task t(r.rig.sim, r.plane);
    const Tick c = 10 * kMicrosecond;
    t.write(0, 0).write(0, 1).close(0).read(0, 0).read(0, 1, c).read(0, 0, c).read(0, 1, c).start(0);
    r.rig.sim.run();
    ASSERT_EQ(t.done.size(), 7u);
    EXPECT_EQ(r.rig.sim.now(), us(105'704));
    EXPECT_EQ(t.done.back(), us(105'704));
    EXPECT_EQ(r.plane.disk_access_time(), us(51'128));
    EXPECT_EQ(r.plane.serialization_time(), us(24'576));
    EXPECT_EQ(r.plane.sblock_reads(), 4u);
}

TEST(CacheTier, PageCacheServesARereadAndCopiesIt) {
    // disk_only: a 4 KiB page cache holds the last sblock read; reading it again is a
    // hit (no SSD command); the copy through host DRAM costs nothing on this rig (no
    // limit, no latency), the kernel's read() 0.5 us, Kryo 8.192 us.
    CacheTierSettings s = streamer();
    s.page_cache = kSblock;
    s.prefetch = false;
    s.prefetch_depth = 1;
    s.chained = false;
    s.write_behind = false;
    s.serializer = Serializer::Kryo;
    s.stack = IoStack::Posix;
    TierRig r(s);
    Task t(r.rig.sim, r.plane);
    t.write(0, 0).close(0).read(0, 0).read(0, 0).start(0);
    r.rig.sim.run();
    ASSERT_EQ(t.done.size(), 4u);
    EXPECT_EQ(r.plane.page_cache_hits(), 1u);
    EXPECT_EQ(r.plane.sblock_reads(), 1u);
    EXPECT_EQ(t.done[3] - t.done[2], us(8'692));
}

TEST(CacheTier, ModelsAreRegisteredWithTheSeedsBuffers) {
    const auto read = [](const std::string& name) {
        return CacheTierSettings::read(Params(nullptr, CacheTierSettings::schema(name), "storage.control_plane"));
    };
    EXPECT_EQ(read("streamer").buffer_pool, 760'000'000u);
    EXPECT_EQ(read("streamer").prefetch_depth, 2u);
    EXPECT_TRUE(read("streamer").chained);
    EXPECT_EQ(read("user_io").buffer_pool, 380'000'000u);
    EXPECT_FALSE(read("user_io").prefetch);
    EXPECT_EQ(read("disk_only").page_cache, 4'000'000'000u);
    EXPECT_EQ(read("memory_and_disk").memory_cache, 192'000'000'000u);
    EXPECT_EQ(read("libaio_prefetch").stack, IoStack::Libaio);
}

}  // namespace
}  // namespace zng::storage::streamer
