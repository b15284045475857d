// What a memory back end tells the L2 about its write cache (paper IV-C): when the flash
// registers of a package thrash, the L2 should keep the excess dirty pages in pinned
// space ("redirection") instead of sending them on. ZnG's flash back end offers it (see
// interface_provider.hpp); an L2 policy that pins lines consults it. The GPU model and
// the flash model meet here, so neither includes the other.
#pragma once
#include <cstdint>
#include <string_view>

namespace zng {

class WriteRedirectionSource {
public:
    static constexpr std::string_view kInterfaceName = "write_redirection_source";
    virtual ~WriteRedirectionSource() = default;
    // True: the registers that would absorb a write to physical address `paddr` are
    // thrashing; the L2 should hold the dirty line.
    virtual bool redirect_write(uint64_t paddr) const = 0;
    // True while any part of the flash side is thrashing: lines pinned earlier stay
    // protected. Once false, pinned lines may be evicted (and written back) again.
    virtual bool redirect_active() const = 0;
};

}  // namespace zng
