// What the flash side tells the L2 about its write cache (paper IV-C): when the flash
// registers of a package thrash, the L2 should keep the excess dirty pages in pinned
// space ("redirection") instead of sending them on. The flash back end implements it;
// an L2 policy that pins lines consults it. Header-only, so the GPU model needs no link
// dependency on the flash model.
#pragma once
#include <cstdint>

namespace zng {

class WriteRedirectionSource {
public:
    virtual ~WriteRedirectionSource() = default;
    // True: the registers that would absorb a write to physical address `paddr` are
    // thrashing; the L2 should hold the dirty line.
    virtual bool redirect_write(uint64_t paddr) const = 0;
    // True while any part of the flash side is thrashing: lines pinned earlier stay
    // protected. Once false, pinned lines may be evicted (and written back) again.
    virtual bool redirect_active() const = 0;
};

}  // namespace zng
