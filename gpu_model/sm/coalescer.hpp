// Memory coalescing: the 32 lanes of a warp memory instruction become one request per
// cache line touched, each with a mask of the sectors touched. A lane's access that
// straddles a line boundary contributes to both lines, so one instruction makes at
// most 64 line requests. Requests come out in order of the first lane touching each
// line, which keeps the model deterministic and close to the hardware's lane order.
#pragma once
#include <cstdint>

#include "traces/trace.hpp"

namespace zng::gpu {

struct LineAccess {
    uint64_t line = 0;     // line-aligned address
    uint32_t sectors = 0;  // bit s = sector s of the line touched
};

class Coalescer {
public:
    static constexpr uint32_t kMaxLines = 2 * trace::kWarpSize;

    // line_size and sector_size are powers of two with at most 32 sectors per line.
    Coalescer(uint32_t line_size, uint32_t sector_size);

    // Writes the line requests of memory record `r` into out[0..n) and returns n.
    uint32_t coalesce(const trace::WarpRecord& r, LineAccess* out) const;

    uint32_t line_size() const { return line_size_; }
    uint32_t sector_size() const { return sector_size_; }
    // Bytes moved for a request with these sectors (asked for every line request).
    // Counted in registers: std::popcount is a library call where the x86-64 baseline
    // has no popcnt instruction.
    uint32_t bytes(uint32_t sectors) const {
        uint32_t x = sectors - ((sectors >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        x = (x + (x >> 4)) & 0x0f0f0f0fu;
        return ((x * 0x01010101u) >> 24) * sector_size_;
    }

private:
    class LineList;
    void add_lane(LineList& lines, uint64_t first, uint64_t size_minus_1) const;
    // The line requests of the bytes first..last (first <= last), in ascending order,
    // written to out; returns their count.
    uint32_t span(uint64_t first, uint64_t last, LineAccess* out) const;

    uint32_t line_size_, sector_size_;
    uint32_t sector_shift_;
};

}  // namespace zng::gpu
