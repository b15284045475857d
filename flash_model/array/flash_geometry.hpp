// The shape of a flash array (channels x packages x dies x planes x blocks x pages of
// page_size bytes) and the mapping between a flat byte address and a FlashAddress.
//
// The interleaving order lists the address fields from the fastest-changing to the
// slowest, above the byte offset inside a page. With the default
// "channel,package,die,plane,page,block", consecutive pages go to consecutive channels,
// then packages, dies and planes; the page index inside a block changes next and the
// block number last. The radices need not be powers of two (Z-NAND has 384 pages per
// block), so the mapping is mixed-radix arithmetic, not bit slicing.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <libdivide.h>

#include "flash_model/array/flash_address.hpp"

namespace zng {
class Params;
}

namespace zng::flash {

enum class AddressField : uint8_t { Channel, Package, Die, Plane, Block, Page };
constexpr int kAddressFields = 6;
const char* to_string(AddressField f);

class FlashGeometry {
public:
    struct Shape {
        uint32_t channels = 16;
        uint32_t packages_per_channel = 1;
        uint32_t dies_per_package = 8;
        uint32_t planes_per_die = 8;
        uint32_t blocks_per_plane = 1024;
        uint32_t pages_per_block = 384;
        uint64_t page_size = 4096;  // bytes, a power of two
        bool operator==(const Shape&) const = default;
    };
    // Throws std::invalid_argument on impossible shapes or orders (callers that read a
    // config turn it into a ConfigError naming the key); `order` is a comma-separated
    // permutation of channel,package,die,plane,block,page.
    FlashGeometry(const Shape& shape, const std::string& order);
    FlashGeometry() : FlashGeometry(Shape{}, "channel,package,die,plane,page,block") {}

    const Shape& shape() const { return shape_; }
    // Same shape and interleaving order: byte addresses mean the same pages in both.
    bool operator==(const FlashGeometry& o) const { return shape_ == o.shape_ && order_ == o.order_; }
    uint32_t channels() const { return shape_.channels; }
    uint32_t packages_per_channel() const { return shape_.packages_per_channel; }
    uint32_t dies_per_package() const { return shape_.dies_per_package; }
    uint32_t planes_per_die() const { return shape_.planes_per_die; }
    uint32_t blocks_per_plane() const { return shape_.blocks_per_plane; }
    uint32_t pages_per_block() const { return shape_.pages_per_block; }
    uint64_t page_size() const { return shape_.page_size; }

    uint32_t packages() const { return shape_.channels * shape_.packages_per_channel; }
    uint32_t planes_per_package() const { return shape_.dies_per_package * shape_.planes_per_die; }
    uint64_t planes() const { return static_cast<uint64_t>(packages()) * planes_per_package(); }
    uint64_t blocks() const { return planes() * shape_.blocks_per_plane; }
    uint64_t pages() const { return capacity_ >> page_shift_; }
    uint64_t capacity_bytes() const { return capacity_; }
    uint64_t block_bytes() const { return static_cast<uint64_t>(shape_.pages_per_block) * shape_.page_size; }

    // Byte address -> page address (the byte offset inside the page is dropped).
    // Throws SimError if the address lies beyond the capacity. Inline: the controllers
    // and translators decode on every request.
    FlashAddress decode(uint64_t byte_address) const {
        if (byte_address >= capacity_) [[unlikely]]
            report_beyond_capacity(byte_address);
        uint64_t rest = byte_address >> page_shift_;
        FlashAddress a;
        for (const Digit& d : digits_) {
            const uint64_t q = rest / d.by_radix;  // libdivide: a multiply, not a divide
            a.*d.member = static_cast<uint32_t>(rest - q * d.radix);
            rest = q;
        }
        return a;
    }
    // Page address -> byte address of the page's first byte. Throws SimError if a
    // field is out of range.
    uint64_t encode(const FlashAddress& a) const {
        check(a);
        uint64_t v = 0;
        for (const Digit& d : digits_) v += (a.*d.member) * d.stride;
        return v << page_shift_;
    }
    uint64_t page_offset(uint64_t byte_address) const { return byte_address & (shape_.page_size - 1); }
    // Throws SimError naming the field if `a` is outside the geometry. Called on every
    // flash operation and FTL query: the common in-range case is six compares inline.
    void check(const FlashAddress& a) const {
        if (a.channel >= shape_.channels || a.package >= shape_.packages_per_channel ||
            a.die >= shape_.dies_per_package || a.plane >= shape_.planes_per_die ||
            a.block >= shape_.blocks_per_plane || a.page >= shape_.pages_per_block) [[unlikely]]
            report_out_of_range(a);
    }

    // Flat indices, for per-package / per-plane / per-block tables.
    uint32_t package_index(const FlashAddress& a) const { return a.channel * shape_.packages_per_channel + a.package; }
    // Plane inside its package: die * planes_per_die + plane.
    uint32_t plane_in_package(const FlashAddress& a) const { return a.die * shape_.planes_per_die + a.plane; }
    uint64_t plane_index(const FlashAddress& a) const {
        return static_cast<uint64_t>(package_index(a)) * planes_per_package() + plane_in_package(a);
    }
    uint64_t block_index(const FlashAddress& a) const { return plane_index(a) * shape_.blocks_per_plane + a.block; }
    // Inverse of plane_in_package: sets die and plane of `a`.
    FlashAddress with_plane_in_package(FlashAddress a, uint32_t p) const {
        a.die = p / shape_.planes_per_die;
        a.plane = p % shape_.planes_per_die;
        return a;
    }

    const std::array<AddressField, kAddressFields>& order() const { return order_; }
    std::string order_string() const;

private:
    // Throws for the first field of `a` (in interleaving order) outside the geometry.
    [[noreturn]] void report_out_of_range(const FlashAddress& a) const;
    [[noreturn]] void report_beyond_capacity(uint64_t byte_address) const;
    uint64_t radix(AddressField f) const;
    static uint32_t FlashAddress::* member(AddressField f);

    // The mixed-radix digits of a page number, fastest first (the interleaving order):
    // the field each sets, its radix, and the place value (product of the faster radices).
    struct Digit {
        uint32_t FlashAddress::* member = &FlashAddress::channel;
        uint64_t radix = 1;
        uint64_t stride = 1;
        libdivide::divider<uint64_t> by_radix{1};
    };

    Shape shape_;
    std::array<AddressField, kAddressFields> order_{};
    std::array<Digit, kAddressFields> digits_{};
    uint64_t capacity_ = 0;  // bytes
    uint32_t page_shift_ = 12;
};

}  // namespace zng::flash
