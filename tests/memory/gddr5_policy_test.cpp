// GDDR5 constraints and policies beyond single accesses: the four-activate window,
// the close-page policy, and the write drain. Same device as gddr5_timing_test.cpp
// (1 ns cycles, 128 B = 4 ns on the bus, tRCD = tCL = tRP = 12 ns, tRRD = 6 ns);
// banks of channel 0 are 6 x 8 x 256 = 12288 B apart.
#include <gtest/gtest.h>

#include "memory_test_support.hpp"

namespace zng::memory::test {
namespace {

// The tests' device with a four-activate window of 30 ns.
const std::string kGddr5Faw = with(kGddr5, "tFAW", "30ns");

constexpr Tick ns = kNanosecond;
constexpr uint64_t kBankStride = 12288;

Tick fifth_bank_read_done(const std::string& yaml) {
    Simulator sim;
    Backend b = make_backend(sim, yaml);
    RecordingRequester req(sim, *b.memory);
    uint64_t last = 0;
    for (uint64_t bank = 0; bank < 5; ++bank) last = req.send(MemOp::Read, bank * kBankStride);
    sim.run();
    return req.done_at.at(last);
}

TEST(Gddr5Policy, FifthActivateWaitsForTheFourActivateWindow) {
    // One command per cycle, column commands to open rows first:
    //   0 ACT b0 | 6 ACT b1 | 12 RD b0 | 13 ACT b2 | 18 RD b1 | 19 ACT b3 | 25 RD b2 |
    //   ACT b4: tRRD allows 25, tFAW 0 + 30 = 30 -> 30 | 31 RD b3 | 42 RD b4, data 54..58.
    EXPECT_EQ(fifth_bank_read_done(kGddr5Faw), 58 * ns);
    // Without the window the fifth ACT goes at 26 (the cycle after RD b2): RD 38, done 54.
    EXPECT_EQ(fifth_bank_read_done(kGddr5), 54 * ns);
}

TEST(Gddr5Policy, ClosePagePrechargesUnlessAnotherRequestWantsTheRow) {
    Simulator sim;
    Backend b = make_backend(sim, with(kGddr5Faw, "page_policy", "closed"));
    RecordingRequester req(sim, *b.memory);
    const uint64_t a = req.send(MemOp::Read, 0);
    const uint64_t a2 = req.send(MemOp::Read, 128);  // queued together: keeps the row open
    sim.run();
    EXPECT_EQ(req.done_at.at(a), 28 * ns);
    EXPECT_EQ(req.done_at.at(a2), 32 * ns);  // hit: READ at 16, data 28..32
    // Nothing else wanted row 0 after a2: auto-precharge at tRAS (28), banks ready at 40.
    const uint64_t later = req.send(MemOp::Read, 0);  // sent at 32
    sim.run();
    EXPECT_EQ(req.done_at.at(later), 40 * ns + 12 * ns + 12 * ns + 4 * ns);  // ACT 40, READ 52, done 68
    EXPECT_EQ(stat(sim, "memory.ch0.row_misses"), 2);
    EXPECT_EQ(stat(sim, "memory.ch0.row_hits"), 1);
}

// 128 B chunks of channel 0 / bank 0 / row 0: column k starts at k x 6 x 256.
uint64_t row0_chunk(uint64_t i) { return (i / 2) * 6 * 256 + (i % 2) * 128; }

TEST(Gddr5Policy, AWriteBelowTheHighWatermarkWaitsForPendingReads) {
    Simulator sim;
    Backend b = make_backend(sim, with(kGddr5Faw, "write_queue", "4"));  // drain at 3 (0.75 x 4), stop at 1
    RecordingRequester req(sim, *b.memory);
    const uint64_t w = req.send(MemOp::Writeback, row0_chunk(8));
    std::vector<uint64_t> reads;
    for (uint64_t i = 0; i < 8; ++i) reads.push_back(req.send(MemOp::Read, row0_chunk(i)));
    sim.run();
    for (uint64_t r : reads) EXPECT_LT(req.done_at.at(r), req.done_at.at(w));
    EXPECT_EQ(stat(sim, "memory.ch0.write_drains"), 1);  // once the reads were gone
}

TEST(Gddr5Policy, TheHighWatermarkDrainsWritesDownToTheLowWatermark) {
    Simulator sim;
    Backend b = make_backend(sim, with(kGddr5Faw, "write_queue", "4"));
    RecordingRequester req(sim, *b.memory);
    std::vector<uint64_t> writes, reads;
    for (uint64_t i = 8; i < 11; ++i) writes.push_back(req.send(MemOp::Writeback, row0_chunk(i)));
    for (uint64_t i = 0; i < 8; ++i) reads.push_back(req.send(MemOp::Read, row0_chunk(i)));
    sim.run();
    // Three writes queued = the high watermark: two drain (down to the low watermark of
    // one) before any read; the third waits until the reads are done.
    Tick first_read = kMaxTick, last_read = 0;
    for (uint64_t r : reads) {
        first_read = std::min(first_read, req.done_at.at(r));
        last_read = std::max(last_read, req.done_at.at(r));
    }
    EXPECT_LT(req.done_at.at(writes[0]), first_read);
    EXPECT_LT(req.done_at.at(writes[1]), first_read);
    EXPECT_GT(req.done_at.at(writes[2]), last_read);
    EXPECT_EQ(stat(sim, "memory.ch0.write_drains"), 2);
}

}  // namespace
}  // namespace zng::memory::test
