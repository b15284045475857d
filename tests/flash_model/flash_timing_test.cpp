// Timings computed by hand from the configuration: every clock here runs at 800 MHz
// (1250 ps per cycle), so each path is a sum of whole cycles plus tR / tPROG.
#include <gtest/gtest.h>

#include "flash_test_util.hpp"
#include "sim/core/errors.hpp"

namespace zng::flash {
namespace {

using namespace testing;


// Channel 1's package sits one mesh hop from its controller (1 x 2 mesh, controllers on
// the west router). Path of a 4 KiB read issued at t = 0:
//   controller decode 4 cycles
//   command message: 1 hop x 2 + 1 flit (8 B header)          =   3 cycles
//   sense tR                                                  =   3 us
//   I/O port: 7 command cycles + 4096 B / 8 B                 = 519 cycles
//   data message: 1 hop x 2 + (8 + 4096) / 8 = 513 flits      = 515 cycles
TEST(FlashTiming, OnePageReadIsTReadPlusTransfers) {
    Rig rig(small_platform("", kMesh1x2));
    Requester req(rig);
    req.issue(4096, 4096, MemOp::Read);  // page 1 -> channel 1, plane 0, block 0, page 0
    rig.sim.run();
    ASSERT_EQ(req.completed, 1u);
    EXPECT_EQ(req.done_at[0], 3 * kMicrosecond + (4 + 3 + 519 + 515) * kCycle);

    // The page stays in a register: a later 128 B read of it skips tR.
    // Port: 7 + 128 / 8 = 23 cycles; data: 2 + (8 + 128) / 8 = 19 cycles.
    Tick start = rig.sim.now();
    req.issue(4096 + 256, 128, MemOp::Read);
    rig.sim.run();
    EXPECT_EQ(req.done_at[1] - start, (4 + 3 + 23 + 19) * kCycle);
    EXPECT_EQ(rig.sim.stats().value("memory.register_read_hits"), 1.0);
    EXPECT_EQ(rig.sim.stats().value("memory.senses"), 1.0);
    EXPECT_EQ(rig.backend->medium_bytes_read(), 4096u);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
}

// Program of a page through the firmware path: the data travels with the command
// (2 + 513 cycles), enters through the I/O port (519 cycles), is programmed (tPROG), and
// the acknowledgement returns (2 + 1 cycles).
TEST(FlashTiming, OneProgramIsTransferPlusTProg) {
    Rig rig(small_platform("", kMesh1x2));
    auto& be = rig.zng();
    FlashAddress blk{1, 0, 0, 3, 5, 0};
    be.set_block_erased(blk);
    Tick done = 0;
    be.submit({FlashOp::Program, blk, 0, [&] { done = rig.sim.now(); }});
    rig.sim.run();
    EXPECT_EQ(done, 100 * kMicrosecond + (4 + 515 + 519 + 3) * kCycle);
    EXPECT_EQ(rig.backend->medium_bytes_written(), 4096u);
}

// Submits one firmware operation of `kind` on block `block` (page 0) of each of the eight
// planes of channel 1's first die at t = 0 and runs the simulation; the completion time
// of each.
std::vector<Tick> one_op_per_plane(Rig& rig, FlashOp::Kind kind, uint32_t block) {
    std::vector<Tick> done(8, 0);
    for (uint32_t p = 0; p < 8; ++p)
        rig.zng().submit({kind, FlashAddress{1, 0, 0, p, block, 0}, 0, [&, p] { done[p] = rig.sim.now(); }});
    rig.sim.run();
    return done;
}
std::vector<Tick> read_one_page_per_plane(Rig& rig) { return one_op_per_plane(rig, FlashOp::Read, 0); }
std::vector<Tick> erase_one_block_per_plane(Rig& rig) { return one_op_per_plane(rig, FlashOp::Erase, 5); }

// Eight reads, one per plane of a die, with ONE I/O port: the commands leave the
// controller one cycle apart (command i arrives at cycle 7 + i), the eight senses
// overlap (multi-plane), and the port then moves one page after another (519 cycles
// each), so read i completes at tR + (7 + (i + 1) x 519 + 515) cycles.
TEST(FlashTiming, PlanesOfADieOverlapWhileThePortSerialises) {
    Rig rig(small_platform("", kMesh1x2, /*io_ports=*/1));
    const std::vector<Tick> done = read_one_page_per_plane(rig);
    for (uint32_t i = 0; i < 8; ++i)
        EXPECT_EQ(done[i], 3 * kMicrosecond + (7 + (i + 1) * 519 + 515) * kCycle) << "plane " << i;
    // All eight in 8.84 us: far less than eight serial senses (24 us).
    EXPECT_LT(done[7], 9 * kMicrosecond);
}

// Without multi-plane operation the die senses one plane at a time: read i completes at
// (i + 1) x tR + (7 + 519 + 515) cycles (the port is idle long before the next sense ends).
TEST(FlashTiming, WithoutMultiPlaneTheDieSerialisesSenses) {
    Rig rig(small_platform("  multi_plane: false\n", kMesh1x2, /*io_ports=*/1));
    const std::vector<Tick> done = read_one_page_per_plane(rig);
    for (uint32_t i = 0; i < 8; ++i)
        EXPECT_EQ(done[i], (i + 1) * 3 * kMicrosecond + (7 + 519 + 515) * kCycle) << "plane " << i;
}

// Multi-plane block erase (ONFI 60h-D1h ... 60h-D0h), ONE I/O port: erase commands arrive
// at cycle 7 + i and take the port 7 command cycles each, so erase i starts at
// 7 + 7 (i + 1) cycles; the eight tBERS overlap and each 1-flit acknowledgement takes
// 1 hop x 2 + 1 = 3 cycles: erase i is done at tBERS + (7 + 7 (i + 1) + 3) cycles.
TEST(FlashTiming, PlanesOfADieEraseTogether) {
    Rig rig(small_platform("", kMesh1x2, /*io_ports=*/1));
    const std::vector<Tick> done = erase_one_block_per_plane(rig);
    for (uint32_t i = 0; i < 8; ++i)
        EXPECT_EQ(done[i], kMillisecond + (7 + 7 * (i + 1) + 3) * kCycle) << "plane " << i;
    EXPECT_EQ(rig.sim.stats().value("memory.erases"), 8.0);
}

// Without multi-plane operation each erase waits for the one before: the port is long
// free, so erase i is done at (i + 1) x tBERS + (7 + 7 + 3) cycles.
TEST(FlashTiming, WithoutMultiPlaneTheDieErasesOneBlockAtATime) {
    Rig rig(small_platform("  multi_plane: false\n", kMesh1x2, /*io_ports=*/1));
    const std::vector<Tick> done = erase_one_block_per_plane(rig);
    for (uint32_t i = 0; i < 8; ++i)
        EXPECT_EQ(done[i], (i + 1) * kMillisecond + (7 + 7 + 3) * kCycle) << "plane " << i;
}

// Operations of different kinds still exclude each other on a die: plane 0's erase starts
// at cycle 7 + 7 = 14; a firmware read of plane 1 submitted at 100 us waits for it, senses
// from tBERS + 14 cycles, then takes the port (519 cycles) and the data message (515):
// done at tBERS + tR + (14 + 519 + 515) cycles.
TEST(FlashTiming, AReadWaitsForAnEraseOnItsDie) {
    Rig rig(small_platform("", kMesh1x2, /*io_ports=*/1));
    Tick erased = 0, read = 0;
    rig.zng().submit({FlashOp::Erase, FlashAddress{1, 0, 0, 0, 5, 0}, 0, [&] { erased = rig.sim.now(); }});
    testing::Probe later(rig.sim, 100 * kMicrosecond, [&] {
        rig.zng().submit({FlashOp::Read, FlashAddress{1, 0, 0, 1, 0, 0}, 0, [&] { read = rig.sim.now(); }});
    });
    rig.sim.run();
    EXPECT_EQ(erased, kMillisecond + (14 + 3) * kCycle);
    EXPECT_EQ(read, kMillisecond + 3 * kMicrosecond + (14 + 519 + 515) * kCycle);
}

// Every plane the erase held back starts when it ends, not only the erasing plane: reads
// of planes 7, 5, 3 and 1, submitted in that order at 100 us, all sense together (multi-
// plane) from tBERS + 14 cycles. Their senses end at one tick in plane order, so the port
// moves plane 1's page first: the read of the k-th plane in plane order is done at
// tBERS + tR + (14 + k x 519 + 515) cycles.
TEST(FlashTiming, AllPlanesHeldByAnEraseStartWhenItEnds) {
    Rig rig(small_platform("", kMesh1x2, /*io_ports=*/1));
    std::vector<Tick> read(8, 0);
    rig.zng().submit({FlashOp::Erase, FlashAddress{1, 0, 0, 0, 5, 0}, 0, [] {}});
    testing::Probe later(rig.sim, 100 * kMicrosecond, [&] {
        for (uint32_t p : {7u, 5u, 3u, 1u})
            rig.zng().submit({FlashOp::Read, FlashAddress{1, 0, 0, p, 0, 0}, 0, [&, p] { read[p] = rig.sim.now(); }});
    });
    rig.sim.run();
    for (uint32_t k = 1; k <= 4; ++k)
        EXPECT_EQ(read[2 * k - 1], kMillisecond + 3 * kMicrosecond + (14 + k * 519 + 515) * kCycle) << "plane " << 2 * k - 1;
}

// A 4 KiB demand read is one transaction all the way (the paper-preset mesh: 512 B
// packets, 10 ns decoder search): one controller slot (a second read waits when
// queue_depth is 1), one command (1 flit), one sense of tR + 8 cycles of decoder search,
// one I/O-port transfer of 7 + 4096 / 8 = 519 cycles, one data message of 8 packets of
// (8 + 512) / 8 = 65 flits, pipelined: 1 hop x 2 + 8 x 65 = 522 cycles. Done at
//   tR + (4 decode + 3 command + 8 search + 519 port + 522 data) cycles.
TEST(FlashTiming, AUnitReadIsOneTransaction) {
    Rig rig(small_platform("  decoder_search: 10ns\n",
                           "  queue_depth: 1\n  network: {type: mesh, rows: 1, cols: 2, clock: 800MHz, link_width: 8B, "
                           "header_bytes: 8B, max_packet: 512B, router_latency: 2}\n"));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    req.issue(g.encode(FlashAddress{1, 0, 0, 0, 1, 0}), 4096, MemOp::Read);
    req.issue(g.encode(FlashAddress{1, 0, 0, 1, 1, 0}), 4096, MemOp::Read);  // other plane, same controller
    rig.sim.run();
    ASSERT_EQ(req.completed, 2u);
    const Tick one = 3 * kMicrosecond + (4 + 3 + 8 + 519 + 522) * kCycle;
    EXPECT_EQ(req.done_at[0], one);
    EXPECT_EQ(req.done_at[1], 2 * one);  // accepted only once the first was answered
    EXPECT_EQ(rig.sim.stats().value("memory.senses"), 2.0);
    EXPECT_EQ(rig.sim.stats().value("memory.network.messages"), 4.0);
    EXPECT_EQ(rig.sim.stats().value("memory.network.packets"), 2.0 * (1 + 8));
    EXPECT_EQ(rig.sim.stats().value("memory.network.flits"), 2.0 * (1 + 8 * 65));
    EXPECT_EQ(rig.sim.stats().value("memory.controller1.refusals"), 1.0);
}

// A unit read that starts inside the page (the L2 holds the lines before it and after
// it) moves only its own bytes: 3 KiB from offset 512 is one sense, an I/O-port transfer
// of 7 + 3072 / 8 = 391 cycles and a data message of 6 packets of 65 flits, pipelined:
// 1 hop x 2 + 6 x 65 = 392 cycles. Done at tR + (4 decode + 3 command + 8 search + 391
// port + 392 data) cycles.
TEST(FlashTiming, APartialUnitReadMovesOnlyItsBytes) {
    Rig rig(small_platform("  decoder_search: 10ns\n",
                           "  network: {type: mesh, rows: 1, cols: 2, clock: 800MHz, link_width: 8B, "
                           "header_bytes: 8B, max_packet: 512B, router_latency: 2}\n"));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    req.issue(g.encode(FlashAddress{1, 0, 0, 0, 1, 0}) + 512, 3072, MemOp::Read);
    rig.sim.run();
    ASSERT_EQ(req.completed, 1u);
    EXPECT_EQ(req.done_at[0], 3 * kMicrosecond + (4 + 3 + 8 + 391 + 392) * kCycle);
    EXPECT_EQ(rig.sim.stats().value("memory.senses"), 1.0);
    EXPECT_EQ(rig.sim.stats().value("memory.network.packets"), 1.0 + 6);
    EXPECT_EQ(rig.sim.stats().value("memory.network.flits"), 1.0 + 6 * 65);
}

// Firmware (GC) operations share a plane with demand reads instead of going first.
// Three firmware programs to pages 0..2 of erased block 5 of plane 0 (channel 1),
// submitted at 0: programs 1 and 2 are issued (the firmware budget is 2), 3 waits.
//   program 1: 4 decode + 515 message + 519 port = cycle 1038, tPROG until T1 = 1038 c + 100 us
//   program 2: its message trails by 513 flits: in the page buffer at 1032 + 519 = 1551 c
// A demand read of plane 0 at 50 us waits for the plane behind program 2's array
// operation. When program 1 ends, the demand read goes first (the last operation was a
// firmware one): sense tR, port 519, data 515 cycles -> done at T1 + 3 us + 1034 c.
// (Firmware first, it would have waited for program 2 as well: another 100 us.)
TEST(FlashTiming, FirmwareProgramsDoNotStarveADemandRead) {
    Rig rig(small_platform("", kMesh1x2));
    auto& be = rig.zng();
    Requester req(rig);
    const FlashAddress blk{1, 0, 0, 0, 5, 0};
    be.set_block_erased(blk);
    std::vector<Tick> done(3, 0);
    for (uint32_t i = 0; i < 3; ++i)
        be.submit({FlashOp::Program, blk.with_page(i), 1, [&, i] { done[i] = rig.sim.now(); }});
    testing::Probe read(rig.sim, 50 * kMicrosecond, [&] {
        req.issue(be.geometry().encode(FlashAddress{1, 0, 0, 0, 1, 0}), 4096, MemOp::Read);
    });
    rig.sim.run();
    ASSERT_EQ(req.completed, 1u);
    const Tick t1 = 100 * kMicrosecond + 1038 * kCycle;
    EXPECT_EQ(done[0], t1 + 3 * kCycle);
    EXPECT_EQ(req.done_at[0], t1 + 3 * kMicrosecond + 1034 * kCycle);
    // Program 2 started after the read's sense: it ends 100 us after T1 + 3 us.
    EXPECT_EQ(done[1], t1 + 103 * kMicrosecond + 3 * kCycle);
}

TEST(FlashRules, NonFreeAndOutOfOrderProgramsAreSimErrors) {
    {
        Rig rig(small_platform("", kMesh1x2));
        // Block 5 was never erased: it holds the pre-loaded data.
        rig.zng().submit({FlashOp::Program, FlashAddress{0, 0, 0, 1, 5, 0}, 0, {}});
        try {
            rig.sim.run();
            FAIL() << "program of a non-free page accepted";
        } catch (const SimError& e) {
            std::string m = e.what();
            EXPECT_NE(m.find("memory.package0"), std::string::npos) << m;
            EXPECT_NE(m.find("not free"), std::string::npos) << m;
        }
    }
    {
        Rig rig(small_platform("", kMesh1x2));
        rig.zng().set_block_erased(FlashAddress{0, 0, 0, 1, 5, 0});
        rig.zng().submit({FlashOp::Program, FlashAddress{0, 0, 0, 1, 5, 2}, 0, {}});  // skips pages 0 and 1
        rig.zng().submit({FlashOp::Program, FlashAddress{0, 0, 0, 1, 5, 1}, 0, {}});
        try {
            rig.sim.run();
            FAIL() << "out-of-order program accepted";
        } catch (const SimError& e) {
            EXPECT_NE(std::string(e.what()).find("next free page is 3"), std::string::npos) << e.what();
        }
    }
}

// Writes land in registers; an evicted dirty register is programmed to the data block's
// log block through the row decoder, and a later read of the page is redirected there.
TEST(FlashWrites, DecoderRemapsRewrittenPagesAndReadsFindThem) {
    Rig rig(small_platform("  write_miss_sense: false\n  dirty_watermark: 1\n", kMesh1x2));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    auto addr = [&](uint32_t block, uint32_t page) { return g.encode(FlashAddress{0, 0, 0, 0, block, page}); };
    auto step = [&](uint32_t block, uint32_t page, MemOp op, uint32_t size = 128) {
        req.issue(addr(block, page), size, op);
        rig.sim.run();
    };
    const ProgrammableRowDecoder& dec = rig.zng().backbone().package(0).decoder(0);
    step(1, 0, MemOp::Write);
    step(1, 1, MemOp::Write);
    EXPECT_FALSE(dec.resolve(1, 0).log_hit);  // both pages still in the plane's 2 registers
    step(1, 2, MemOp::Write);                  // evicts (1,0), the least recently used
    auto row = dec.resolve(1, 0);
    // The built-in allocator reserves blocks 12..15 (log_blocks_per_plane 4 of 16): block 12 first.
    EXPECT_TRUE(row.log_hit);
    EXPECT_EQ(row.block, 12u);
    EXPECT_EQ(row.page, 0u);
    step(1, 0, MemOp::Read, 4096);  // evicts (1,1) to log page 1, then senses log page 0
    EXPECT_EQ(rig.sim.stats().value("memory.log_hits"), 1.0);
    EXPECT_EQ(dec.resolve(1, 1).page, 1u);
    // Rewrite (1,0): the register holding it turns dirty; two more writes push it out.
    step(1, 0, MemOp::Write);
    step(1, 3, MemOp::Write);
    step(1, 4, MemOp::Write);
    row = dec.resolve(1, 0);
    EXPECT_EQ(row.block, 12u);
    EXPECT_EQ(row.page, 3u);  // log pages 0 (1,0), 1 (1,1), 2 (1,2), 3 (1,0 again)
    EXPECT_EQ(rig.sim.stats().value("memory.programs"), 4.0);
    // Pages (1,0) twice, (1,1) and (1,2) once: 4 programs; (1,3) and (1,4) still dirty in
    // the registers: (4 + 2) / 5 distinct pages written.
    EXPECT_DOUBLE_EQ(rig.sim.stats().value("memory.write_redundancy"), 6.0 / 5.0);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
}

// A full log block is merged by the built-in allocator as soon as its last page is
// taken (paper III-B: GC once "all the flash pages in a physical log block have been used
// up"): 8 reads, erase of the data block, 8 programs back, erase of the log block; the
// next eviction takes page 0 of the erased log block.
TEST(FlashWrites, FullLogBlockIsMergedOnce) {
    Rig rig(small_platform("  write_miss_sense: false\n  dirty_watermark: 1\n", kMesh1x2));
    Requester req(rig);
    const FlashGeometry& g = rig.zng().geometry();
    auto write = [&](uint32_t page) {
        req.issue(g.encode(FlashAddress{0, 0, 0, 0, 1, page}), 128, MemOp::Write);
        rig.sim.run();
    };
    for (uint32_t p = 0; p < 8; ++p) write(p);  // evicts pages 0..5 -> log pages 0..5
    write(0);                                    // evicts 6 -> log page 6
    EXPECT_EQ(rig.zng().builtin_allocator()->merges(), 0u);
    write(1);  // evicts 7 -> log page 7: the log block is full, and merged
    EXPECT_EQ(rig.zng().builtin_allocator()->merges(), 1u);
    write(2);  // evicts (1,0) into log page 0 of the erased log block
    EXPECT_EQ(rig.zng().builtin_allocator()->merges(), 1u);
    EXPECT_EQ(rig.sim.stats().value("memory.erases"), 2.0);
    EXPECT_EQ(rig.sim.stats().value("memory.programs"), 8.0 + 8.0 + 1.0);
    EXPECT_EQ(rig.zng().erase_count(FlashAddress{0, 0, 0, 0, 1, 0}), 1u);
    EXPECT_EQ(rig.zng().erase_count(FlashAddress{0, 0, 0, 0, 12, 0}), 1u);
    auto row = rig.zng().backbone().package(0).decoder(0).resolve(1, 0);
    EXPECT_TRUE(row.log_hit);
    EXPECT_EQ(row.page, 0u);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
}

}  // namespace
}  // namespace zng::flash
