// A flash physical page address: where a page lives in the array hierarchy
// (channel / package / die / plane / block / page). Byte addresses are converted to
// and from this form by FlashGeometry, whose interleaving order comes from the config.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace zng::flash {

struct FlashAddress {
    uint32_t channel = 0;
    uint32_t package = 0;  // within the channel
    uint32_t die = 0;      // within the package
    uint32_t plane = 0;    // within the die
    uint32_t block = 0;    // within the plane
    uint32_t page = 0;     // within the block

    bool operator==(const FlashAddress&) const = default;

    FlashAddress with_block(uint32_t b) const {
        FlashAddress a = *this;
        a.block = b;
        return a;
    }
    FlashAddress with_page(uint32_t p) const {
        FlashAddress a = *this;
        a.page = p;
        return a;
    }
    // Same physical plane (blocks and pages may differ).
    bool same_plane(const FlashAddress& o) const {
        return channel == o.channel && package == o.package && die == o.die && plane == o.plane;
    }
    bool same_block(const FlashAddress& o) const { return same_plane(o) && block == o.block; }
    bool same_page(const FlashAddress& o) const { return same_block(o) && page == o.page; }

    // "ch3/pkg0/die5/pl2/blk17/pg300", for error messages and traces.
    std::string to_string() const;
};

}  // namespace zng::flash
