// Sectors: the 32 B unit in which lines are requested and moved (a GDDR5 burst; the
// sector size of NVIDIA caches since Fermi's 32 B L2 segments).
#pragma once
#include <cstdint>

namespace zng::gpu {

constexpr uint32_t kSectorSize = 32;

// Mask with every sector of a line of `line_size` bytes (at most 32 sectors).
constexpr uint32_t full_sector_mask(uint32_t line_size) {
    uint32_t n = line_size / kSectorSize;
    return n >= 32 ? ~0u : (1u << n) - 1;
}

}  // namespace zng::gpu
