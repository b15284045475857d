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
inline uint32_t sector_range(uint32_t lo, uint32_t hi) {  // bits lo..hi inclusive (hi <= 31)
    return static_cast<uint32_t>((uint64_t{2} << hi) - (uint64_t{1} << lo));
}
}  // namespace

// One lane's access of size_minus_1 + 1 bytes at `first`.
inline void Coalescer::add_lane(LineAccess* out, uint32_t& n, uint64_t first, uint64_t size_minus_1) const {
    const uint64_t line_mask = ~static_cast<uint64_t>(line_size_ - 1);
    const uint64_t last = first + size_minus_1;  // wraps modulo 2^64 like the hardware's adder
    const uint64_t line_a = first & line_mask;
    const uint32_t off_a = static_cast<uint32_t>(first - line_a) >> sector_shift_;
    if (((first ^ last) & line_mask) == 0) {
        const uint32_t off_b = static_cast<uint32_t>(last - line_a) >> sector_shift_;
        add(out, n, line_a, sector_range(off_a, off_b));
        return;
    }
    const uint64_t line_b = last & line_mask;
    const uint32_t last_sector = (line_size_ >> sector_shift_) - 1;
    add(out, n, line_a, sector_range(off_a, last_sector));
    const uint32_t off_b = static_cast<uint32_t>(last - line_b) >> sector_shift_;
    add(out, n, line_b, sector_range(0, off_b));
}

uint32_t Coalescer::coalesce(const trace::WarpRecord& r, LineAccess* out) const {
    uint32_t n = 0;
    const uint64_t size_minus_1 = r.access_size ? r.access_size - 1u : 0u;
    // The lane walk is split by address form, so that the per-lane test of the form
    // leaves the loop (a warp instruction has up to 32 lanes).
    if (r.strided) {
        for (uint32_t m = r.active_mask; m; m &= m - 1) {
            const int lane = std::countr_zero(m);
            add_lane(out, n, r.base + static_cast<uint64_t>(static_cast<int64_t>(lane) * r.stride), size_minus_1);
        }
    } else {
        for (uint32_t m = r.active_mask; m; m &= m - 1) add_lane(out, n, r.addr[std::countr_zero(m)], size_minus_1);
    }
    return n;
}

}  // namespace zng::gpu
