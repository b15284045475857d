// Flash registers grouped per package (paper IV-C, Fig. 8c / 9): merging of writes to
// one page, relief of a plane that receives all the writes, and the time a page takes
// to reach a remote plane through each interconnect. Every clock runs at 800 MHz
// (1250 ps), so times are whole cycles plus tR / tPROG, summed by hand below.
#include <gtest/gtest.h>

#include "tests/flash_model/flash_test_util.hpp"

namespace zng::flash {
namespace {

using namespace testing;

std::string grouped(const std::string& interconnect, bool sense = false) {
    return std::string("  register_grouping: package\n  dirty_watermark: 1\n  write_miss_sense: ") +
           (sense ? "true" : "false") +
           "\n  register_interconnect: " + interconnect + "\n";
}
const std::string kNif = "{type: nif, width: 8B, clock: 800MHz}";

// Issues one request and runs until it completes; returns its latency.
Tick step(Rig& rig, Requester& req, uint64_t addr, uint32_t size, MemOp op) {
    const Tick start = rig.sim.now();
    const size_t n = req.completed;
    req.issue(addr, size, op);
    rig.sim.run();
    EXPECT_EQ(req.completed, n + 1);
    return req.done_at.back() - start;
}

// Two 128 B writes to different lines of one page land in one register: when the page
// finally leaves (the 17th distinct page written into the 16 registers of the package
// pushes it out as least recently used) it costs exactly one program.
TEST(RegisterGrouping, TwoWritesToOnePageMergeIntoOneProgram) {
    Rig rig(small_platform(grouped(kNif), kMesh1x2));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    const uint64_t a = g.encode(FlashAddress{1, 0, 0, 0, 1, 0});
    step(rig, req, a, 128, MemOp::Write);
    step(rig, req, a + 128, 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "register_write_hits"), 1.0);
    for (uint32_t i = 0; i < 16; ++i) step(rig, req, g.encode(FlashAddress{1, 0, 0, i % 8, 2, i / 8}), 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "evictions"), 1.0);
    EXPECT_EQ(stat(rig, "programs"), 1.0);
    EXPECT_DOUBLE_EQ(stat(rig, "write_redundancy"), 1.0);
    EXPECT_TRUE(rig.zng().backbone().package(1).decoder(0).resolve(1, 0).log_hit);  // the merged page was programmed
}

// All writes go to one plane (the asymmetry of Fig. 8b): A B C A B C. With the plane's
// own two registers and dirty_watermark 0.5 (at most 1 of 2 dirty), every write from
// the second on leaves 2 dirty and the older one is programmed in the background, so
// each later write finds a clean register:
//   A, B (program A), C (program B), A (program C), B (program A), C (program B)
//   -> 5 programs; C still dirty at the end: write redundancy (5 + 1) / 3 pages = 2.
// Grouped (watermark 1), the three pages fit in the package's 16 registers: 3 write
// hits, no program.
TEST(RegisterGrouping, GroupedRegistersAbsorbWritesOfOneBusyPlane) {
    for (bool group : {false, true}) {
        Rig rig(small_platform(group ? grouped(kNif) : "  write_miss_sense: false\n  dirty_watermark: 0.5\n",
                               kMesh1x2));
        Requester req(rig);
        const FlashGeometry& g = rig.zng().geometry();
        for (uint32_t p : {0u, 1u, 2u, 0u, 1u, 2u})
            step(rig, req, g.encode(FlashAddress{1, 0, 0, 0, 1, p}), 128, MemOp::Write);
        SCOPED_TRACE(group ? "package grouping" : "plane grouping");
        EXPECT_EQ(stat(rig, "programs"), group ? 0.0 : 5.0);
        EXPECT_EQ(stat(rig, "background_programs"), group ? 0.0 : 5.0);
        EXPECT_EQ(stat(rig, "register_write_hits"), group ? 3.0 : 0.0);
        EXPECT_DOUBLE_EQ(stat(rig, "register_hit_rate"), group ? 0.5 : 0.0);
        if (!group) {
            EXPECT_DOUBLE_EQ(stat(rig, "write_redundancy"), 2.0);
        }
    }
}

// Each register interconnect and the cycles it adds to move a page between planes
// (derived in the comment below).
struct InterconnectCase {
    std::string ic;
    Cycle extra;
};
std::vector<InterconnectCase> interconnect_cases() {
    return {{"{type: fcnet}", 0}, {kNif, 512}, {"{type: swnet}", 519 + 515 + 515 + 519}};
}

// A read of a third page of plane 0 once plane 0's two registers hold (clean) pages:
// the free register the package offers first is plane 1's, so the sensed page crosses
// to it. Local latency (flash_timing_test): tR + (4 decode + 3 command + 519 port +
// 515 data) cycles. The move adds:
//   fcnet  0 cycles (point-to-point wires);
//   nif    4096 B / 8 B = 512 cycles of the local network;
//   swnet  out through an I/O port (7 + 512), to the controller over the mesh
//          (2 + 513 flits), back (515) and in through a port (519) = 2068 cycles.
TEST(RegisterInterconnect, SensedPageReachesARemoteRegister) {
    for (const InterconnectCase& c : interconnect_cases()) {
        SCOPED_TRACE(c.ic);
        Rig rig(small_platform(grouped(c.ic), kMesh1x2));
        Requester req(rig);
        const FlashGeometry& g = rig.zng().geometry();
        step(rig, req, g.encode(FlashAddress{1, 0, 0, 0, 1, 0}), 4096, MemOp::Read);
        step(rig, req, g.encode(FlashAddress{1, 0, 0, 0, 1, 1}), 4096, MemOp::Read);
        EXPECT_EQ(stat(rig, "migrations"), 0.0);
        const Tick t = step(rig, req, g.encode(FlashAddress{1, 0, 0, 0, 1, 2}), 4096, MemOp::Read);
        EXPECT_EQ(t, 3 * kMicrosecond + (4 + 3 + 519 + 515 + c.extra) * kCycle);
        EXPECT_EQ(stat(rig, "migrations"), 1.0);
        EXPECT_EQ(rig.zng().backbone().package(1).registers()[2].home_plane, 1u);
        EXPECT_EQ(FlashRegisterFile::tag_plane(rig.zng().backbone().package(1).registers()[2].tag), 0u);
        // The page now sits in plane 1's register: a second read of it is a register hit.
        const Tick hit = step(rig, req, g.encode(FlashAddress{1, 0, 0, 0, 1, 2}), 128, MemOp::Read);
        EXPECT_EQ(hit, (4 + 3 + 23 + 19) * kCycle);
    }
}

// Critical word first across a SWnet move: the third read of the case above, a 4 KiB
// unit that waits for its 128 B at offset 1024, sends that part once, when the moved page
// is read out of plane 1's register: tR + 2068 move cycles + the 49 cycles of
// CriticalWordFirst.TheWaitedForLineLeavesAheadOfTheUnit (4 + 3 command, 7 + 16 port,
// 16 + 1 + 2 network); the rest ends at tR + 2068 + 1029. (The move's own two port
// crossings carry the page, not the answer.)
TEST(RegisterInterconnect, ASwnetMoveAnswersTheWaitedForPartOnce) {
    Rig rig(small_platform(grouped("{type: swnet}"), kMesh1x2));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    step(rig, req, g.encode(FlashAddress{1, 0, 0, 0, 1, 0}), 4096, MemOp::Read);
    step(rig, req, g.encode(FlashAddress{1, 0, 0, 0, 1, 1}), 4096, MemOp::Read);
    const Tick start = rig.sim.now();
    const uint64_t page = g.encode(FlashAddress{1, 0, 0, 0, 1, 2});
    req.issue(page, 4096, MemOp::Read, 1024, 128);
    rig.sim.run();
    EXPECT_EQ(stat(rig, "migrations"), 1.0);
    ASSERT_EQ(req.first_at.size(), 3u);  // by issue order: the two reads before sent none
    EXPECT_EQ(req.first_at[2] - start, 3 * kMicrosecond + (2068 + 49) * kCycle);
    EXPECT_EQ(stat(rig, "controller1.first_parts"), 1.0);
    EXPECT_EQ(req.first_piece_addr, page + 1024);
    EXPECT_EQ(req.done_at.back() - start, 3 * kMicrosecond + (2068 + 1029) * kCycle);
}

// A dirty page of plane 0 held in plane 1's register is evicted: it must reach plane 0
// before tPROG. 16 writes of plane-0 pages fill the package (registers 0, 1 local, 2..15
// remote); rewriting the first two makes register 2 the least recently used, so the
// 17th write evicts it. That write is posted (answered after the 4 decode cycles), and
// the controller's copy waits for the eviction until the acknowledgement ends the run:
//   4 decode + (2 + (8 + 128) / 8 = 19) command with data, then the evicted page (128 B
//   written over a page holding data) senses its old copy and merges (tR), the move, and
//   tPROG, during which (cache program) the write's 23 port cycles and 3-cycle
//   acknowledgement run.
TEST(RegisterInterconnect, RemoteDirtyPageMovesHomeBeforeItsProgram) {
    for (const InterconnectCase& c : interconnect_cases()) {
        SCOPED_TRACE(c.ic);
        Rig rig(small_platform(grouped(c.ic), kMesh1x2));
        Requester req(rig);
        const FlashGeometry& g = rig.zng().geometry();
        auto page = [&](uint32_t i) { return g.encode(FlashAddress{1, 0, 0, 0, 1 + i / 8, i % 8}); };
        for (uint32_t i = 0; i < 16; ++i) step(rig, req, page(i), 128, MemOp::Write);
        step(rig, req, page(0), 128, MemOp::Write);
        step(rig, req, page(1), 128, MemOp::Write);
        EXPECT_EQ(stat(rig, "programs"), 0.0);
        const Tick start = rig.sim.now();
        EXPECT_EQ(step(rig, req, g.encode(FlashAddress{1, 0, 0, 0, 3, 0}), 128, MemOp::Write), 4 * kCycle);
        EXPECT_EQ(rig.sim.now() - start, 103 * kMicrosecond + (4 + 19 + c.extra) * kCycle);
        EXPECT_EQ(stat(rig, "merge_senses"), 1.0);
        EXPECT_EQ(stat(rig, "programs"), 1.0);
        EXPECT_EQ(stat(rig, "migrations"), 1.0);
        // Page 2 (block 1, page 2) went to the log block of plane 0.
        EXPECT_TRUE(rig.zng().backbone().package(1).decoder(0).resolve(1, 2).log_hit);
    }
}

// A write that needs a register while both of its plane's registers hold dirty pages
// evicts one of them (the LRU, A) and waits for that program. Writes into plane 1's
// registers finish meanwhile (no array operation, so the die's program does not hold
// them) and retry it at each completion; a retry must not start a second eviction (of
// B): one program, and B still absorbs a later write in its register.
TEST(RegisterEviction, ARetriedWriteEvictsOnlyOnePage) {
    Rig rig(small_platform("  write_miss_sense: false\n  dirty_watermark: 1\n", kMesh1x2));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    auto plane0 = [&](uint32_t page) { return g.encode(FlashAddress{1, 0, 0, 0, 1, page}); };
    step(rig, req, plane0(0), 128, MemOp::Write);  // A
    step(rig, req, plane0(1), 128, MemOp::Write);  // B
    req.issue(plane0(2), 128, MemOp::Write);       // C: evicts A (tPROG = 100 us)
    for (uint32_t p : {0u, 1u, 0u, 1u}) req.issue(g.encode(FlashAddress{1, 0, 0, 1, 1, p}), 128, MemOp::Write);
    rig.sim.run();
    EXPECT_EQ(req.completed, 7u);
    EXPECT_EQ(stat(rig, "evictions"), 1.0);
    EXPECT_EQ(stat(rig, "programs"), 1.0);
    EXPECT_EQ(stat(rig, "register_write_hits"), 2.0);  // the second writes of plane 1's two pages
    step(rig, req, plane0(1), 128, MemOp::Write);      // B is still in its register
    EXPECT_EQ(stat(rig, "register_write_hits"), 3.0);
}

// One package of 2 dies x 1 plane with 2 registers per plane grouped (4 registers),
// filled dirty by 128 B stores to the (die, page) pairs given, in that order; then one
// request of `op` to page 2 of each die, issued together and run to the end.
struct TwoDieMisses {
    Rig rig;
    Requester req;
    Tick start = 0;
    TwoDieMisses(const std::string& flash_extra, std::initializer_list<std::pair<uint32_t, uint32_t>> fill, MemOp op)
        : rig(small_platform(grouped(kNif) + flash_extra, kMesh1x2, 2, 1, 2, 2)), req(rig) {
        for (auto [die, p] : fill) step(rig, req, page(die, p), 128, MemOp::Write);
        EXPECT_EQ(stat(rig, "programs"), 0.0);
        start = rig.sim.now();
        req.issue(page(0, 2), 128, op);
        req.issue(page(1, 2), 128, op);
        rig.sim.run();
        EXPECT_EQ(req.completed, 6u);
    }
    uint64_t page(uint32_t die, uint32_t p) { return rig.zng().geometry().encode(FlashAddress{1, 0, die, 0, 1, p}); }
};

// Misses of two dies that find every register dirty each program a victim of their own:
// the dies program at once (each LUN has its own ready/busy state), so the second miss
// does not wait for the first one's program. One package of 2 dies x 1 plane, 2
// registers per plane grouped: 4 registers, filled dirty in the order die 0, die 1,
// die 0, die 1, so the two least recently used pages sit on different dies. Two reads
// of unbuffered pages, one per die, then evict die 0's and die 1's oldest page.
TEST(RegisterEviction, MissesOfTwoDiesProgramTheirVictimsAtOnce) {
    TwoDieMisses m("  reads_take_dirty_registers: true\n", {{0, 0}, {1, 0}, {0, 1}, {1, 1}}, MemOp::Read);
    Rig& rig = m.rig;
    Requester& req = m.req;
    const Tick start = m.start;
    EXPECT_EQ(stat(rig, "programs"), 2.0);
    EXPECT_EQ(stat(rig, "evictions"), 2.0);
    const Tick first = req.done_at[4] - start;
    const Tick second = req.done_at[5] - start;
    // Each victim holds 128 B over a pre-loaded page: merge sense (tR) then tPROG; then
    // the read senses its page (tR) and leaves as for a register hit: 4 decode + 3
    // network (command flit + 2 routers) + 23 port (7 command + 16 data) + 19 network
    // (16 data flits + header + 2 routers) = 49 cycles. The second read's command
    // follows the first's flit on the link (+1) and its 17 flits follow the first
    // read's back (+16). Were the programs one after another, the second read would end
    // a whole tR + tPROG later.
    const Tick one = 3 * kMicrosecond + 100 * kMicrosecond + 3 * kMicrosecond + 49 * kCycle;
    EXPECT_EQ(first, one);
    EXPECT_EQ(second, one + 17 * kCycle);
}

// A write miss that finds every register dirty takes the least recently used one whose
// program can start now. Same package as above (2 dies x 1 plane, 4 grouped registers),
// filled dirty in the order die 0, die 0, die 1, die 1. Two write misses, one per die,
// issued together: the first evicts die 0's oldest page (merge sense, then tPROG). For
// the second the least recently used idle register is die 0's other page, whose program
// would wait for the die until the first program ends (tR + tPROG, then its own tR +
// tPROG: the run would end after 206 us); it takes die 1's oldest instead, and the two
// dies program at once: the run ends with the second program, tR + tPROG after the
// second write reaches the package: 4 decode + 19 command-with-data cycles, its 17
// flits behind the first write's on the link. Die 0's second page stays in its
// register: a store to it is a write hit.
TEST(RegisterEviction, AMissTakesAVictimWhosePlaneCanProgramNow) {
    TwoDieMisses m("", {{0, 0}, {0, 1}, {1, 0}, {1, 1}}, MemOp::Write);
    Rig& rig = m.rig;
    EXPECT_EQ(stat(rig, "programs"), 2.0);
    EXPECT_EQ(stat(rig, "merge_senses"), 2.0);
    EXPECT_EQ(rig.sim.now() - m.start, 103 * kMicrosecond + (4 + 19 + 17) * kCycle);
    const double hits = stat(rig, "register_write_hits");
    step(rig, m.req, m.page(0, 1), 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "register_write_hits"), hits + 1);
    EXPECT_EQ(stat(rig, "programs"), 2.0);
}

// A die with a program on its way cannot take another now. Same package (2 dies x 1
// plane, 2 registers per plane, grouped), written with whole pages (4 KiB stores: no
// merge sense): die 1's pages 0, 1 and 2, then die 0's page 0, then pages 0 and 1 of
// die 1 and page 0 of die 0 again. A page takes a register of its own plane while one is
// free, so die 1's page 2 sits in a register of plane 0, and LRU order is die 1's page
// 2, its pages 0 and 1, die 0's page 0. The first write miss reaches the package after
// 4 decode + 19 network cycles and evicts die 1's page 2, which first moves to plane 1
// over NiF (4 KiB at 8 B: 512 cycles at 800 MHz), then takes tPROG. The second miss,
// to die 1 (so not queued behind the first in its plane), arrives 17 cycles later. Next in LRU order is die 1's page 0, on an idle plane with
// nothing queued; but its program would start at once and the first page, arriving on
// the same plane 512 cycles later, would wait for it: the run would end at 200 us + 40
// cycles (checked by dropping the rule). It takes die 0's page 0 instead, whose program
// runs beside the first: the run ends with the first program, at 100 us + 535 cycles.
// Die 1's pages 0 and 1 stay in their registers: a store to one is a write hit.
TEST(RegisterEviction, ADieWithAProgramOnItsWayIsNotFreeForAnother) {
    Rig rig(small_platform(grouped(kNif), kMesh1x2, 2, 1, 2, 2));
    Requester req(rig);
    auto page = [&](uint32_t die, uint32_t p) {
        return rig.zng().geometry().encode(FlashAddress{1, 0, die, 0, 1, p});
    };
    for (auto [die, p] : {std::pair{1u, 0u}, {1u, 1u}, {1u, 2u}, {0u, 0u}, {1u, 0u}, {1u, 1u}, {0u, 0u}})
        step(rig, req, page(die, p), 4096, MemOp::Write);
    ASSERT_EQ(stat(rig, "programs"), 0.0);
    ASSERT_EQ(stat(rig, "register_write_hits"), 3.0);
    const Tick start = rig.sim.now();
    req.issue(page(0, 5), 128, MemOp::Write);
    req.issue(page(1, 5), 128, MemOp::Write);
    rig.sim.run();
    ASSERT_EQ(req.completed, 9u);
    EXPECT_EQ(stat(rig, "programs"), 2.0);
    EXPECT_EQ(stat(rig, "merge_senses"), 0.0);
    EXPECT_EQ(stat(rig, "migrations"), 1.0);
    EXPECT_EQ(rig.sim.now() - start, 100 * kMicrosecond + 535 * kCycle);
    for (uint32_t p : {0u, 1u}) step(rig, req, page(1, p), 128, MemOp::Write);
    EXPECT_EQ(stat(rig, "register_write_hits"), 5.0);
    EXPECT_EQ(stat(rig, "programs"), 2.0);
}

// Paper III-C: the registers are the write buffer, the L2 the read buffer. With every
// register dirty, a read is sensed into its plane's page buffer and sent from there:
// no program, tR + 49 cycles (as for a register hit: 4 decode + 3 network + 23 port +
// 19 network). The buffer keeps the page: a read of another line of it is a hit (49
// cycles, no sense), until the plane's next array operation (here the program a write
// miss needs), after which the page is sensed again. Registers: 2 planes x 2, grouped.
TEST(PageBuffer, AReadFindingOnlyDirtyRegistersUsesItsPlanesPageBuffer) {
    Rig rig(small_platform(grouped(kNif), kMesh1x2, 2, 2, 2, 1));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    auto page = [&](uint32_t plane, uint32_t p) { return g.encode(FlashAddress{1, 0, 0, plane, 1, p}); };
    for (uint32_t p : {0u, 1u})
        for (uint32_t plane : {0u, 1u}) step(rig, req, page(plane, p), 128, MemOp::Write);
    const Tick hit = 49 * kCycle;
    EXPECT_EQ(step(rig, req, page(0, 5), 128, MemOp::Read), 3 * kMicrosecond + hit);
    EXPECT_EQ(step(rig, req, page(0, 5) + 512, 128, MemOp::Read), hit);
    EXPECT_EQ(stat(rig, "programs"), 0.0);
    EXPECT_EQ(stat(rig, "page_buffer_reads"), 1.0);
    EXPECT_EQ(stat(rig, "page_buffer_hits"), 1.0);
    EXPECT_EQ(stat(rig, "demand_senses"), 1.0);
    // A write miss programs a dirty victim, the least recently used page (plane 0,
    // page 0): the program passes through plane 0's page buffer.
    step(rig, req, page(1, 6), 128, MemOp::Write);
    rig.sim.run();
    EXPECT_EQ(stat(rig, "programs"), 1.0);
    EXPECT_EQ(step(rig, req, page(0, 5), 128, MemOp::Read), 3 * kMicrosecond + hit);
    EXPECT_EQ(stat(rig, "page_buffer_reads"), 2.0);
    EXPECT_EQ(stat(rig, "read_reaccesses"), 1.0);
}

// Read re-accesses (Fig. 12): the same data page sensed from the array again. Plane 0
// keeps two clean pages in its registers: X, Y, Z evicts X, X again is sensed a second
// time: 4 demand senses of 3 distinct pages, 1 re-access. Register hit rate: the last
// read of Z hits, so 1 hit of 5 demand accesses.
TEST(FlashStats, ReadReaccessesCountPagesSensedAgain) {
    Rig rig(small_platform("", kMesh1x2));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    auto page = [&](uint32_t p) { return g.encode(FlashAddress{1, 0, 0, 0, 1, p}); };
    for (uint32_t p : {0u, 1u, 2u, 0u, 2u}) step(rig, req, page(p), 128, MemOp::Read);
    EXPECT_EQ(stat(rig, "demand_senses"), 4.0);
    EXPECT_EQ(stat(rig, "read_reaccesses"), 1.0);
    EXPECT_DOUBLE_EQ(stat(rig, "read_reaccesses_per_page"), 4.0 / 3.0);
    EXPECT_DOUBLE_EQ(stat(rig, "register_hit_rate"), 1.0 / 5.0);
}

}  // namespace
}  // namespace zng::flash
