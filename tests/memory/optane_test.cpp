// Optane DC PMM model against hand-computed cases.
//
// The test DIMMs run the DDR-T command clock at 1 GHz with a 64-bit bus at 2000 MT/s
// and BL8: a burst moves 64 B in 8 beats / 2 beats per cycle = 4 cycles, so a 128 B
// request is 2 bursts = 8 ns on the bus. Media lines are 256 B; the map is
// channel,column,bank,row with 256 B granules over 6 DIMMs and 5 partitions, so
// address 0 is DIMM 0 / partition 0, address 128 the other half of the same media line,
// and address 6 x 256 = 1536 is DIMM 0 / partition 1.
#include <gtest/gtest.h>

#include "memory/optane_memory.hpp"
#include "memory_test_support.hpp"

namespace zng::memory::test {
namespace {

const char* kOptane = R"(
memory:
  type: optane
  channels: 6
  media_partitions: 5
  media_line: 256B
  capacity: 1GiB
  command_clock: 1GHz
  data_rate: 2000MT/s
  bus_width: 64
  burst_length: 8
  tRCD: 190ns
  tCL: 9ns
  tCWL: 10ns
  tRP: 763ns
  tCCD: 4ns
  tWTR: 2ns
  tRTW: 2ns
  write_buffer: 16KiB
  write_buffer_free_target: 1
)";

constexpr Tick ns = kNanosecond;
constexpr Tick tRCD = 190 * ns, tCL = 9 * ns, tCWL = 10 * ns, tRP = 763 * ns, kBurst128 = 8 * ns;
constexpr uint64_t kPartition1 = 1536;

TEST(Optane, ReadOf128BytesCostsA256ByteMediaRead) {
    Simulator sim;
    Backend b = make_backend(sim, kOptane);
    RecordingRequester req(sim, *b.memory);
    const uint64_t first = req.send(MemOp::Read, 0);
    sim.run();
    EXPECT_EQ(req.latency(first), tRCD + tCL + kBurst128);  // 207 ns
    EXPECT_EQ(b.memory->medium_bytes_read(), 256u);
    // The other half of the line is in the partition's buffer: no second media read.
    const uint64_t second = req.send(MemOp::Read, 128);
    sim.run();
    EXPECT_EQ(req.latency(second), tCL + kBurst128);  // 17 ns
    EXPECT_EQ(b.memory->medium_bytes_read(), 256u);
    EXPECT_EQ(stat(sim, "memory.ch0.row_hits"), 1);
}

TEST(Optane, WriteIsAcknowledgedOnceInTheBufferAndNothingReachesTheMedia) {
    Simulator sim;
    Backend b = make_backend(sim, kOptane);
    RecordingRequester req(sim, *b.memory);
    const uint64_t w = req.send(MemOp::Writeback, 0);
    sim.run();
    EXPECT_EQ(req.latency(w), tCWL + kBurst128);  // 18 ns
    EXPECT_EQ(b.memory->medium_bytes_written(), 0u);
    EXPECT_EQ(b.memory->medium_bytes_read(), 0u);
}

TEST(Optane, PartialLineWriteBackIsReadModifyWrite) {
    Simulator sim;
    // A buffer of two lines that keeps one free: the second line written evicts the first.
    Backend b = make_backend(sim, with(kOptane, "write_buffer", "512B"));
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Writeback, 0);            // half of line A (partition 0)
    req.send(MemOp::Writeback, kPartition1);  // line B: the buffer is now full
    sim.run();
    // A: WRITE at 0, data 10..18. B: WRITE at 8 (2 bursts x tCCD), data 18..26; the buffer
    // takes B at 8 and starts writing A back: A is partial, so the media line is read
    // (ACT at 9 on the command bus, tRCD) and then programmed (tRP): 9 + 190 + 763.
    EXPECT_EQ(sim.now(), 9 * ns + tRCD + tRP);  // 962 ns
    EXPECT_EQ(b.memory->medium_bytes_read(), 256u);
    EXPECT_EQ(b.memory->medium_bytes_written(), 256u);
    EXPECT_EQ(stat(sim, "memory.ch0.rmw_writebacks"), 1);
    EXPECT_EQ(stat(sim, "memory.ch0.full_writebacks"), 0);
}

TEST(Optane, WritesToOneLineCombineAndAFullLineNeedsNoMediaRead) {
    Simulator sim;
    Backend b = make_backend(sim, with(kOptane, "write_buffer", "512B"));
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Writeback, 0);            // line A, first half
    req.send(MemOp::Writeback, 128);          // line A, second half: combines
    req.send(MemOp::Writeback, kPartition1);  // line B: evicts the now full line A
    sim.run();
    // WRITEs at 0, 8, 16 (tCCD x 2 bursts apart); at 16 the buffer starts A's write-back,
    // a program without a media read: issued at 17, busy for tRP.
    EXPECT_EQ(sim.now(), 17 * ns + tRP);  // 780 ns
    EXPECT_EQ(stat(sim, "memory.ch0.write_combines"), 1);
    EXPECT_EQ(stat(sim, "memory.ch0.full_writebacks"), 1);
    EXPECT_EQ(b.memory->medium_bytes_read(), 0u);
    EXPECT_EQ(b.memory->medium_bytes_written(), 256u);
}

TEST(Optane, ReadOfABufferedLineIsServedFromTheBuffer) {
    Simulator sim;
    Backend b = make_backend(sim, kOptane);
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Writeback, 0);
    sim.run();  // write data ends at 18 ns
    const uint64_t rd = req.send(MemOp::Read, 0);
    sim.run();
    // READ after the write data + tWTR (2): at 20, data 29..37: latency 19 ns, no media read.
    EXPECT_EQ(req.latency(rd), 2 * ns + tCL + kBurst128);
    EXPECT_EQ(stat(sim, "memory.ch0.buffer_read_hits"), 1);
    EXPECT_EQ(b.memory->medium_bytes_read(), 0u);
}

TEST(Optane, ReadOfAPartlyBufferedLineGoesToTheMedia) {
    Simulator sim;
    Backend b = make_backend(sim, kOptane);
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Writeback, 0, 64);  // only the first 64 B of the line
    sim.run();
    req.send(MemOp::Read, 0);  // 128 B: half of it is not in the buffer
    sim.run();
    EXPECT_EQ(stat(sim, "memory.ch0.buffer_read_hits"), 0);
    EXPECT_EQ(b.memory->medium_bytes_read(), 256u);
}

TEST(Optane, SustainedWritesAreBoundByMediaPrograms) {
    // 120 full lines written to one DIMM whose 8-line buffer keeps 5 lines free or leaving,
    // so up to 5 programs run at once, one per partition. 120 - 3 lines (the 3 still
    // buffered at the end) = 117 are programmed; lines take partitions 0..4 in turn, so
    // partitions 0 and 1 program 24 lines each, back to back: the run lasts at least
    // 24 x tRP, and less than 25 x tRP if the partitions overlap as they should.
    Simulator sim;
    Backend b = make_backend(sim, with(with(with(kOptane, "write_buffer", "2KiB"), "write_buffer_free_target", "5"),
                                       "write_queue", "8"));
    RecordingRequester req(sim, *b.memory);
    for (uint64_t i = 0; i < 120; ++i) {
        const uint64_t line = i * 6 * 256;  // DIMM 0, partitions 0..4 in turn
        req.send(MemOp::Writeback, line);
        req.send(MemOp::Writeback, line + 128);
    }
    sim.run();
    EXPECT_EQ(req.done_at.size(), 240u);
    EXPECT_EQ(b.memory->medium_bytes_written(), 117u * 256u);
    EXPECT_EQ(b.memory->medium_bytes_read(), 0u);
    EXPECT_EQ(stat(sim, "memory.ch0.write_combines"), 120);
    EXPECT_GE(sim.now(), 24 * tRP);
    EXPECT_LT(sim.now(), 25 * tRP);
    EXPECT_EQ(b.memory->in_flight(), 0u);
}

TEST(Optane, AnalyticalBoundsFollowFromThePartitions) {
    Simulator sim;
    Backend b = make_backend(sim, kOptane);
    const auto& o = dynamic_cast<const OptaneMemory&>(*b.memory);
    // 6 DIMMs x 5 partitions x 256 B / 190 ns = 40.42 GB/s (bus: 16 GB/s per DIMM, not
    // the limit); writes 6 x 5 x 256 B / 763 ns = 10.07 GB/s.
    EXPECT_NEAR(o.peak_read_bandwidth(), 6 * 5 * 256 / 190e-9, 1e3);
    EXPECT_NEAR(o.peak_write_bandwidth(), 6 * 5 * 256 / 763e-9, 1e3);
}

}  // namespace
}  // namespace zng::memory::test
