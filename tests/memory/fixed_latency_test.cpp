// The fixed-latency reference memory: transfer at the port's bandwidth, then latency;
// a bounded number in flight per port.
#include <gtest/gtest.h>

#include "memory_test_support.hpp"

namespace zng::memory::test {
namespace {

// 128 B at 12.8 GB/s takes 10 ns on the link; latency 100 ns.
const char* kFixed = R"(
memory:
  type: fixed_latency
  latency: 100ns
  bandwidth: 12.8GB/s
  queue: 2
  capacity: 1GiB
)";

TEST(FixedLatency, RequestsSerialiseOnThePortLinkThenWaitTheLatency) {
    Simulator sim;
    Backend b = make_backend(sim, kFixed, 2);
    RecordingRequester req(sim, *b.memory);
    const uint64_t a = req.send(MemOp::Read, 0, 128, 0);
    const uint64_t c = req.send(MemOp::Read, 128, 128, 0);
    const uint64_t other = req.send(MemOp::Read, 256, 128, 1);  // its own link
    sim.run();
    EXPECT_EQ(req.done_at.at(a), 110 * kNanosecond);      // 10 ns transfer + 100 ns
    EXPECT_EQ(req.done_at.at(c), 120 * kNanosecond);      // waits for a's transfer
    EXPECT_EQ(req.done_at.at(other), 110 * kNanosecond);
    EXPECT_EQ(b.memory->medium_bytes_read(), 384u);
}

TEST(FixedLatency, FullPortRefusesAndRetriesWhenAResponseLeaves) {
    Simulator sim;
    Backend b = make_backend(sim, kFixed, 1);
    RecordingRequester req(sim, *b.memory);
    req.send(MemOp::Read, 0);
    req.send(MemOp::Read, 128);
    const uint64_t third = req.send(MemOp::Writeback, 256);
    EXPECT_EQ(req.refusals, 1);
    sim.run();
    ASSERT_EQ(req.retries.size(), 1u);
    EXPECT_EQ(req.retries[0], 110 * kNanosecond);  // the first response frees a slot
    // Sent again at 110: the link is idle (busy until 20 ns): 110 + 10 + 100.
    EXPECT_EQ(req.done_at.at(third), 220 * kNanosecond);
    EXPECT_EQ(b.memory->medium_bytes_written(), 128u);
    EXPECT_EQ(b.memory->in_flight(), 0u);
}

}  // namespace
}  // namespace zng::memory::test
