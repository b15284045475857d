// Which lines one prefetch fetches: `unit` bytes of the flash page around the missed
// line. Prefetches stay inside the page because the L2 is indexed by flash physical
// address: the next physical page belongs to another channel or block, not to the
// data that follows in the program's view. The window is the unit-aligned chunk of the
// page holding the miss, shifted back to end at the page end when it would cross it
// (so a 3 KB unit still fetches 3 KB near the end of a 4 KB page).
#pragma once
#include <algorithm>
#include <cstdint>

namespace zng::gpu {

struct LineWindow {
    uint64_t first_line = 0;  // line number (byte address / line size)
    uint64_t lines = 0;
};

inline LineWindow prefetch_window(uint64_t miss_addr, uint64_t unit_bytes, uint64_t line_bytes,
                                  uint64_t page_bytes) {
    const uint64_t lines_per_page = page_bytes / line_bytes;
    const uint64_t n = std::clamp<uint64_t>(unit_bytes / line_bytes, 1, lines_per_page);
    const uint64_t page_first = miss_addr / page_bytes * lines_per_page;
    const uint64_t offset = miss_addr / line_bytes - page_first;
    uint64_t start = offset / n * n;
    if (start + n > lines_per_page) start = lines_per_page - n;
    return {page_first + start, n};
}

}  // namespace zng::gpu
