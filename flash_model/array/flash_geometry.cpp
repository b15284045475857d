#include "flash_model/array/flash_geometry.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "sim/core/errors.hpp"

namespace zng::flash {

const char* to_string(AddressField f) {
    switch (f) {
        case AddressField::Channel: return "channel";
        case AddressField::Package: return "package";
        case AddressField::Die: return "die";
        case AddressField::Plane: return "plane";
        case AddressField::Block: return "block";
        case AddressField::Page: return "page";
    }
    return "?";
}

namespace {
AddressField parse_field(const std::string& s) {
    for (int i = 0; i < kAddressFields; ++i) {
        auto f = static_cast<AddressField>(i);
        if (s == to_string(f)) return f;
    }
    throw std::invalid_argument(fmt::format("'{}' is not an address field (channel, package, die, plane, block, page)", s));
}
}  // namespace

FlashGeometry::FlashGeometry(const Shape& shape, const std::string& order) : shape_(shape) {
    auto positive = [](uint64_t v, const char* what) {
        if (v == 0) throw std::invalid_argument(fmt::format("{} must be at least 1", what));
    };
    positive(shape.channels, "channels");
    positive(shape.packages_per_channel, "packages_per_channel");
    positive(shape.dies_per_package, "dies_per_package");
    positive(shape.planes_per_die, "planes_per_die");
    positive(shape.blocks_per_plane, "blocks_per_plane");
    positive(shape.pages_per_block, "pages_per_block");
    if (shape.page_size < 512 || (shape.page_size & (shape.page_size - 1)) != 0)
        throw std::invalid_argument(fmt::format("page_size {} must be a power of two of at least 512 B", shape.page_size));
    page_shift_ = static_cast<uint32_t>(__builtin_ctzll(shape.page_size));
    // The whole byte address space must fit in 64 bits.
    unsigned __int128 cap = static_cast<unsigned __int128>(shape.channels) * shape.packages_per_channel *
                            shape.dies_per_package * shape.planes_per_die * shape.blocks_per_plane *
                            shape.pages_per_block * shape.page_size;
    if (cap >> 63) throw std::invalid_argument("the geometry's capacity does not fit a 63-bit byte address");

    bool seen[kAddressFields] = {};
    size_t pos = 0, n = 0;
    while (pos <= order.size()) {
        size_t comma = order.find(',', pos);
        if (comma == std::string::npos) comma = order.size();
        std::string tok = order.substr(pos, comma - pos);
        while (!tok.empty() && tok.front() == ' ') tok.erase(tok.begin());
        while (!tok.empty() && tok.back() == ' ') tok.pop_back();
        AddressField f = parse_field(tok);
        if (seen[static_cast<int>(f)]) throw std::invalid_argument(fmt::format("field '{}' appears twice", tok));
        if (n == kAddressFields) throw std::invalid_argument("more than six fields");
        seen[static_cast<int>(f)] = true;
        order_[n++] = f;
        pos = comma + 1;
    }
    if (n != kAddressFields)
        throw std::invalid_argument(
            fmt::format("'{}' must list all six fields channel, package, die, plane, block, page once each", order));
    uint64_t stride = 1;
    for (int i = 0; i < kAddressFields; ++i) {
        const uint64_t r = radix(order_[i]);
        digits_[i] = Digit{member(order_[i]), r, stride, libdivide::divider<uint64_t>(r)};
        stride *= r;
    }
    capacity_ = stride << page_shift_;
}

uint64_t FlashGeometry::radix(AddressField f) const {
    switch (f) {
        case AddressField::Channel: return shape_.channels;
        case AddressField::Package: return shape_.packages_per_channel;
        case AddressField::Die: return shape_.dies_per_package;
        case AddressField::Plane: return shape_.planes_per_die;
        case AddressField::Block: return shape_.blocks_per_plane;
        case AddressField::Page: return shape_.pages_per_block;
    }
    return 1;
}

uint32_t FlashAddress::* FlashGeometry::member(AddressField f) {
    switch (f) {
        case AddressField::Channel: return &FlashAddress::channel;
        case AddressField::Package: return &FlashAddress::package;
        case AddressField::Die: return &FlashAddress::die;
        case AddressField::Plane: return &FlashAddress::plane;
        case AddressField::Block: return &FlashAddress::block;
        case AddressField::Page: break;
    }
    return &FlashAddress::page;
}

void FlashGeometry::report_beyond_capacity(uint64_t byte_address) const {
    throw SimError(fmt::format("flash address {:#x} is beyond the array capacity {:#x}", byte_address, capacity_));
}

void FlashGeometry::report_out_of_range(const FlashAddress& a) const {
    for (AddressField f : order_)
        if (a.*member(f) >= radix(f))
            throw SimError(fmt::format("flash address {}: {} {} is out of range (the geometry has {})", a.to_string(),
                                       to_string(f), a.*member(f), radix(f)));
    throw SimError("flash address " + a.to_string() + " is out of range");
}

std::string FlashGeometry::order_string() const {
    std::string s;
    for (AddressField f : order_) s += (s.empty() ? "" : ",") + std::string(to_string(f));
    return s;
}

}  // namespace zng::flash
