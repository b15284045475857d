#include "mmu_ftl/zng/data_block_layout.hpp"

#include <stdexcept>
#include <string>

namespace zng {

DataBlockLayout::DataBlockLayout(const flash::FlashGeometry& g, uint32_t span) : geo_(g), span_(span) {
    if (span == 0 || g.planes_per_package() % span != 0)
        throw std::invalid_argument("data block span of " + std::to_string(span) +
                                    " planes does not divide the " + std::to_string(g.planes_per_package()) +
                                    " planes of a package");
    groups_per_package_ = g.planes_per_package() / span;
    units_ = g.packages() * groups_per_package_;
}

uint32_t DataBlockLayout::unit_of(const flash::FlashAddress& a) const {
    return geo_.package_index(a) * groups_per_package_ + geo_.plane_in_package(a) / span_;
}

uint32_t DataBlockLayout::plane_in_unit(const flash::FlashAddress& a) const {
    return geo_.plane_in_package(a) % span_;
}

flash::FlashAddress DataBlockLayout::block_address(uint32_t unit, uint32_t piu, uint32_t block) const {
    uint32_t pkg = unit / groups_per_package_;
    uint32_t group = unit % groups_per_package_;
    flash::FlashAddress a;
    a.channel = pkg / geo_.packages_per_channel();
    a.package = pkg % geo_.packages_per_channel();
    a = geo_.with_plane_in_package(a, group * span_ + piu);
    a.block = block;
    a.page = 0;
    return a;
}

DataBlockLayout::Position DataBlockLayout::locate(uint64_t vpn) const {
    const uint64_t pages = geo_.pages();
    Position p;
    uint64_t wrap = vpn / pages;
    p.addr = geo_.decode((vpn % pages) * geo_.page_size());
    p.unit = unit_of(p.addr);
    p.vbn = (wrap * geo_.blocks_per_plane() + p.addr.block) * units_ + p.unit;
    return p;
}

uint64_t DataBlockLayout::vpn_of(uint64_t vbn, uint32_t piu, uint32_t page) const {
    uint32_t unit = unit_of_vbn(vbn);
    uint64_t rest = vbn / units_;
    uint32_t vblock = static_cast<uint32_t>(rest % geo_.blocks_per_plane());
    uint64_t wrap = rest / geo_.blocks_per_plane();
    flash::FlashAddress a = block_address(unit, piu, vblock).with_page(page);
    return wrap * geo_.pages() + geo_.encode(a) / geo_.page_size();
}

}  // namespace zng
