// What the shared MMU calls back: an L1 TLB whose miss it has resolved, or whose entry
// a translator shot down.
#pragma once
#include <cstdint>

namespace zng::gpu {

class TranslationClient {
public:
    virtual ~TranslationClient() = default;
    virtual void translation_done(uint16_t app, uint64_t vpn, uint64_t ppn) = 0;
    virtual void invalidate(uint16_t app, uint64_t vpn) = 0;
};

// One key for (application, virtual page): address spaces are per application.
// vpn < 2^52 for any page of at least 4 KiB, and app < 256 (checked by the Gpu).
inline uint64_t page_key(uint16_t app, uint64_t vpn) { return (vpn << 8) | app; }

}  // namespace zng::gpu
