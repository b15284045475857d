// A small, fast, seedable random stream (splitmix64) for input generation: the same
// seed gives the same numbers on every platform and compiler, unlike <random>'s
// distributions, whose outputs the standard leaves implementation-defined.
#pragma once

#include <cstdint>

namespace zng::workloads::graph {

class RandomStream {
public:
    explicit RandomStream(uint64_t seed) : state_(seed) {}

    uint64_t next_u64() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) with 53 random bits.
    double next_double() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
    // Uniform in [0, n) by multiply-shift (bias below n / 2^64, irrelevant here).
    uint64_t next_below(uint64_t n) {
        return static_cast<uint64_t>((static_cast<unsigned __int128>(next_u64()) * n) >> 64);
    }

private:
    uint64_t state_;
};

}  // namespace zng::workloads::graph
