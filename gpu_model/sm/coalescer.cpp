#include "gpu_model/sm/coalescer.hpp"

#include <bit>
#include <string>

#include "sim/core/errors.hpp"

namespace zng::gpu {

Coalescer::Coalescer(uint32_t line_size, uint32_t sector_size) : line_size_(line_size), sector_size_(sector_size) {
    if (!std::has_single_bit(line_size) || !std::has_single_bit(sector_size) || sector_size > line_size ||
        line_size / sector_size > 32)
        throw SimError("coalescer: line size " + std::to_string(line_size) + " and sector size " +
                       std::to_string(sector_size) + " must be powers of two with 1..32 sectors per line");
    sector_shift_ = static_cast<uint32_t>(std::countr_zero(sector_size));
}

uint32_t Coalescer::bytes(uint32_t sectors) const {
    return static_cast<uint32_t>(std::popcount(sectors)) * sector_size_;
}

namespace {
// Adds sectors [lo, hi] of `line` to the list, merging with an existing entry.
inline void add(LineAccess* out, uint32_t& n, uint64_t line, uint32_t sectors) {
    if (n > 0 && out[n - 1].line == line) {
        out[n - 1].sectors |= sectors;
        return;
    }
    for (uint32_t i = 0; i + 1 < n; ++i)
        if (out[i].line == line) {
            out[i].sectors |= sectors;
            return;
        }
    out[n++] = LineAccess{line, sectors};
}
inline uint32_t sector_range(uint32_t lo, uint32_t hi) {  // bits lo..hi inclusive
    uint32_t upto = hi == 31 ? ~0u : ((1u << (hi + 1)) - 1);
    return upto & ~((1u << lo) - 1);
}
}  // namespace

uint32_t Coalescer::coalesce(const trace::WarpRecord& r, LineAccess* out) const {
    uint32_t n = 0;
    const uint64_t line_mask = ~static_cast<uint64_t>(line_size_ - 1);
    const uint32_t size = r.access_size ? r.access_size : 1;
    for (uint32_t m = r.active_mask; m; m &= m - 1) {
        int lane = std::countr_zero(m);
        uint64_t first = r.lane_addr(lane);
        uint64_t last = first + (size - 1);  // wraps modulo 2^64 like the hardware's adder
        uint64_t line_a = first & line_mask;
        uint64_t line_b = last & line_mask;
        uint32_t off_a = static_cast<uint32_t>(first - line_a) >> sector_shift_;
        if (line_a == line_b) {
            uint32_t off_b = static_cast<uint32_t>(last - line_b) >> sector_shift_;
            add(out, n, line_a, sector_range(off_a, off_b));
        } else {
            uint32_t last_sector = (line_size_ >> sector_shift_) - 1;
            add(out, n, line_a, sector_range(off_a, last_sector));
            uint32_t off_b = static_cast<uint32_t>(last - line_b) >> sector_shift_;
            add(out, n, line_b, sector_range(0, off_b));
        }
    }
    return n;
}

}  // namespace zng::gpu
