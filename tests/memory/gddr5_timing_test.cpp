// GDDR5 controller timing against hand-computed command schedules.
//
// The test device runs its command clock at 1 GHz (1 cycle = 1 ns) with a 64-bit bus at
// 4000 MT/s and BL8: a burst moves 8 B x 8 = 64 B in 8 beats / 4 beats per cycle =
// 2 cycles, so a 128 B request is 2 bursts = 4 ns on the bus. Mapping
// channel,column,bank,row with 256 B granules, 6 channels, 2 KiB rows (8 columns),
// 16 banks: address 0 is channel 0 / bank 0 / row 0, address 128 is the same row, and
// address 6 x 8 x 16 x 256 = 196608 is channel 0 / bank 0 / row 1.
#include <gtest/gtest.h>

#include "memory_test_support.hpp"

namespace zng::memory::test {
namespace {

constexpr uint64_t kRow1 = 196608;  // channel 0, bank 0, row 1
constexpr Tick ns = kNanosecond;
constexpr Tick tRCD = 12 * ns, tCL = 12 * ns, tRP = 12 * ns, tRTP = 2 * ns, tCCD = 2 * ns, kBurst128 = 4 * ns;

TEST(Gddr5Timing, IdleReadOfClosedRowCostsActivateCasAndBurst) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    const uint64_t id = req.send(MemOp::Read, 0);
    sim.run();
    // ACT at 0, READ at tRCD, data from tRCD + tCL for one 128 B transfer.
    EXPECT_EQ(req.latency(id), tRCD + tCL + kBurst128);  // 28 ns
    EXPECT_EQ(stat(sim, "memory.ch0.row_misses"), 1);
    EXPECT_EQ(b.memory->in_flight(), 0u);
    EXPECT_EQ(b.memory->medium_bytes_read(), 128u);
    // The device stamps: medium start at the ACT (0), medium done at the last beat.
    EXPECT_EQ(req.stamps[id].at(Stage::MediumStart), 0u);
    EXPECT_EQ(req.stamps[id].at(Stage::MediumDone), 28 * ns);
}

TEST(Gddr5Timing, RowHitCostsCasAndBurst) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Read, 0);
    sim.run();
    const uint64_t hit = req.send(MemOp::Read, 128);  // same row, still open
    sim.run();
    EXPECT_EQ(req.latency(hit), tCL + kBurst128);  // 16 ns
    EXPECT_EQ(stat(sim, "memory.ch0.row_hits"), 1);
}

TEST(Gddr5Timing, RowConflictCostsPrechargeActivateCasAndBurst) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Read, 0);
    sim.run();  // ends at 28 ns, long after tRAS (28) and tRTP (12 + 2) allow a PRE
    const uint64_t conflict = req.send(MemOp::Read, kRow1);
    sim.run();
    EXPECT_EQ(req.latency(conflict), tRP + tRCD + tCL + kBurst128);  // 40 ns
    EXPECT_EQ(stat(sim, "memory.ch0.row_conflicts"), 1);
    EXPECT_EQ(stat(sim, "memory.ch0.precharges"), 1);
    EXPECT_EQ(stat(sim, "memory.ch0.activations"), 2);
}

TEST(Gddr5Timing, FrFcfsServesYoungerRowHitBeforeOlderConflict) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Read, 0);
    sim.run();                                     // row 0 open at 28 ns
    const uint64_t older = req.send(MemOp::Read, kRow1);  // conflict, arrives first
    const uint64_t younger = req.send(MemOp::Read, 128);  // hit, arrives second
    sim.run();
    ASSERT_EQ(req.order.size(), 3u);
    EXPECT_EQ(req.order[1], younger);
    EXPECT_EQ(req.order[2], older);
    // The hit reads at once: two BL8 READs at 28 and 28 + tCCD = 30. The conflict's PRE
    // may not close a row a queued request still wants, so it waits for the hit's last
    // READ + tRTP (32), then tRP, tRCD, tCL and the burst: done at 72.
    EXPECT_EQ(req.latency(younger), tCL + kBurst128);                             // 16 ns
    EXPECT_EQ(req.latency(older), tCCD + tRTP + tRP + tRCD + tCL + kBurst128);    // 44 ns
}

TEST(Gddr5Timing, EveryQueuedRowHitGoesInArrivalOrderBeforeAnOlderConflict) {
    // The scheduler weighs only the first queued request of each class (a bank's
    // requests to its open row, to other rows); when the first hit leaves, the next
    // one must take its place. Addresses 128, 1536 = 6 x 256 (column 1) and 1664 are
    // all channel 0 / bank 0 / row 0.
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Read, 0);
    sim.run();  // row 0 open at 28 ns
    const uint64_t older = req.send(MemOp::Read, kRow1);
    const uint64_t h1 = req.send(MemOp::Read, 128);
    const uint64_t h2 = req.send(MemOp::Read, 1536);
    const uint64_t h3 = req.send(MemOp::Read, 1664);
    sim.run();
    ASSERT_EQ(req.order.size(), 5u);
    EXPECT_EQ(req.order[1], h1);
    EXPECT_EQ(req.order[2], h2);
    EXPECT_EQ(req.order[3], h3);
    EXPECT_EQ(req.order[4], older);
    // Each hit is two BL8 READs, 2 x tCCD = 4 ns of column commands: READs from 28, 32
    // and 36, each done tCL + 4 ns later (16, 20, 24 ns after arrival at 28). The PRE
    // waits for the last hit's second READ (38) + tRTP = 40, then tRP, tRCD, tCL and the
    // burst: done at 40 + 12 + 12 + 12 + 4 = 80, 52 ns after arrival.
    EXPECT_EQ(req.latency(h1), tCL + kBurst128);                                           // 16 ns
    EXPECT_EQ(req.latency(h2), 2 * tCCD + tCL + kBurst128);                                // 20 ns
    EXPECT_EQ(req.latency(h3), 4 * tCCD + tCL + kBurst128);                                // 24 ns
    EXPECT_EQ(req.latency(older), 5 * tCCD + tRTP + tRP + tRCD + tCL + kBurst128);         // 52 ns
}

TEST(Gddr5Timing, IdleWriteIsAcknowledgedWhenItsDataIsIn) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    const uint64_t id = req.send(MemOp::Writeback, 0);
    sim.run();
    // ACT at 0, WRITE at tRCD = 12, data from 12 + tCWL (4) for 4 ns.
    EXPECT_EQ(req.latency(id), 20 * ns);
    EXPECT_EQ(b.memory->medium_bytes_written(), 128u);
    EXPECT_EQ(stat(sim, "memory.writes"), 1);
}

TEST(Gddr5Timing, ReadAfterWriteWaitsForWriteToReadTurnaround) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Writeback, 0);
    sim.run();  // write data ends at 20 ns
    const uint64_t rd = req.send(MemOp::Read, 128);  // row hit at 20 ns
    sim.run();
    // The READ may issue only tWTR (5) after the write data ended: at 25, data 37..41.
    EXPECT_EQ(req.latency(rd), 5 * ns + tCL + kBurst128);  // 21 ns
}

TEST(Gddr5Timing, QueueFullRefusesThenRetriesWhenRoomFrees) {
    Simulator sim;
    Backend b = make_backend(sim, with(kGddr5, "read_queue", "2"));
    RecordingRequester req(sim, *b.memory);
    const uint64_t a = req.send(MemOp::Read, 0);
    const uint64_t c = req.send(MemOp::Read, 64);
    const uint64_t d = req.send(MemOp::Read, 128);  // queue holds 2: refused
    EXPECT_EQ(req.refusals, 1);
    sim.run();
    // a's READ issues at tRCD = 12 ns and leaves the queue: the retry comes then.
    ASSERT_EQ(req.retries.size(), 1u);
    EXPECT_EQ(req.retries[0], 12 * ns);
    // a reads at 12 (data 24..28); c at 12 + 2 bursts x tCCD = 16 (data 28..32); d, sent
    // again at 12, at 20 (data 32..36).
    EXPECT_EQ(req.done_at.at(a), 28 * ns);
    EXPECT_EQ(req.done_at.at(c), 32 * ns);
    EXPECT_EQ(req.done_at.at(d), 36 * ns);
    EXPECT_EQ(stat(sim, "memory.refusals"), 1);
    EXPECT_EQ(b.memory->in_flight(), 0u);
}

TEST(Gddr5Timing, RefreshDueWhileIdleClosesRowsAndDelaysTheNextAccess) {
    Simulator sim;
    Backend b = make_backend(sim, with(with(kGddr5, "tREFI", "1us"), "tRFC", "100ns"));
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Read, 0);  // opens row 0; done at 28 ns
    uint64_t late = 0;
    At at(sim, 1001 * ns, [&] { late = req.send(MemOp::Read, 128); });
    sim.run();
    // The refresh due at 1000 ns: PRE at 1000, REF at 1000 + tRP = 1012, banks busy
    // until 1112. The read at 1001 finds row 0 closed: ACT 1112, READ 1124, data to 1140.
    EXPECT_EQ(req.done_at.at(late), 1140 * ns);
    EXPECT_EQ(stat(sim, "memory.ch0.refreshes"), 1);
    EXPECT_EQ(stat(sim, "memory.ch0.row_misses"), 2);
}

TEST(Gddr5Timing, AtomicAnswersAfterItsReadAndWritesBackAfterwards) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    const uint64_t id = req.send(MemOp::Atomic, 0);
    sim.run();
    EXPECT_EQ(req.latency(id), tRCD + tCL + kBurst128);
    EXPECT_EQ(b.memory->medium_bytes_read(), 128u);
    EXPECT_EQ(b.memory->medium_bytes_written(), 128u);  // the write half also reached the device
    EXPECT_EQ(b.memory->in_flight(), 0u);
}

TEST(Gddr5Timing, SameInputsGiveSameSchedule) {
    // Determinism: two identical runs of a mixed stream end at the same tick with the same
    // response order.
    auto run = [] {
        Simulator sim;
        Backend b = make_backend(sim, kGddr5, 2);
        RecordingRequester req(sim, *b.memory);
        for (uint64_t i = 0; i < 200; ++i)
            req.send(i % 3 ? MemOp::Read : MemOp::Writeback, (i * 7919 % 4096) * 128, 128,
                     static_cast<uint32_t>(i % 2));
        sim.run();
        return std::make_pair(sim.now(), req.order);
    };
    EXPECT_EQ(run(), run());
}

TEST(Gddr5Config, AddressBeyondCapacityIsAnError) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    EXPECT_THROW(req.send(MemOp::Read, 1ull << 30), SimError);
}

TEST(Gddr5Config, BadValuesNameTheFileLineAndKey) {
    try {
        Simulator sim;
        make_backend(sim, with(kGddr5, "data_rate", "4100MT/s"), 1, "bad.yaml");
        FAIL() << "a data rate that is not a multiple of the clock was accepted";
    } catch (const ConfigError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("bad.yaml:9"), std::string::npos) << m;
        EXPECT_NE(m.find("memory.data_rate"), std::string::npos) << m;
    }
    {
        Simulator sim;
        EXPECT_THROW(make_backend(sim, with(kGddr5, "address_map", "channel,bank,row")), ConfigError);
    }
    {
        Simulator sim;
        EXPECT_THROW(make_backend(sim, with(kGddr5, "tRCDD", "1ns")), ConfigError);
    }
    {
        Simulator sim;
        EXPECT_THROW(make_backend(sim, with(kGddr5, "tRP", "0ns")), ConfigError);
    }
}

}  // namespace
}  // namespace zng::memory::test
