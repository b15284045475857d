#include "traces/workloads/graph/glibc_random.hpp"

namespace zng::workloads::graph {

namespace {
constexpr uint64_t kRing = 34;
}

GlibcRandom::GlibcRandom(uint32_t seed) {
    // Seeding: r[0] = seed (0 becomes 1), r[i] = 16807 * r[i-1] mod (2^31 - 1) for
    // i < 31 using signed 32-bit words, r[31..33] = r[0..2]; then 310 outputs are
    // discarded before the first rand() value.
    int32_t r[kRing];
    r[0] = static_cast<int32_t>(seed == 0 ? 1 : seed);
    for (int i = 1; i < 31; ++i) {
        const int64_t v = (16807ll * r[i - 1]) % 2147483647ll;
        r[i] = static_cast<int32_t>(v < 0 ? v + 2147483647ll : v);
    }
    for (int i = 31; i < 34; ++i) r[i] = r[i - 31];
    for (uint64_t i = 0; i < kRing; ++i) ring_[i] = static_cast<uint32_t>(r[i]);
    pos_ = kRing;
    for (int i = 0; i < 310; ++i) next();
}

int32_t GlibcRandom::next() {
    // r[i] = r[i-31] + r[i-3] (mod 2^32); rand() returns r[i] >> 1.
    const uint32_t v = ring_[(pos_ - 31) % kRing] + ring_[(pos_ - 3) % kRing];
    ring_[pos_ % kRing] = v;
    ++pos_;
    return static_cast<int32_t>(v >> 1);
}

}  // namespace zng::workloads::graph
