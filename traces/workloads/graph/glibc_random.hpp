// The sequence of glibc's srand()/rand() (the default TYPE_3 additive feedback
// generator, r[i] = r[i-3] + r[i-31]), reproduced so that graph colouring gets the
// same per-vertex random priorities as GraphBIG's host code (srand(123); rand()) on
// Linux, whatever C library the generator itself is built with.
#pragma once

#include <array>
#include <cstdint>

namespace zng::workloads::graph {

class GlibcRandom {
public:
    explicit GlibcRandom(uint32_t seed);
    // Next value in [0, 2^31), as rand() would return it.
    int32_t next();

private:
    std::array<uint32_t, 34> ring_{};   // the last 34 state words, indexed modulo 34
    uint64_t pos_ = 0;
};

}  // namespace zng::workloads::graph
