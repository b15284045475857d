// Sectors: the 32 B unit in which lines are requested and moved (a GDDR5 burst; the
// sector size of NVIDIA caches since Fermi's 32 B L2 segments).
#pragma once
#include <cstdint>

#include "sim/mem/mem_request.hpp"

namespace zng::gpu {

constexpr uint32_t kSectorSize = 32;

// Mask with every sector of a line of `line_size` bytes (at most 32 sectors).
constexpr uint32_t full_sector_mask(uint32_t line_size) {
    uint32_t n = line_size / kSectorSize;
    return n >= 32 ? ~0u : (1u << n) - 1;
}

// Fills `w` as the write-back of a whole dirty line at physical address `paddr`. A
// victim's virtual address is not kept: the L2 and the memory use paddr.
inline void fill_line_writeback(MemRequest& w, uint64_t paddr, uint32_t line_bytes, uint16_t app) {
    w.app = app;
    w.paddr = paddr;
    w.vaddr = paddr;
    w.size = line_bytes;
    w.sector_mask = full_sector_mask(line_bytes);
    w.op = MemOp::Writeback;
}

}  // namespace zng::gpu
