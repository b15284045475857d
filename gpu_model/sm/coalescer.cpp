#include "gpu_model/sm/coalescer.hpp"

#include <bit>
#include <cstring>
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

namespace {
inline uint32_t sector_range(uint32_t lo, uint32_t hi) {  // bits lo..hi inclusive (hi <= 31)
    return static_cast<uint32_t>((uint64_t{2} << hi) - (uint64_t{1} << lo));
}
}  // namespace

// The line list of one instruction, in first-touch order. Most instructions touch a
// few lines, found by a linear search; a scattered gather (up to 64 lines) would make
// that search quadratic, so past kLinearLines an open-addressed index of the list
// takes over (at most 64 entries in 128 slots: probes stay short).
class Coalescer::LineList {
public:
    LineList(LineAccess* out, uint32_t line_shift) : out_(out), line_shift_(line_shift) {}
    uint32_t size() const { return n_; }

    // Adds `sectors` of `line`, merging with the line's entry if it has one. Inlined
    // into the lane loop; the indexed search, for long lists only, stays out of line.
    [[gnu::always_inline]] void add(uint64_t line, uint32_t sectors) {
        if (n_ > 0 && out_[n_ - 1].line == line) {
            out_[n_ - 1].sectors |= sectors;
            return;
        }
        if (n_ > kLinearLines) {
            add_indexed(line, sectors);
            return;
        }
        for (uint32_t i = 0; i + 1 < n_; ++i)
            if (out_[i].line == line) {
                out_[i].sectors |= sectors;
                return;
            }
        out_[n_++] = LineAccess{line, sectors};
        if (n_ > kLinearLines) build_index();
    }

private:
    static constexpr uint32_t kLinearLines = 8;
    static constexpr uint32_t kSlots = 2 * kMaxLines;
    uint32_t slot_of(uint64_t line) const {
        return static_cast<uint32_t>(((line >> line_shift_) * 0x9E3779B97F4A7C15ull) >> 57) & (kSlots - 1);
    }
    [[gnu::noinline]] void add_indexed(uint64_t line, uint32_t sectors) {
        uint32_t h = slot_of(line);
        for (; index_[h] != 0; h = (h + 1) & (kSlots - 1)) {
            LineAccess& e = out_[index_[h] - 1];
            if (e.line == line) {
                e.sectors |= sectors;
                return;
            }
        }
        out_[n_++] = LineAccess{line, sectors};
        index_[h] = static_cast<uint8_t>(n_);
    }
    [[gnu::noinline]] void build_index() {
        std::memset(index_, 0, sizeof index_);
        for (uint32_t i = 0; i < n_; ++i) {
            uint32_t h = slot_of(out_[i].line);
            while (index_[h] != 0) h = (h + 1) & (kSlots - 1);
            index_[h] = static_cast<uint8_t>(i + 1);
        }
    }

    LineAccess* out_;
    uint32_t line_shift_;
    uint32_t n_ = 0;
    uint8_t index_[kSlots];  // entry index + 1, 0 = empty; filled only once the index is used
};

// One lane's access of size_minus_1 + 1 bytes at `first`.
[[gnu::always_inline]] inline void Coalescer::add_lane(LineList& lines, uint64_t first, uint64_t size_minus_1) const {
    const uint64_t line_mask = ~static_cast<uint64_t>(line_size_ - 1);
    const uint64_t last = first + size_minus_1;  // wraps modulo 2^64 like the hardware's adder
    const uint64_t line_a = first & line_mask;
    const uint32_t off_a = static_cast<uint32_t>(first - line_a) >> sector_shift_;
    if (((first ^ last) & line_mask) == 0) {
        const uint32_t off_b = static_cast<uint32_t>(last - line_a) >> sector_shift_;
        lines.add(line_a, sector_range(off_a, off_b));
        return;
    }
    const uint64_t line_b = last & line_mask;
    const uint32_t last_sector = (line_size_ >> sector_shift_) - 1;
    lines.add(line_a, sector_range(off_a, last_sector));
    const uint32_t off_b = static_cast<uint32_t>(last - line_b) >> sector_shift_;
    lines.add(line_b, sector_range(0, off_b));
}

uint32_t Coalescer::span(uint64_t first, uint64_t last, LineAccess* out) const {
    const uint64_t line_mask = ~static_cast<uint64_t>(line_size_ - 1);
    const uint32_t last_sector = (line_size_ >> sector_shift_) - 1;
    uint32_t n = 0;
    for (uint64_t line = first & line_mask;; line += line_size_) {
        const uint32_t lo = line <= first ? static_cast<uint32_t>(first - line) >> sector_shift_ : 0;
        if (line == (last & line_mask)) {
            out[n++] = LineAccess{line, sector_range(lo, static_cast<uint32_t>(last - line) >> sector_shift_)};
            return n;
        }
        out[n++] = LineAccess{line, sector_range(lo, last_sector)};
    }
}

uint32_t Coalescer::coalesce(const trace::WarpRecord& r, LineAccess* out) const {
    LineList lines(out, static_cast<uint32_t>(std::countr_zero(line_size_)));
    const uint64_t size_minus_1 = r.access_size ? r.access_size - 1u : 0u;
    // The lane walk is split by address form, so that the per-lane test of the form
    // leaves the loop (a warp instruction has up to 32 lanes).
    if (r.strided) {
        // Two forms, most of the strided records of graph traversals, have the lane
        // walk's result in closed form. A broadcast (stride 0): every lane adds the
        // first one's lines and sectors again. Active lanes in one run whose accesses
        // overlap or abut (0 < stride <= size) and do not wrap around the address
        // space: the bytes touched are one interval, its lines ascending in lane order.
        const uint32_t m = r.active_mask;
        if (m == 0) return 0;
        const int first_lane = std::countr_zero(m);
        if (r.stride == 0) {
            add_lane(lines, r.base, size_minus_1);
            return lines.size();
        }
        const uint64_t run = m >> first_lane;
        if (r.stride > 0 && static_cast<uint64_t>(r.stride) <= size_minus_1 + 1 && (run & (run + 1)) == 0) {
            const uint64_t stride = static_cast<uint64_t>(r.stride);
            const uint64_t first = r.base + static_cast<uint64_t>(first_lane) * stride;
            const uint64_t extent = static_cast<uint64_t>(std::bit_width(m) - 1 - first_lane) * stride + size_minus_1;
            if (first >= r.base && first + extent >= first) return span(first, first + extent, out);
        }
        for (uint32_t m = r.active_mask; m; m &= m - 1) {
            const int lane = std::countr_zero(m);
            add_lane(lines, r.base + static_cast<uint64_t>(static_cast<int64_t>(lane) * r.stride), size_minus_1);
        }
    } else {
        for (uint32_t m = r.active_mask; m; m &= m - 1) add_lane(lines, r.addr[std::countr_zero(m)], size_minus_1);
    }
    return lines.size();
}

}  // namespace zng::gpu
