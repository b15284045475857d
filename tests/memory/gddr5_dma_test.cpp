// Storage DMA through the GDDR5 channels (sim/mem/dma_traffic_sink.hpp): a transfer is
// cut into line-sized transactions that enter their channel as their bytes arrive, and
// there they take banks and bus time from the SMs' requests. Schedules by hand on the
// device of gddr5_timing_test.cpp (1 ns cycles; address 0 is channel 0 / bank 0 / row
// 0, 196608 the same bank's row 1).
#include <gtest/gtest.h>

#include "memory_test_support.hpp"
#include "sim/mem/dma_traffic_sink.hpp"

namespace zng::memory::test {
namespace {

constexpr uint64_t kRow1 = 196608;
constexpr Tick ns = kNanosecond;
constexpr Tick tRCD = 12 * ns, tCL = 12 * ns, tRP = 12 * ns, tRAS = 28 * ns, kBurst128 = 4 * ns;

DmaTrafficSink& dma_of(Backend& b) {
    auto* sink = b.memory->find_interface<DmaTrafficSink>();
    EXPECT_NE(sink, nullptr);
    sink->attach_dma();
    return *sink;
}

TEST(Gddr5Dma, AWriteBecomesLineWritesInItsChannelsAsItArrives) {
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    DmaTrafficSink& dma = dma_of(b);
    // 1 KiB arriving evenly over 0-800 ns: eight 128 B lines, the k-th whole at k x 100 ns.
    dma.dma_access(0, 1024, 0, 800 * ns, true);
    double written_by_450 = -1;
    At probe(sim, 450 * ns, [&] { written_by_450 = stat(sim, "memory.dma.bytes_written"); });
    uint64_t medium_by_450 = 0;
    At probe2(sim, 450 * ns, [&] { medium_by_450 = b.memory->medium_bytes_written(); });
    sim.run();
    EXPECT_EQ(written_by_450, 1024);  // the port's bytes are counted when handed over
    // Lines 1-4 (whole at 100-400 ns) are written by 450 ns; the rest are not.
    EXPECT_EQ(medium_by_450, 4u * 128);
    EXPECT_EQ(b.memory->medium_bytes_written(), 1024u);
    EXPECT_EQ(stat(sim, "memory.dma.refusals"), 0);
    EXPECT_EQ(b.memory->in_flight(), 0u);  // no L2 request took part
}

TEST(Gddr5Dma, ADmaReadOfAnotherRowDelaysAnSmReadOfTheSameBank) {
    // Alone, an SM read of row 0 costs ACT + CAS + burst = 28 ns.
    Simulator sim;
    Backend b = make_backend(sim, kGddr5);
    RecordingRequester req(sim, *b.memory);
    DmaTrafficSink& dma = dma_of(b);
    // A DMA read of row 1 of the same bank enters at 0: ACT at 0, READ at 12 ns.
    dma.dma_access(kRow1, 128, 0, 0, false);
    uint64_t id = 0;
    At later(sim, 1 * ns, [&] { id = req.send(MemOp::Read, 0); });
    sim.run();
    // Row 0 must wait for row 1 to close: PRE at tRAS (28 ns, after READ + tRTP = 14),
    // ACT at 28 + tRP, READ tRCD later, data tCL after: done at 68 ns, sent at 1 ns.
    EXPECT_EQ(req.latency(id), tRAS + tRP + tRCD + tCL + kBurst128 - 1 * ns);  // 67 ns
    EXPECT_EQ(stat(sim, "memory.ch0.row_conflicts"), 1);
    EXPECT_EQ(b.memory->medium_bytes_read(), 256u);
}

TEST(Gddr5Dma, AChunkFindingItsChannelFullWaitsForRoom) {
    Simulator sim;
    Backend b = make_backend(sim, with(kGddr5, "write_queue", "2"));
    DmaTrafficSink& dma = dma_of(b);
    // 2 KiB whole at 0: sixteen lines over the channels' 256 B stripes; a write queue
    // of 2 refuses lines until writes drain, and every line is written in the end.
    dma.dma_access(0, 2048, 0, 0, true);
    sim.run();
    EXPECT_GT(stat(sim, "memory.dma.refusals"), 0);
    EXPECT_GT(stat(sim, "memory.dma.delay"), 0);
    EXPECT_EQ(b.memory->medium_bytes_written(), 2048u);
}

}  // namespace
}  // namespace zng::memory::test
