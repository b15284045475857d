// FlashGPU's read prefetch in HybridGPU's SSD controller: the PC/warp access pattern
// tracker (3-bit counters, a read prefetches from counter 4) and the prefetch it
// triggers (a read miss also fills the next 15 pages into the DRAM buffer, one flash
// read per page at its FTL location, skipping buffered pages).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "flash_model/register.hpp"
#include "mmu_ftl/register.hpp"
#include "mmu_ftl/ssd/access_pattern_tracker.hpp"
#include "mmu_ftl/ssd/firmware_ssd.hpp"
#include "mmu_ftl/ssd/hybridgpu_backend.hpp"
#include "mmu_ftl/wear/least_erased_pool.hpp"
#include "sim/config/config_node.hpp"
#include "tests/mmu_ftl/test_flash.hpp"

namespace zng::ftl::test {
namespace {

ReadPrefetchSettings flashgpu_prefetch() {
    ReadPrefetchSettings s;  // the defaults are FlashGPU's public values
    s.enabled = true;
    return s;
}

TEST(AccessPatternTracker, FifthReadWithinOneSuperPagePrefetches) {
    // One warp reads pages 0..4 (one super page of 16): the first read records page 0
    // (counter 0), each later one counts up: 1, 2, 3, 4; the counter must exceed 3.
    AccessPatternTracker t(flashgpu_prefetch());
    for (uint64_t page = 0; page < 4; ++page) EXPECT_FALSE(t.observe(0x40, 7, page)) << page;
    EXPECT_TRUE(t.observe(0x40, 7, 4));
    // Pages 16.. are the next super page: 16 is not in page 4's, so the counter drops to
    // 3 (no prefetch), then 17 is in 16's: back to 4.
    EXPECT_FALSE(t.observe(0x40, 7, 16));
    EXPECT_TRUE(t.observe(0x40, 7, 17));
}

TEST(AccessPatternTracker, RandomReadsNeverPrefetch) {
    // Every read lands in another super page than the one before ((i x 7) mod 24 differs
    // for consecutive i), so both counters stay at 0.
    AccessPatternTracker t(flashgpu_prefetch());
    for (uint64_t i = 0; i < 100; ++i) EXPECT_FALSE(t.observe(0x40, 3, (i * 7 % 24) * 16 + i % 16)) << i;
}

TEST(AccessPatternTracker, CounterSaturatesAtSevenAndDecays) {
    // Ten reads in super page 0: the counter reaches min(9, 7) = 7. Reads that each leave
    // the previous super page then count down 6, 5, 4 (still prefetching), 3 (not).
    AccessPatternTracker t(flashgpu_prefetch());
    for (uint64_t page = 0; page < 10; ++page) t.observe(0x80, 0, page);
    EXPECT_TRUE(t.observe(0x80, 0, 100));   // 6
    EXPECT_TRUE(t.observe(0x80, 0, 200));   // 5
    EXPECT_TRUE(t.observe(0x80, 0, 300));   // 4
    EXPECT_FALSE(t.observe(0x80, 0, 400));  // 3
}

TEST(AccessPatternTracker, PcHistorySpansWarps) {
    // Five warps each read once at the same PC, all in super page 0: every warp history
    // is new (records only), the PC's history counts 0, 1, 2, 3, 4 -> the fifth prefetches.
    AccessPatternTracker t(flashgpu_prefetch());
    for (uint32_t w = 0; w < 4; ++w) EXPECT_FALSE(t.observe(0x200, w, w)) << w;
    EXPECT_TRUE(t.observe(0x200, 4, 4));
    EXPECT_EQ(t.warp_histories(), 5u);
    // The table is indexed by PC mod 1,024: PC 0x200 + 1,024 shares the entry (counter 5).
    EXPECT_TRUE(t.observe(0x200 + 1024, 9, 5));
    // Another PC has its own, fresh history.
    EXPECT_FALSE(t.observe(0x204, 10, 6));
}

TEST(AccessPatternTracker, WarpHistoryDecidesWhenThePcsStreamIsMixed) {
    // Warp A streams pages 0, 1, 2, ... while warp B, at the same PC, reads far super
    // pages in between: the PC history alternates super pages and stays at 0; A's own
    // history counts 1, 2, 3, 4, so A's fifth read prefetches; B's never do.
    AccessPatternTracker t(flashgpu_prefetch());
    for (uint64_t i = 0; i < 5; ++i) {
        EXPECT_EQ(t.observe(0x300, 1, i), i == 4) << i;
        EXPECT_FALSE(t.observe(0x300, 2, 1000 * (i + 1))) << i;
    }
}

// An SSD controller over the test flash: 4 channels x 2 planes = 8 units (planes),
// 16 blocks x 4 pages each, OP 0.25 -> floor(8 x 16 x 0.75) x 4 = 384 logical pages.
// Timing: firmware 100 ns on one core, tR 3 us, DRAM 1.28 GB/s (128 B = 100 ns,
// 4 KiB = 3.2 us) + 50 ns latency.
class ReadPrefetchSsd : public ::testing::Test {
protected:
    static flash::FlashGeometry geometry() { return small_ssd_geometry(4); }
    void build(bool prefetch, bool stream_buffer = false) {
        FirmwareSsdSettings s;
        s.prefetch.stream_buffer = stream_buffer;
        s.prefetch.sblock_pages = 4;
        s.prefetch.stream_depth = 2;
        s.cores = 1;
        s.firmware_latency = 100 * kNanosecond;
        s.queue_depth = 16;
        s.buffer_bytes = 1 << 20;  // 256 pages: nothing is evicted here
        s.dram_bandwidth = 1.28e9;
        s.dram_latency = 50 * kNanosecond;
        s.overprovisioning = 0.25;
        s.prefetch.enabled = prefetch;
        ssd = std::make_unique<FirmwareSsd>(sim, StatGroup(sim.stats(), "ssd"), s, flash,
                                            std::make_unique<LeastErasedPool>(8, 16),
                                            [this](const FirmwareSsd::Io&) { done_at = sim.now(); });
        ASSERT_EQ(ssd->capacity_bytes(), 384u * 4096);
    }
    // One 128 B read at the start of `page`, run to completion; returns its latency.
    Tick read(uint64_t page, uint64_t pc, uint32_t warp) {
        FirmwareSsd::Io io;
        io.addr = page * 4096;
        io.bytes = 128;
        io.pc = pc;
        io.warp = warp;
        const Tick start = sim.now();
        ssd->submit(io);
        sim.run();
        EXPECT_EQ(ssd->in_flight(), 0u);
        return done_at - start;
    }
    uint64_t stat(const std::string& name) { return static_cast<uint64_t>(sim.stats().value("ssd." + name)); }

    Simulator sim;
    TestFlash flash{sim, geometry(), 3 * kMicrosecond, 100 * kMicrosecond, kMillisecond};
    std::unique_ptr<FirmwareSsd> ssd;
    Tick done_at = 0;
};

// Miss: firmware 100 ns + tR 3 us + 4 KiB into DRAM (3.2 us + 50 ns) + 128 B out
// (100 ns + 50 ns) = 6.5 us. Hit: firmware 100 ns + 128 B out (150 ns) = 250 ns.
constexpr Tick kMissLatency = 6500 * kNanosecond;
constexpr Tick kHitLatency = 250 * kNanosecond;

TEST_F(ReadPrefetchSsd, FiveSequentialReadsPrefetchTheNextFifteenPages) {
    build(true);
    // Pages 0..3: the tracker is not yet confident (counters 0..3): one sense each.
    for (uint64_t p = 0; p < 4; ++p) EXPECT_EQ(read(p, 0x40, 0), kMissLatency) << p;
    EXPECT_EQ(flash.reads, 4u);
    // Page 4 (counter 4): its own sense plus pages 5..19 prefetched, 16 senses in all.
    // Its own page is sensed first (pages 4..11 on the 8 planes, done at 100 ns + 3 us;
    // 12..19 behind them, done 3 us later) and enters the DRAM first, but every fill
    // reserves the DRAM bus when its sense ends, so the 15 prefetched pages (7 at
    // 3.1 us, 8 at 6.1 us) are ahead of the request's 128 B read-out (6.35 us):
    // 100 ns + 3 us + 16 x 3.2 us + 100 ns + 50 ns = 54.45 us.
    EXPECT_EQ(read(4, 0x40, 0), 54450 * kNanosecond);
    EXPECT_EQ(flash.reads, 4u + 16u);
    EXPECT_EQ(stat("prefetches"), 1u);
    EXPECT_EQ(stat("prefetch_reads"), 15u);
    // The senses went to pages 0..19 in order, each where the FTL put it: page p on unit
    // p mod 8 (channel = unit mod 4, plane = unit / 4), page p / 8 of that unit's
    // pre-load block (4 pages per block: pages 0..19 fill page slots 0..2).
    ASSERT_EQ(flash.read_at.size(), 20u);
    for (uint32_t p = 0; p < 20; ++p) {
        EXPECT_EQ(flash.read_at[p].channel, p % 8 % 4) << p;
        EXPECT_EQ(flash.read_at[p].plane, p % 8 / 4) << p;
        EXPECT_EQ(flash.read_at[p].page, p / 8) << p;
    }
    // A prefetched page is now a DRAM buffer hit, whoever reads it, with no sense.
    EXPECT_EQ(read(10, 0x999, 5), kHitLatency);
    EXPECT_EQ(read(19, 0x998, 6), kHitLatency);
    EXPECT_EQ(flash.reads, 20u);
    EXPECT_EQ(stat("buffer_hits"), 2u);
    EXPECT_EQ(stat("prefetched_pages_used"), 2u);
    // Page 20 is past the prefetch: a miss (PC 0x40's counter: 20 is not in page 4's
    // super page -> 3, no prefetch), one sense.
    EXPECT_EQ(read(20, 0x40, 0), kMissLatency);
    EXPECT_EQ(flash.reads, 21u);
    EXPECT_EQ(stat("prefetch_reads"), 15u);
}

TEST_F(ReadPrefetchSsd, RandomReadsPrefetchNothing) {
    build(true);
    // 20 reads, each in another super page than the one before: (i x 7) mod 24 is
    // distinct for i < 24 (7 and 24 are coprime), so 20 misses and 20 senses.
    for (uint64_t i = 0; i < 20; ++i) EXPECT_EQ(read((i * 7 % 24) * 16, 0x40, 0), kMissLatency) << i;
    EXPECT_EQ(flash.reads, 20u);
    EXPECT_EQ(stat("prefetches"), 0u);
    EXPECT_EQ(stat("prefetch_reads"), 0u);
}

TEST_F(ReadPrefetchSsd, PrefetchSkipsBufferedPages) {
    build(true);
    // Another PC brings pages 6 and 8 in first (its counter: 0, then 1).
    read(6, 0x700, 1);
    read(8, 0x700, 1);
    for (uint64_t p = 0; p < 5; ++p) read(p, 0x40, 0);
    // Page 4 prefetches 5..19 except 6 and 8: 13 senses. Total 2 + 5 + 13 = 20.
    EXPECT_EQ(stat("prefetch_reads"), 13u);
    EXPECT_EQ(flash.reads, 20u);
}

TEST_F(ReadPrefetchSsd, ReadOfABufferedPageDoesNotPrefetch) {
    build(true);
    // Five reads of lines of page 0 (counters 0..4): only the first misses; the fifth is
    // confident but a hit, and only a miss prefetches.
    for (uint64_t line = 0; line < 5; ++line) {
        FirmwareSsd::Io io;
        io.addr = line * 128;
        io.bytes = 128;
        io.pc = 0x40;
        ssd->submit(io);
        sim.run();
    }
    EXPECT_EQ(flash.reads, 1u);
    EXPECT_EQ(stat("prefetches"), 0u);
    // The next page misses with the counter at 5: pages 2..16 are prefetched.
    read(1, 0x40, 0);
    EXPECT_EQ(stat("prefetch_reads"), 15u);
    EXPECT_EQ(flash.reads, 17u);
}

TEST_F(ReadPrefetchSsd, PrefetchStopsAtTheLogicalCapacity) {
    build(true);
    // Pages 379..383 are the last five of 384 (one super page, 368..383): page 383
    // prefetches but nothing lies after it.
    for (uint64_t p = 379; p < 384; ++p) read(p, 0x40, 0);
    EXPECT_EQ(stat("prefetches"), 1u);
    EXPECT_EQ(stat("prefetch_reads"), 0u);
    EXPECT_EQ(flash.reads, 5u);
}

TEST_F(ReadPrefetchSsd, DisabledPrefetchReadsDemandPagesOnly) {
    build(false);  // the settings' default (Hetero's NVMe SSD)
    for (uint64_t p = 0; p < 10; ++p) read(p, 0x40, 0);
    EXPECT_EQ(flash.reads, 10u);
    EXPECT_EQ(stat("prefetch_reads"), 0u);
}

TEST_F(ReadPrefetchSsd, StreamBufferReadsSblockIPlusOneOnlyAfterSblockIArrived) {
    // Policy stream_buffer, sblocks of 4 pages, depth 2. Pages 0..3: demand senses only.
    // Page 4 (counter 4) misses and starts warp 0's stream after it: sblock A = pages
    // 5..8 is sensed with page 4 at t0 + 100 ns (firmware), all on different planes, done
    // at t0 + 3.1 us; the DRAM bus takes page 4 (to 6.35 us, 50 ns latency included),
    // then 5, 6, 7, 8 (8 in at 19.15 us). Only then is sblock B = 9..12 read: sensed at
    // t0 + 19.15 us. Page 4's 128 B read-out was reserved at 6.35 us behind A's fills:
    // 19.1 + 0.1 + 0.05 = 19.25 us. B fills the depth of 2: no sblock C.
    build(true, true);
    for (uint64_t p = 0; p < 4; ++p) read(p, 0x40, 0);
    const Tick t0 = sim.now();
    EXPECT_EQ(read(4, 0x40, 0), 19250 * kNanosecond);
    ASSERT_EQ(flash.reads, 4u + 1u + 4u + 4u);
    EXPECT_EQ(flash.read_times[4], t0 + 100 * kNanosecond);  // page 4
    EXPECT_EQ(flash.read_times[8], t0 + 100 * kNanosecond);  // A's last page
    EXPECT_EQ(flash.read_times[9], t0 + 19150 * kNanosecond);  // B's first: after A arrived
    EXPECT_EQ(flash.read_times[12], t0 + 19150 * kNanosecond);
    EXPECT_EQ(stat("stream_sblocks"), 2u);
    // A read in B frees A, which reads C = 13..16 (B has arrived); page 9 itself hits.
    EXPECT_EQ(read(9, 0x40, 0), kHitLatency);
    EXPECT_EQ(flash.reads, 17u);
    EXPECT_EQ(stat("stream_sblocks"), 3u);
    EXPECT_EQ(stat("prefetched_pages_used"), 1u);
}

TEST(ReadPrefetchConfig, ThresholdAboveTheCounterRangeIsAConfigError) {
    register_flash_model_components();
    register_mmu_ftl_components();
    Simulator sim;
    ConfigNode root = parse_config_text(
        "memory: {type: hybridgpu, prefetch_confidence_max: 3, prefetch_confidence_threshold: 4}\n", "bad.yaml");
    BackendContext ctx;
    ctx.ports = 1;
    ctx.root = &root;
    try {
        memory_backend_slot().create(root.find("memory"), "memory", "hybridgpu", sim, ctx);
        FAIL() << "a threshold the counter cannot reach was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("prefetch_confidence_threshold"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace zng::ftl::test
