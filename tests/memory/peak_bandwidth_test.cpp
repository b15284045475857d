// Peak-bandwidth microbenchmarks on the shipped memory configurations: a streaming
// reader keeps enough reads outstanding on six ports (one per L2 bank) to saturate the
// memory, and the achieved bandwidth must come within 10% of the model's analytical
// bound (computed independently from the configuration, see each test).
#include <gtest/gtest.h>

#include <cstdio>

#include "memory/streaming_reader.hpp"
#include "memory_test_support.hpp"
#include "sim/config/config_node.hpp"

namespace zng::memory::test {
namespace {

const std::string kFragments = ZNG_CONFIG_DIR "/fragments/";

StreamingReader::Result stream(Simulator& sim, MemoryBackend& mem, uint64_t bytes) {
    StreamingReader::Config cfg;
    cfg.outstanding_per_port = 64;
    cfg.bytes = bytes;
    StreamingReader reader(sim, mem, cfg);
    reader.start();
    sim.run();
    EXPECT_TRUE(reader.finished());
    EXPECT_EQ(mem.in_flight(), 0u);
    return reader.result();
}

TEST(PeakBandwidth, Gddr5StreamingReadsReachTheBusPeak) {
    Simulator sim;
    Backend b = make_backend(sim, load_config_file(kFragments + "gddr5.yaml"), 6);
    const StreamingReader::Result r = stream(sim, *b.memory, 16ull << 20);
    // Bound: 6 channels x 64 bit / 8 x 4008 MT/s = 192.384 GB/s.
    const double bound = 6 * 8 * 4008e6;
    const double got = r.bytes_per_second();
    std::printf("gddr5: achieved %.1f GB/s, bound %.1f GB/s (%.1f%%)\n", got / 1e9, bound / 1e9, 100 * got / bound);
    EXPECT_EQ(r.bytes, 16ull << 20);
    EXPECT_GE(got, 0.9 * bound);
    EXPECT_LE(got, bound * 1.0001);  // nothing moves faster than the bus
    EXPECT_EQ(b.memory->medium_bytes_read(), 16ull << 20);
}

TEST(PeakBandwidth, OptaneStreamingReadsReachTheMediaBound) {
    Simulator sim;
    Backend b = make_backend(sim, load_config_file(kFragments + "optane.yaml"), 6);
    const StreamingReader::Result r = stream(sim, *b.memory, 8ull << 20);
    // Bound: 6 DIMMs x 5 partitions x 256 B per media read; tRCD = 190 ns rounds up to
    // ceil(190 ns x 1.333 GHz) = 254 cycles of 750.19 ps = 190.548 ns.
    const double media_read = 254 * (1e12 / 1333e6) * 1e-12;
    const double bound = 6 * 5 * 256 / media_read;  // 40.30 GB/s
    const double got = r.bytes_per_second();
    std::printf("optane: achieved %.1f GB/s, bound %.1f GB/s (%.1f%%)\n", got / 1e9, bound / 1e9,
                100 * got / bound);
    EXPECT_GE(got, 0.9 * bound);
    EXPECT_LE(got, bound * 1.0001);
    // Every 256 B media line was read once for its two 128 B halves.
    EXPECT_EQ(b.memory->medium_bytes_read(), 8ull << 20);
}

TEST(PeakBandwidth, FixedLatencyReachesItsLinks) {
    Simulator sim;
    Backend b = make_backend(sim, R"(
memory:
  type: fixed_latency
  latency: 200ns
  bandwidth: 16GB/s
  queue: 64
)",
                             6);
    const StreamingReader::Result r = stream(sim, *b.memory, 8ull << 20);
    // 6 links x 16 GB/s; 64 in flight x 128 B per port covers 200 ns x 16 GB/s = 3.2 KB.
    const double bound = 6 * 16e9;
    EXPECT_GE(r.bytes_per_second(), 0.9 * bound);
    EXPECT_LE(r.bytes_per_second(), bound * 1.0001);
}

}  // namespace
}  // namespace zng::memory::test
