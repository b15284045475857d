// Flash registers as the write cache (paper I, V-B): chunks written tracked per
// register, the old page sensed only when a partly written page is programmed or read,
// clean victims first, dirty pages programmed in the background above dirty_watermark;
// and the Fig. 12 metrics counted as the paper defines them. Every clock runs at
// 800 MHz (1250 ps): times are whole cycles plus tR / tPROG, summed by hand.
#include <gtest/gtest.h>

#include "tests/flash_model/flash_test_util.hpp"

namespace zng::flash {
namespace {

using namespace testing;

// ZnG's setting (configs/fragments/znand.yaml): at most half of a plane's 2 registers dirty.
const char* kWriteCache = "  dirty_watermark: 0.5\n";

struct Plane0 {
    Rig& rig;
    Requester& req;
    uint64_t page(uint32_t p) const {
        return rig.zng().geometry().encode(FlashAddress{1, 0, 0, 0, 1, p});
    }
    // Issues one request and runs until the array is idle; returns the time that took.
    Tick run(uint64_t addr, uint32_t size, MemOp op) {
        const Tick start = rig.sim.now();
        req.issue(addr, size, op);
        rig.sim.run();
        return rig.sim.now() - start;
    }
    void stores(uint32_t p, uint32_t n) {
        for (uint32_t i = 0; i < n; ++i) req.issue(page(p) + i * 128, 128, MemOp::Write);
        rig.sim.run();
    }
};

// Page Z (block 1, page 0) takes 32 stores of 128 B (the whole page) or 16 (its first
// half). A 128 B store to page W then leaves 2 of the plane's 2 registers dirty, above
// dirty_watermark 0.5 x 2 = 1, and Z (least recently used) is programmed in the
// background once W's data is in: 4 decode + 19 command + 23 port cycles after W is
// issued. Whole page: tPROG follows, no sense. Half page over a page holding data
// (block 1 is pre-loaded): the old copy is sensed first (tR), then tPROG. Half page over
// an erased block: nothing to merge, no sense.
TEST(RegisterWriteCache, AFullyWrittenPageIsProgrammedWithoutASense) {
    struct Case {
        uint32_t stores;
        bool erased;
        double senses;
    };
    for (const Case& c : {Case{32, false, 0}, Case{16, false, 1}, Case{16, true, 0}}) {
        SCOPED_TRACE(std::to_string(c.stores) + (c.erased ? " stores, erased block" : " stores"));
        Rig rig(small_platform(kWriteCache, kMesh1x2));
        Requester req(rig);
        Plane0 pl{rig, req};
        if (c.erased) rig.zng().set_block_erased(FlashAddress{1, 0, 0, 0, 1, 0});
        pl.stores(0, c.stores);
        EXPECT_EQ(stat(rig, "programs"), 0.0);
        const Tick t = pl.run(pl.page(1), 128, MemOp::Write);
        EXPECT_EQ(t, (4 + 19 + 23) * kCycle + static_cast<Tick>(c.senses) * 3 * kMicrosecond + 100 * kMicrosecond);
        EXPECT_EQ(stat(rig, "programs"), 1.0);
        EXPECT_EQ(stat(rig, "background_programs"), 1.0);
        EXPECT_EQ(stat(rig, "senses"), c.senses);
        EXPECT_EQ(stat(rig, "merge_senses"), c.senses);
        EXPECT_EQ(stat(rig, "demand_senses"), 0.0);
        EXPECT_TRUE(rig.zng().backbone().package(1).decoder(0).resolve(1, 0).log_hit);
        EXPECT_EQ(rig.backend->in_flight(), 0u);
    }
}

// A read hitting a register that holds only the first half of its page: 128 B at
// offset 0 is served by the register (4 decode + 3 command + 23 port + 19 data cycles);
// 128 B at offset 3072 is not valid there, so the page is sensed and merged first
// (+ tR). A second read of offset 3072 then hits.
TEST(RegisterWriteCache, AReadOfUnwrittenChunksSensesAndMerges) {
    Rig rig(small_platform(kWriteCache, kMesh1x2));
    Requester req(rig);
    Plane0 pl{rig, req};
    pl.stores(0, 16);
    EXPECT_EQ(pl.run(pl.page(0), 128, MemOp::Read), (4 + 3 + 23 + 19) * kCycle);
    EXPECT_EQ(stat(rig, "senses"), 0.0);
    EXPECT_EQ(pl.run(pl.page(0) + 3072, 128, MemOp::Read), 3 * kMicrosecond + (4 + 3 + 23 + 19) * kCycle);
    EXPECT_EQ(stat(rig, "senses"), 1.0);
    EXPECT_EQ(stat(rig, "demand_senses"), 1.0);
    EXPECT_EQ(pl.run(pl.page(0) + 3072, 128, MemOp::Read), (4 + 3 + 23 + 19) * kCycle);
    EXPECT_EQ(stat(rig, "senses"), 1.0);
    // The merged register is whole: evicting it needs no further sense. Two more
    // written pages push it out (background program at the second): 1 program, 1 sense.
    pl.run(pl.page(1), 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "programs"), 1.0);  // page 0 (LRU) programmed in the background
    EXPECT_EQ(stat(rig, "merge_senses"), 0.0);
}

// Replacement takes a clean register before a dirty one: page A written (dirty), page
// B read (clean, newer). A read of C takes B's register although A is the least
// recently used: no program, and A is still there for a write hit.
TEST(RegisterWriteCache, ACleanVictimIsPreferredToAnOlderDirtyOne) {
    Rig rig(small_platform(kWriteCache, kMesh1x2));
    Requester req(rig);
    Plane0 pl{rig, req};
    pl.run(pl.page(0), 128, MemOp::Write);
    pl.run(pl.page(1), 4096, MemOp::Read);
    pl.run(pl.page(2), 4096, MemOp::Read);
    EXPECT_EQ(stat(rig, "programs"), 0.0);
    EXPECT_EQ(stat(rig, "evictions"), 0.0);
    pl.run(pl.page(0), 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "register_write_hits"), 1.0);
}

// Reads of plane 0: page 1 (4 KiB), page 1 again (128 B), page 2 (4 KiB), page 1 again.
// Keeping pages (the default): page 1 takes one register, its re-read hits there, page 2
// takes the other register and the last read of page 1 hits again: 2 senses, 2 register
// read hits. Not keeping them (paper III-C: the registers are the write buffer, the L2 the
// read buffer): every read goes through the plane's page buffer, which holds page 1 until
// page 2's sense, so the second read is a page-buffer hit and the fourth senses page 1
// again: 3 senses, no register read hit, and no register ever holds a read page.
TEST(RegisterWriteCache, ReadsKeepNoPageInTheRegistersWhenTheyAreTheWriteBufferOnly) {
    for (bool keep : {true, false}) {
        SCOPED_TRACE(keep ? "reads keep pages" : "registers for writes only");
        Rig rig(small_platform(std::string(kWriteCache) + "  reads_keep_pages: " + (keep ? "true" : "false") + "\n",
                               kMesh1x2));
        Requester req(rig);
        Plane0 pl{rig, req};
        pl.run(pl.page(1), 4096, MemOp::Read);
        pl.run(pl.page(1), 128, MemOp::Read);
        pl.run(pl.page(2), 4096, MemOp::Read);
        pl.run(pl.page(1), 128, MemOp::Read);
        EXPECT_EQ(stat(rig, "senses"), keep ? 2.0 : 3.0);
        EXPECT_EQ(stat(rig, "register_read_hits"), keep ? 2.0 : 0.0);
        EXPECT_EQ(stat(rig, "page_buffer_reads"), keep ? 0.0 : 3.0);
        EXPECT_EQ(stat(rig, "page_buffer_hits"), keep ? 0.0 : 1.0);
        EXPECT_EQ(stat(rig, "read_reaccesses"), keep ? 0.0 : 1.0);
    }
}

// With no background programs (dirty_watermark 1) both registers of plane 0 end dirty
// (A, B); a write to C must evict one (A, the LRU). With the default watermark the
// second write already started A's program, so C finds A's register clean: C's data
// is in after 4 + 19 + 23 cycles instead of after tPROG as well. (No cache program
// here: A's register is free only when its program ends.)
TEST(RegisterWriteCache, BackgroundProgramsSpareAMissTheWait) {
    for (bool background : {false, true}) {
        SCOPED_TRACE(background ? "watermark 0.5" : "watermark 1");
        Rig rig(small_platform(std::string(background ? kWriteCache : "  dirty_watermark: 1\n") +
                                   "  cache_program: false\n",
                               kMesh1x2));
        Requester req(rig);
        Plane0 pl{rig, req};
        pl.run(pl.page(0), 128, MemOp::Write);
        pl.run(pl.page(1), 128, MemOp::Write);
        EXPECT_EQ(stat(rig, "programs"), background ? 1.0 : 0.0);
        // Done when C's acknowledgement is back (3 cycles) or, with background
        // programs, when B's program (started once C is in, with a merge sense) ends.
        const Tick t = pl.run(pl.page(2), 128, MemOp::Write);
        if (background) {
            EXPECT_EQ(t, (4 + 19 + 23) * kCycle + 103 * kMicrosecond);
        } else {
            EXPECT_EQ(t, 103 * kMicrosecond + (4 + 19 + 23 + 3) * kCycle);
        }
        EXPECT_EQ(stat(rig, "programs"), background ? 2.0 : 1.0);
    }
}

// Cache program (ONFI PROGRAM PAGE CACHE): the evicted page A moves into plane 0's page
// buffer when its program starts, so C's data enters A's register then, not after tPROG.
// C is issued: 4 decode + 19 command cycles; A (128 B over a pre-loaded page) is sensed
// and merged (tR) and its program starts; C's 23 port cycles and 3-cycle acknowledgement
// run during tPROG, so the controller holds no write 10 us into the program (it would
// hold C until tPROG ends otherwise), and the run ends with A's program.
TEST(RegisterWriteCache, ACacheProgramFreesTheRegisterWhenTheProgramStarts) {
    for (bool cache : {true, false}) {
        SCOPED_TRACE(cache ? "cache program" : "no cache program");
        Rig rig(small_platform(std::string("  dirty_watermark: 1\n  cache_program: ") + (cache ? "true" : "false") +
                                   "\n",
                               kMesh1x2));
        Requester req(rig);
        Plane0 pl{rig, req};
        pl.run(pl.page(0), 128, MemOp::Write);
        pl.run(pl.page(1), 128, MemOp::Write);
        const Tick start = rig.sim.now();
        uint32_t writes_held = 99;
        testing::Probe probe(rig.sim, start + (4 + 19) * kCycle + 13 * kMicrosecond,
                             [&] { writes_held = rig.zng().backbone().controller(1).write_occupancy(); });
        const Tick t = pl.run(pl.page(2), 128, MemOp::Write);
        EXPECT_EQ(writes_held, cache ? 0u : 1u);
        EXPECT_EQ(t, cache ? (4 + 19) * kCycle + 103 * kMicrosecond
                           : 103 * kMicrosecond + (4 + 19 + 23 + 3) * kCycle);
        EXPECT_EQ(stat(rig, "programs"), 1.0);
    }
}

// One register per plane: dirty_watermark 0.5 x 1 allows no dirty page, but the
// register the stores are going to is never programmed in the background (paper V-B:
// the registers buffer the small writes). Four 128 B stores to page Z, each run to
// idle: 1 miss, 3 write hits, no program (a program per store before: 4). A store to W
// then needs the register: Z (4 of 32 chunks written, block 1 pre-loaded) is programmed
// with a merge sense as an eviction, not in the background: 1 program, 1 sense.
TEST(RegisterWriteCache, TheRegisterTakingTheStoresIsNotProgrammedInTheBackground) {
    std::string platform = small_platform(kWriteCache, kMesh1x2);
    const std::string two = "registers_per_plane: 2";
    platform.replace(platform.find(two), two.size(), "registers_per_plane: 1");
    Rig rig(platform);
    Requester req(rig);
    Plane0 pl{rig, req};
    for (uint32_t i = 0; i < 4; ++i) pl.run(pl.page(0) + i * 128, 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "register_misses"), 1.0);
    EXPECT_EQ(stat(rig, "register_write_hits"), 3.0);
    EXPECT_EQ(stat(rig, "background_programs"), 0.0);
    EXPECT_EQ(stat(rig, "programs"), 0.0);
    pl.run(pl.page(1), 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "evictions"), 1.0);
    EXPECT_EQ(stat(rig, "background_programs"), 0.0);
    EXPECT_EQ(stat(rig, "programs"), 1.0);
    EXPECT_EQ(stat(rig, "merge_senses"), 1.0);
}

// Read re-accesses count demand reads that sensed a page a demand read sensed before;
// merge senses and writes do not. Plane 0:
//   write X 128 B (dirty, 1 of 2 registers)
//   read Y 4 KiB: miss, sensed (demand sense 1 of Y)
//   write Z 128 B: takes Y's clean register; X and Z dirty > 1: X programmed in the
//     background after a merge sense (one chunk of X written, block 1 holds data)
//   read X 128 B: register hit (X clean and whole after the merge)
//   read Y 4 KiB: takes X's clean register, sensed again: re-access 1
// Senses 3 (Y, merge of X, Y), demand senses 2 of 1 distinct page read: 2 per page.
TEST(FlashMetrics, ReadReaccessesCountDemandReadsOnly) {
    Rig rig(small_platform(kWriteCache, kMesh1x2));
    Requester req(rig);
    Plane0 pl{rig, req};
    pl.run(pl.page(0), 128, MemOp::Write);
    pl.run(pl.page(1), 4096, MemOp::Read);
    pl.run(pl.page(2), 128, MemOp::Write);
    pl.run(pl.page(0), 128, MemOp::Read);
    pl.run(pl.page(1), 4096, MemOp::Read);
    EXPECT_EQ(stat(rig, "senses"), 3.0);
    EXPECT_EQ(stat(rig, "merge_senses"), 1.0);
    EXPECT_EQ(stat(rig, "demand_senses"), 2.0);
    EXPECT_EQ(stat(rig, "read_reaccesses"), 1.0);
    EXPECT_DOUBLE_EQ(stat(rig, "read_reaccesses_per_page"), 2.0);
}

// Write redundancy = (programs + pages still dirty in registers) / distinct pages
// written. Plane 0: write X, write Z (2 dirty > 1: X programmed), write X again (a hit
// on X's clean register; X and Z dirty: Z, now the LRU, programmed). At the end X is
// dirty: (2 programs + 1) / 2 pages = 1.5 (programs per page programmed alone: 1.0).
TEST(FlashMetrics, WriteRedundancyCountsPagesStillDirty) {
    Rig rig(small_platform(kWriteCache, kMesh1x2));
    Requester req(rig);
    Plane0 pl{rig, req};
    pl.run(pl.page(0), 128, MemOp::Write);
    pl.run(pl.page(2), 128, MemOp::Write);
    pl.run(pl.page(0), 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "programs"), 2.0);
    EXPECT_EQ(stat(rig, "register_write_hits"), 1.0);
    EXPECT_EQ(rig.zng().backbone().package(1).registers().dirty_count(), 1u);
    EXPECT_DOUBLE_EQ(stat(rig, "write_redundancy"), 1.5);
}

// Write staging (seed 004 III-A: each write "adds a data migration task to the pool" and
// the tasks run one by one in the background). No cache program, so a register is busy
// for the whole of its program. Plane 0 (2 registers, block 1 pre-loaded), every request
// run until the array is idle (the controller acknowledges a write after its 4 decode
// cycles, holding it until it is in a register):
//   write A 128 B: 4 decode + 19 command + 23 port cycles in, 3 back: 49 cycles. A is
//     queued but takes the stores: no program either way.
//   write B 128 B: acknowledged after 4 cycles either way. With staging, A's program
//     starts once B's data is in (46 cycles): A holds 1 of 32 chunks over a page holding
//     data, so tR merges the old copy, then tPROG: idle after 46 cycles + 103 us.
//   read A at 3072 (a chunk no store wrote), 128 B: with staging A's register is whole
//     after the merge, a register hit of 4 + 3 + 23 + 19 = 49 cycles; without, only
//     chunk 0 is valid, so the page is sensed and merged: 3 us + 49 cycles.
//   write C 128 B: with staging A's register is clean and C's data is in after 46
//     cycles (then B, queued and no longer taking the stores, is programmed in the
//     background); without, both registers are dirty and C evicts the LRU one (B, A was
//     just read): tR merge + tPROG before C's data goes in, so the controller still
//     holds C 10 us after it was issued.
TEST(RegisterWriteStaging, AQueuedPageIsProgrammedBehindTheNextStoreSoAMissFindsACleanRegister) {
    for (bool staging : {false, true}) {
        SCOPED_TRACE(staging ? "write staging" : "no staging");
        Rig rig(small_platform(std::string("  cache_program: false\n  write_staging: ") +
                                   (staging ? "true" : "false") + "\n",
                               kMesh1x2));
        Requester req(rig);
        Plane0 pl{rig, req};
        pl.run(pl.page(0), 128, MemOp::Write);
        EXPECT_EQ(stat(rig, "programs"), 0.0);
        const Tick start = rig.sim.now();
        const Tick idle_b = pl.run(pl.page(1), 128, MemOp::Write);
        EXPECT_EQ(req.done_at[1] - start, 4 * kCycle);
        EXPECT_EQ(idle_b, staging ? 46 * kCycle + 103 * kMicrosecond : 49 * kCycle);
        EXPECT_EQ(stat(rig, "programs"), staging ? 1.0 : 0.0);
        EXPECT_EQ(stat(rig, "background_programs"), staging ? 1.0 : 0.0);
        EXPECT_EQ(pl.run(pl.page(0) + 3072, 128, MemOp::Read), staging ? 49 * kCycle : 3 * kMicrosecond + 49 * kCycle);
        EXPECT_EQ(stat(rig, "register_read_hits"), staging ? 1.0 : 0.0);
        uint32_t writes_held = 99;
        testing::Probe probe(rig.sim, rig.sim.now() + 10 * kMicrosecond,
                             [&] { writes_held = rig.zng().backbone().controller(1).write_occupancy(); });
        pl.run(pl.page(2), 128, MemOp::Write);
        EXPECT_EQ(writes_held, staging ? 0u : 1u);
        // Staging: A, then B behind C; without: B, evicted by C.
        EXPECT_EQ(stat(rig, "programs"), staging ? 2.0 : 1.0);
        EXPECT_EQ(stat(rig, "background_programs"), staging ? 2.0 : 0.0);
        EXPECT_EQ(rig.backend->in_flight(), 0u);
    }
}

// Staged pages are programmed in the order of their first store, not of their last use.
// Plane 0 with 4 registers, five 128 B stores issued together: A, B, C, B again, D.
// A's program starts once B's data is in and lasts tR + tPROG (103 us), far longer than
// the other stores (about 46 cycles each), which all land during it; the second store to
// B is a hit on its still dirty register and does not queue it again. When A's program
// ends the queue holds B, C, D (D takes the stores): B goes, then C, although C is the
// least recently used. A fresh log block takes them in program order: log pages 0, 1, 2;
// D stays dirty in its register.
TEST(RegisterWriteStaging, QueuedPagesAreProgrammedInTheOrderOfTheirFirstStore) {
    std::string platform = small_platform("  write_staging: true\n", kMesh1x2);
    const std::string two = "registers_per_plane: 2";
    platform.replace(platform.find(two), two.size(), "registers_per_plane: 4");
    Rig rig(platform);
    Requester req(rig);
    Plane0 pl{rig, req};
    for (uint32_t p : {0u, 1u, 2u, 1u, 3u}) req.issue(pl.page(p), 128, MemOp::Write);
    rig.sim.run();
    EXPECT_EQ(stat(rig, "register_write_hits"), 1.0);
    EXPECT_EQ(stat(rig, "background_programs"), 3.0);
    EXPECT_EQ(stat(rig, "programs"), 3.0);
    const auto& decoder = rig.zng().backbone().package(1).decoder(0);
    for (uint32_t p : {0u, 1u, 2u}) {
        SCOPED_TRACE("page " + std::to_string(p));
        EXPECT_TRUE(decoder.resolve(1, p).log_hit);
        EXPECT_EQ(decoder.resolve(1, p).page, p);
    }
    EXPECT_FALSE(decoder.resolve(1, 3).log_hit);
    EXPECT_EQ(rig.zng().backbone().package(1).registers().dirty_count(), 1u);
}

// register_programs: pipeline (zng-base's two registers per plane as the NAND's page and
// cache registers). Plane 0's block 1 holds data, so each program of a one-store page
// first senses the old copy: tR + tPROG = 103 us. Stores to A and B issued together: A's
// data is in after 4 decode + 19 command + 23 port = 46 cycles and A is programmed at
// once (the page the last store went to included: on_eviction would program nothing);
// B's data goes in during A's program and B waits. 20 us later a second store to B
// merges into B's waiting register, and a second store to A, whose program has started,
// makes A dirty again and queues it behind B. The plane programs A, B, A back to back.
// A's register kept the whole page its first program merged, so A's second program
// senses nothing: idle 46 cycles + 103 + 103 + 100 us after the first stores, three
// programs and two merge senses for four stores.
TEST(RegisterProgramPipeline, PagesAreProgrammedAtOnceAndStoresMergeOnlyWhileTheirPageWaits) {
    for (bool pipeline : {false, true}) {
        SCOPED_TRACE(pipeline ? "pipeline" : "on_eviction");
        Rig rig(small_platform(std::string("  register_programs: ") + (pipeline ? "pipeline" : "on_eviction") + "\n",
                               kMesh1x2));
        Requester req(rig);
        Plane0 pl{rig, req};
        const Tick start = rig.sim.now();
        req.issue(pl.page(0), 128, MemOp::Write);
        req.issue(pl.page(1), 128, MemOp::Write);
        testing::Probe again(rig.sim, start + 20 * kMicrosecond, [&] {
            EXPECT_EQ(stat(rig, "programs"), pipeline ? 1.0 : 0.0);
            req.issue(pl.page(1) + 128, 128, MemOp::Write);
            req.issue(pl.page(0) + 128, 128, MemOp::Write);
        });
        rig.sim.run();
        EXPECT_EQ(stat(rig, "programs"), pipeline ? 3.0 : 0.0);
        EXPECT_EQ(stat(rig, "merge_senses"), pipeline ? 2.0 : 0.0);
        if (pipeline) {
            EXPECT_EQ(rig.sim.now() - start, 46 * kCycle + (103 + 103 + 100) * kMicrosecond);
        }
        EXPECT_EQ(rig.zng().backbone().package(1).registers().dirty_count(), pipeline ? 0u : 2u);
        EXPECT_EQ(rig.backend->in_flight(), 0u);
    }
}

// A bad value of either write-path key is a config error naming the key.
TEST(RegisterWritePath, ABadValueIsAConfigErrorNamingTheKey) {
    for (const std::string key : {"write_staging", "register_programs"}) {
        SCOPED_TRACE(key);
        try {
            Rig rig(small_platform("  " + key + ": maybe\n", kMesh1x2));
            FAIL() << "accepted " << key << ": maybe";
        } catch (const std::exception& e) {
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace zng::flash
