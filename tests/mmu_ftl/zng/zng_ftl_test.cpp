// ZnG's MMU-resident FTL on a small geometry (see kSmallFlash): first-touch placement,
// reads of never-written data, rewrites through the log block, one merge per full log
// block with the page moves and erases counted by hand, and holding every translation of
// the owner while its merge runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "tests/mmu_ftl/zng/zng_ftl_fixture.hpp"

namespace zng::ftl::test {
namespace {

// OP 0.5 -> 8 user blocks per unit; group size 2 needs ceil(8/2) + 2 + 1 = 7 <= 8 spares.
std::string small_ftl(const std::string& extra = "") {
    return std::string(kSmallFlash) + "translation: {type: zng_dbmt, log_group_size: 2, overprovisioning: 0.5" +
           extra + "}\n";
}

TEST(ZngFtl, ConsecutivePagesSpreadOverChannelsThenPlanesThenPages) {
    ZngFtlRig rig(small_ftl());
    // vpn 0..7: channel = vpn % 2, plane = (vpn / 2) % 2, page = vpn / 4 (hand decoded).
    for (uint64_t vpn = 0; vpn < 8; ++vpn) {
        flash::FlashAddress a = rig.page_of(0, vpn);
        EXPECT_EQ(a.channel, vpn % 2) << vpn;
        EXPECT_EQ(a.plane, (vpn / 2) % 2) << vpn;
        EXPECT_EQ(a.page, vpn / 4) << vpn;
        EXPECT_EQ(a.block, 0u) << vpn;  // first data block of each unit: fresh block 0
    }
    // Two data blocks touched (one per package), each spanning both planes.
    EXPECT_EQ(rig.ftl->first_touches(), 2u);
    // vpn 16 is the next virtual block of channel 0: a new data block, fresh block 1.
    EXPECT_EQ(rig.page_of(0, 16).block, 1u);
    // Another application's vpn 0 gets its own data block.
    EXPECT_EQ(rig.page_of(1, 0).block, 2u);
    EXPECT_EQ(rig.ftl->first_touches(), 4u);
}

TEST(ZngFtl, ReadOfNeverWrittenDataNeedsOnlyTheDbmtAndTheLpmtCheck) {
    ZngFtlRig rig(small_ftl());
    flash::FlashAddress a = rig.page_of(0, 5);  // ch1, plane 0, page 1
    // Translation touched no flash: no operation, no log block, no erase declared.
    EXPECT_EQ(rig.flash->reads + rig.flash->programs + rig.flash->erases, 0u);
    EXPECT_EQ(rig.flash->set_erased_calls, 0u);
    EXPECT_EQ(rig.sim.stats().value("translation.log_blocks_opened"), 0.0);
    // The row decoder's LPMT check misses: the data block's own page is read.
    flash::ProgrammableRowDecoder::Row row = rig.flash->resolve(a);
    EXPECT_FALSE(row.log_hit);
    EXPECT_EQ(row.block, a.block);
    EXPECT_EQ(row.page, a.page);
    EXPECT_EQ(rig.flash->lpmt_checks, 1u);
}

TEST(ZngFtl, RewrittenPageIsFoundInTheLogBlock) {
    ZngFtlRig rig(small_ftl());
    flash::FlashAddress a = rig.page_of(0, 4);  // ch0, plane 0, page 1, data block 0
    flash::FlashAddress b = rig.page_of(0, 20); // ch0, plane 0, page 1 of data block 1 (same group)
    int done = 0;
    rig.flash->write(a, [&] { ++done; });
    rig.sim.run();
    EXPECT_EQ(done, 1);
    // The group's log block is the next fresh block (2), declared erased in both planes.
    EXPECT_EQ(rig.ftl->tables().dbmt.at(0).plbn, 2u);
    EXPECT_EQ(rig.ftl->tables().dbmt.at(1).plbn, 2u);  // shared by the group
    EXPECT_EQ(rig.flash->set_erased_calls, 2u);
    flash::ProgrammableRowDecoder::Row row = rig.flash->resolve(a);
    EXPECT_TRUE(row.log_hit);
    EXPECT_EQ(row.block, 2u);
    EXPECT_EQ(row.page, 0u);  // first free page of the log block
    // The other member still reads its own page; after its rewrite it hits log page 1.
    EXPECT_FALSE(rig.flash->resolve(b).log_hit);
    rig.flash->write(b, [&] { ++done; });
    rig.sim.run();
    row = rig.flash->resolve(b);
    EXPECT_TRUE(row.log_hit);
    EXPECT_EQ(row.block, 2u);
    EXPECT_EQ(row.page, 1u);
    // The translation itself is unchanged: the MMU still names the data block.
    EXPECT_EQ(rig.page_of(0, 4), a);
}

// Fills the plane-0 log block of app 0's group in unit 0 (data blocks of vpn 0 and vpn
// 16) with 4 rewrites, then writes once more.
struct FullLogScenario {
    explicit FullLogScenario(ZngFtlRig& r) : rig(r) {
        d0 = rig.page_of(0, 0);   // data block 0 (LBN 0), plane 0, page 0
        d1 = rig.page_of(0, 16);  // data block 1 (LBN 1)
        for (int i = 0; i < 4; ++i) rig.flash->write(d0.with_page(static_cast<uint32_t>(i)), [this] { ++writes_done; });
        rig.sim.run();
    }
    ZngFtlRig& rig;
    flash::FlashAddress d0, d1;
    int writes_done = 0;
};

TEST(ZngFtl, FullLogBlockTriggersExactlyOneMergeWithHandCountedWork) {
    ZngFtlRig rig(small_ftl());
    FullLogScenario s(rig);
    EXPECT_EQ(s.writes_done, 4);
    EXPECT_EQ(rig.ftl->gc().merges(), 0u);
    const Tick t0 = rig.sim.now();
    rig.flash->write(s.d0.with_page(0), [&] { ++s.writes_done; });  // log block full: parked
    EXPECT_EQ(rig.flash->parked_writes, 1u);
    rig.sim.run();
    EXPECT_EQ(s.writes_done, 5);
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
    // By hand: 2 data blocks x 2 planes x 4 pages = 16 pages read and programmed;
    // (2 data blocks + 1 log block) x 2 planes = 6 block erases.
    EXPECT_EQ(rig.ftl->gc().pages_moved(), 16u);
    EXPECT_EQ(rig.flash->reads, 16u);
    EXPECT_EQ(rig.flash->programs, 16u);
    EXPECT_EQ(rig.ftl->gc().erases(), 6u);
    EXPECT_EQ(rig.flash->erases, 6u);
    EXPECT_EQ(rig.flash->moves, 4u);  // 2 data blocks x 2 planes
    // Wear levelling: blocks 0..2 were used (data, data, log); the merge took the
    // least-erased free blocks, fresh 3 and 4; the parked write opened fresh log block 5.
    const auto& t = rig.ftl->tables();
    EXPECT_EQ(t.dbmt.at(0).pdbn, 3u);
    EXPECT_EQ(t.dbmt.at(1).pdbn, 4u);
    EXPECT_EQ(t.dbmt.at(0).plbn, 5u);
    for (uint32_t b = 0; b < 3; ++b) EXPECT_EQ(t.block(0, b).erases, 1u) << b;
    EXPECT_EQ(rig.flash->states().erase_count(s.d0.with_block(2)), 1u);
    // Time by hand: each plane reads and programs 8 pages in turn (8 x (3 + 100) us), both
    // planes in parallel, and the merge ends there (III-B: the helper thread "lastly
    // updates" the LBMT and DBMT); each plane then erases 3 blocks (3 x 1 ms), and the
    // parked write's program of the new log block (100 us) waits behind them on plane 0.
    EXPECT_EQ(rig.sim.stats().value("translation.gc.merge_time"), 824.0 * 1000);
    EXPECT_EQ(rig.sim.now() - t0, 3924 * kMicrosecond);
    // Translations now give the merged blocks, at the same positions.
    EXPECT_EQ(rig.page_of(0, 0), s.d0.with_block(3));
    EXPECT_EQ(rig.page_of(0, 16), s.d1.with_block(4));
    // The rewritten page is in the new log block.
    flash::ProgrammableRowDecoder::Row row = rig.flash->resolve(s.d0.with_block(3));
    EXPECT_TRUE(row.log_hit);
    EXPECT_EQ(row.block, 5u);
    EXPECT_EQ(row.page, 0u);
    EXPECT_EQ(rig.sim.stats().value("translation.gc.pe.max"), 1.0);
    EXPECT_EQ(rig.sim.stats().value("translation.gc.pe_distribution.1"), 3.0);
}

TEST(ZngFtl, MergeReadsEveryPageFromItsNewestCopy) {
    ZngFtlRig rig(small_ftl());
    FullLogScenario s(rig);  // d0's plane-0 pages 0..3 rewritten into log block 2, pages 0..3
    rig.flash->write(s.d0.with_page(0), [] {});
    rig.sim.run();
    ASSERT_EQ(rig.ftl->gc().merges(), 1u);
    // By hand: of the 16 merge reads, the 4 of data block 0 in plane 0 go to log block 2
    // (page i at log page i); the other 12 read the data blocks' own pages (0 and 1).
    ASSERT_EQ(rig.flash->read_at.size(), 16u);
    int from_log = 0, from_data = 0;
    for (const flash::FlashAddress& a : rig.flash->read_at) {
        if (a.block == 2) {
            ++from_log;
            EXPECT_TRUE(a.same_plane(s.d0)) << a.to_string();
        } else {
            ++from_data;
            EXPECT_LE(a.block, 1u) << a.to_string();
        }
    }
    EXPECT_EQ(from_log, 4);
    EXPECT_EQ(from_data, 12);
    for (uint32_t pg = 0; pg < 4; ++pg)
        EXPECT_NE(std::find(rig.flash->read_at.begin(), rig.flash->read_at.end(), s.d0.with_block(2).with_page(pg)),
                  rig.flash->read_at.end())
            << "log page " << pg;
}

// A merge moves valid pages only (paper II: GC "migrates multiple valid pages"): those
// rewritten into the log and those of the application's data set, each at its own
// position in the new block; the pages between them stay erased.
TEST(ZngFtl, MergeMovesOnlyValidPages) {
    // App 0's data set: vpn 0..5 (24 KiB from 0) and vpn 10 (4 KiB at 40 KiB).
    auto in_data_set = [](uint16_t, uint64_t first, uint64_t last) {
        auto overlaps = [&](uint64_t base, uint64_t end) { return first < end && last >= base; };
        return overlaps(0, 24 * 1024) || overlaps(40 * 1024, 44 * 1024);
    };
    ZngFtlRig rig(small_ftl(), 3 * kMicrosecond, 100 * kMicrosecond, 1 * kMillisecond, 1, in_data_set);
    FullLogScenario s(rig);  // d0's plane-0 pages 0..3 (vpn 0, 4, 8, 12) rewritten
    const Tick t0 = rig.sim.now();
    rig.flash->write(s.d0.with_page(0), [] {});
    rig.sim.run();
    ASSERT_EQ(rig.ftl->gc().merges(), 1u);
    // By hand, unit 0 (channel 0):
    //  - data block 0, plane 0: vpn 0, 4, 8, 12, all rewritten: 4 reads, 4 programs;
    //  - data block 0, plane 1: vpn 2 (data), 6 (none), 10 (data), 14 (none): pages 0 and 2
    //    read and programmed, pages 1 and 3 left erased;
    //  - data block 1 (vpn 16..31): no data, nothing rewritten: nothing read or programmed.
    EXPECT_EQ(rig.flash->reads, 6u);
    EXPECT_EQ(rig.ftl->gc().pages_moved(), 6u);
    EXPECT_EQ(rig.flash->programs, 6u);
    EXPECT_EQ(rig.flash->erases, 6u);  // (2 data blocks + 1 log block) x 2 planes, as before
    const flash::FlashAddress nb0 = s.d0.with_block(3), nb1 = s.d1.with_block(4);
    const flash::FlashAddress nb0p1 = rig.page_of(0, 2);  // plane 1, page 0 of the new block 0
    EXPECT_EQ(nb0p1.block, 3u);
    const auto& st = rig.flash->states();
    for (uint32_t pg = 0; pg < 4; ++pg) EXPECT_TRUE(st.page_programmed(nb0.with_page(pg))) << pg;
    EXPECT_TRUE(st.page_programmed(nb0p1.with_page(0)));
    EXPECT_FALSE(st.page_programmed(nb0p1.with_page(1)));
    EXPECT_TRUE(st.page_programmed(nb0p1.with_page(2)));
    EXPECT_FALSE(st.page_programmed(nb0p1.with_page(3)));
    EXPECT_EQ(st.next_free_page(nb1), 0u);
    // Time by hand: plane 0 reads and programs 4 pages (4 x 103 us) and plane 1 two (206
    // us), in parallel: the merge ends after 412 us. Each plane then erases 3 blocks (3 ms)
    // and the parked write programs 100 us after plane 0's erases.
    EXPECT_EQ(rig.sim.stats().value("translation.gc.merge_time"), 412.0 * 1000);
    EXPECT_EQ(rig.sim.now() - t0, 3512 * kMicrosecond);
}

TEST(ZngFtl, MergeHoldsEveryTranslationOfItsOwnerAndNoneOfOthers) {
    ZngFtlRig rig(small_ftl());
    uint64_t ppn = 0;
    ASSERT_TRUE(rig.ftl->translate(1, 0, ppn));  // app 1 has a block in the same unit
    FullLogScenario s(rig);                      // app 0 translated vpn 0 and vpn 16
    // One log of shootdowns and flushes, in the order they happen (flush = vpn ~0).
    constexpr uint64_t kFlush = ~uint64_t{0};
    std::vector<std::pair<uint16_t, uint64_t>> events;
    rig.ftl->set_shootdown([&](uint16_t app, uint64_t vpn) { events.push_back({app, vpn}); });
    rig.ftl->set_cache_flush([&](uint16_t app) { events.push_back({app, kFlush}); });

    const Tick merge_start = rig.sim.now();
    rig.flash->write(s.d0.with_page(0), [] {});  // starts the merge of app 0's group
    rig.sim.events().run_until(rig.sim.now() + 1 * kMicrosecond);
    ASSERT_TRUE(rig.ftl->gc().busy());
    // At the request: every page of the group's 2 data blocks (2 blocks x 2 planes x 4
    // pages = 16, channel 0, virtual blocks 0 and 1). At the start: the owner's L2 flush,
    // then each page app 0 ever translated (vpn 0 and 16) - 16 + 1 + 2 = 19 events, none
    // of app 1.
    ASSERT_EQ(events.size(), 19u);
    for (size_t i = 0; i < 16; ++i)
        EXPECT_TRUE(events[i].first == 0 && events[i].second % 2 == 0 && events[i].second < 32) << i;
    EXPECT_EQ(events[16], (std::pair<uint16_t, uint64_t>{0, kFlush}));
    EXPECT_EQ(events[17], (std::pair<uint16_t, uint64_t>{0, 0}));
    EXPECT_EQ(events[18], (std::pair<uint16_t, uint64_t>{0, 16}));
    // Every translation of the owner is held, of any block (vpn 1 lies in unit 1, another
    // group); app 1 goes on, in the merging unit too.
    EXPECT_FALSE(rig.ftl->translate(0, 0, ppn));
    EXPECT_FALSE(rig.ftl->translate(0, 18, ppn));
    EXPECT_FALSE(rig.ftl->translate(0, 1, ppn));
    EXPECT_FALSE(rig.ftl->translate(0, 1000, ppn));  // never touched before: allocated, but held
    EXPECT_TRUE(rig.ftl->translate(1, 0, ppn));
    EXPECT_TRUE(rig.ftl->translate(1, 2, ppn));
    std::vector<std::pair<uint64_t, Tick>> released;
    for (uint64_t vpn : {1ull, 0ull, 1000ull})
        rig.ftl->resolve_fault(0, vpn, [&, vpn](uint64_t p) {
            released.push_back({vpn, rig.sim.now()});
            if (vpn == 0) ppn = p;
        });
    rig.sim.run();
    // All released when the merge ended, in the order they were held. The merge: 2 members
    // x 4 pages x (tR 3 + tPROG 100) = 824 us per plane (both planes in parallel); its
    // erases follow once the tables name the new blocks.
    const Tick end = merge_start + 824 * kMicrosecond;
    ASSERT_EQ(released.size(), 3u);
    EXPECT_EQ(released[0], (std::pair<uint64_t, Tick>{1, end}));
    EXPECT_EQ(released[1], (std::pair<uint64_t, Tick>{0, end}));
    EXPECT_EQ(released[2], (std::pair<uint64_t, Tick>{1000, end}));
    // App 1 took block 0 first, so app 0 had 1, 2 and log 3; the merge moved vpn 0 to 4.
    EXPECT_EQ(rig.spec.geometry.decode(ppn * 4096), s.d0.with_block(4));
    EXPECT_EQ(rig.ftl->gc().held(), 3u);
    EXPECT_EQ(rig.ftl->gc().blocked_time(0), 824 * kMicrosecond);
    EXPECT_EQ(rig.ftl->gc().blocked_time(1), 0u);
    // After the merge the owner translates again without a hold.
    EXPECT_TRUE(rig.ftl->translate(0, 1, ppn));
}

TEST(ZngFtl, WritesToAFullLogBlockDuringTheMergeJoinIt) {
    ZngFtlRig rig(small_ftl());
    FullLogScenario s(rig);
    int done = 0;
    rig.flash->write(s.d0.with_page(1), [&] { ++done; });
    rig.flash->write(s.d1.with_page(2), [&] { ++done; });  // same group, same full plane-0 log
    rig.sim.run();
    EXPECT_EQ(done, 2);
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
    EXPECT_EQ(rig.flash->parked_writes, 2u);
}

struct WearResult {
    uint32_t lo = UINT32_MAX, hi = 0;
    uint64_t merges = 0;
    double stat_spread = 0;
};

// App 0 fills the user capacity of both units (8 data blocks each), then rewrites
// uniformly random pages; every write goes to a log block and full log blocks merge.
// Fast flash timings keep the test quick (only the order of operations matters here).
WearResult random_writes(const std::string& policy, int writes) {
    ZngFtlRig rig(small_ftl(", wear_leveling: {type: " + policy + "}"), 1, 1, 1);
    const uint64_t pages = 8 * 16;
    for (uint64_t vpn = 0; vpn < pages; ++vpn) rig.page_of(0, vpn);
    uint64_t rng = 12345;
    uint64_t completed = 0;
    for (int i = 0; i < writes; ++i) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t vpn = (rng >> 33) % pages;
        uint64_t ppn = 0;
        if (!rig.ftl->translate(0, vpn, ppn)) {
            rig.sim.run();  // the held warp waits for the merge
            EXPECT_TRUE(rig.ftl->translate(0, vpn, ppn));
        }
        rig.flash->write(rig.spec.geometry.decode(ppn * 4096), [&] { ++completed; });
        rig.sim.run();
    }
    EXPECT_EQ(completed, static_cast<uint64_t>(writes));
    WearResult r;
    rig.ftl->tables().for_each_erase_count([&](uint32_t erases, uint64_t) {
        r.lo = std::min(r.lo, erases);
        r.hi = std::max(r.hi, erases);
    });
    r.merges = rig.ftl->gc().merges();
    r.stat_spread = rig.sim.stats().value("translation.gc.pe.max") - rig.sim.stats().value("translation.gc.pe.min");
    return r;
}

TEST(ZngFtl, LongRandomWritesKeepEraseCountsLevel) {
    WearResult half = random_writes("least_erased", 10000);
    WearResult full = random_writes("least_erased", 20000);
    WearResult fifo = random_writes("fifo", 20000);
    std::printf("least_erased: 10k writes -> %llu merges, erases %u..%u; 20k -> %llu merges, erases %u..%u; "
                "fifo 20k -> erases %u..%u\n",
                static_cast<unsigned long long>(half.merges), half.lo, half.hi,
                static_cast<unsigned long long>(full.merges), full.lo, full.hi, fifo.lo, fifo.hi);
    // 20,000 writes fill a 4-page log block at least every 4 writes to one plane.
    EXPECT_GT(full.merges, 2000u);
    EXPECT_GT(full.lo, 0u);  // every block took part
    EXPECT_EQ(full.stat_spread, static_cast<double>(full.hi - full.lo));
    // Bounded: the spread stays a few erases while the mean grows with the run; doubling
    // the run does not double it.
    EXPECT_LE(full.hi - full.lo, 10u);
    EXPECT_LE(full.hi - full.lo, 2 * (half.hi - half.lo) + 2);
    EXPECT_GT(full.lo, 10 * (full.hi - full.lo));
    // Reusing blocks in the order they were freed, with no regard to wear, spreads more.
    EXPECT_LT(full.hi - full.lo, fifo.hi - fifo.lo);
}

}  // namespace
}  // namespace zng::ftl::test

namespace zng::ftl::test {
namespace {

// log_block_pages: the FTL merges a group once a plane's log block holds that many pages,
// so merges happen without shrinking the flash blocks. The flash back end asks
// wait_for_merge() before each program of a dirty page, then log_block_for().
bool program_through_ftl(ZngFtlRig& rig, const flash::FlashAddress& page, std::function<void()> resume) {
    if (rig.ftl->wait_for_merge(page, std::move(resume))) return false;
    rig.flash->write(page, [] {});
    return true;
}

TEST(ZngFtl, LogBlockPagesThresholdMergesBeforeTheBlockIsFull) {
    ZngFtlRig rig(small_ftl(", log_block_pages: 2"));
    flash::FlashAddress d0 = rig.page_of(0, 0);  // data block 0 (unit 0), plane 0
    rig.page_of(0, 16);                                 // data block 1, same group
    int resumed = 0;
    // Two programs fill the threshold of plane 0's log block (4 pages per block).
    EXPECT_TRUE(program_through_ftl(rig, d0.with_page(0), [&] { ++resumed; }));
    EXPECT_TRUE(program_through_ftl(rig, d0.with_page(1), [&] { ++resumed; }));
    rig.sim.run();
    EXPECT_EQ(rig.ftl->gc().merges(), 0u);
    EXPECT_EQ(rig.flash->log_writes, 2u);
    // Plane 1 of the same group has used none of its pages: not held.
    const flash::FlashAddress d0p1 = rig.page_of(0, 2);
    ASSERT_EQ(d0p1.plane, 1u);
    EXPECT_TRUE(program_through_ftl(rig, d0p1, [&] { ++resumed; }));
    rig.sim.run();
    EXPECT_EQ(rig.flash->log_writes, 3u);
    uint64_t ppn = 0;
    // The third program of plane 0 is held and starts the merge.
    const Tick start = rig.sim.now();
    Tick resumed_at = 0;
    EXPECT_FALSE(program_through_ftl(rig, d0.with_page(2), [&] { resumed_at = rig.sim.now(); }));
    EXPECT_TRUE(rig.ftl->gc().busy());
    EXPECT_FALSE(rig.ftl->translate(0, 0, ppn));
    rig.sim.run();
    // Same merge as a full block: 2 members x 4 pages x (3 + 100) us = 824 us per plane
    // (its erases follow after the owner resumes).
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
    EXPECT_EQ(resumed_at, start + 824 * kMicrosecond);
    EXPECT_EQ(rig.ftl->gc().pages_moved(), 16u);
    // The counts restart: two more programs of plane 0 (of the moved data block) pass, the
    // third merges again.
    d0 = rig.page_of(0, 0);
    EXPECT_TRUE(program_through_ftl(rig, d0.with_page(2), [&] { ++resumed; }));
    EXPECT_TRUE(program_through_ftl(rig, d0.with_page(3), [&] { ++resumed; }));
    rig.sim.run();
    EXPECT_FALSE(program_through_ftl(rig, d0.with_page(0), [&] { ++resumed; }));
    rig.sim.run();
    EXPECT_EQ(rig.ftl->gc().merges(), 2u);
    EXPECT_EQ(resumed, 1);
}

TEST(ZngFtl, LogBlockPagesBeyondTheBlockIsAConfigError) {
    try {
        ZngFtlRig rig(small_ftl(", log_block_pages: 5"));  // blocks have 4 pages
        FAIL() << "accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("log_block_pages"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace zng::ftl::test
