#include "mmu_ftl/zng/data_block_layout.hpp"

#include <stdexcept>
#include <string>

#include "sim/core/errors.hpp"

namespace zng::ftl {

namespace {

flash::FlashGeometry app_share_geometry(const flash::FlashGeometry& g, uint32_t apps) {
    const uint32_t ppd = g.planes_per_die();
    if (apps == 0 || apps > ppd)
        throw std::invalid_argument("placement app_planes: " + std::to_string(apps) +
                                    " applications cannot each own planes of a die of " + std::to_string(ppd) +
                                    " planes (an application would have no plane)");
    if (ppd % apps != 0)
        throw std::invalid_argument("placement app_planes: the " + std::to_string(ppd) +
                                    " planes of a die do not split evenly among " + std::to_string(apps) +
                                    " applications");
    flash::FlashGeometry::Shape s = g.shape();
    s.planes_per_die = ppd / apps;
    return flash::FlashGeometry(s, g.order_string());
}

}  // namespace

DataBlockLayout::DataBlockLayout(const flash::FlashGeometry& g, Span span, uint32_t apps)
    : geo_(g), sub_(app_share_geometry(g, apps)), apps_(apps) {
    span_ = span == Span::Plane ? 1 : span == Span::Die ? sub_.planes_per_die() : sub_.planes_per_package();
    groups_per_package_ = sub_.planes_per_package() / span_;
    units_per_app_ = sub_.packages() * groups_per_package_;
    const uint64_t planes = geo_.planes();
    unit_by_plane_.resize(planes);
    plane_in_unit_by_plane_.resize(planes);
    for (uint64_t i = 0; i < planes; ++i) {
        const auto pkg = static_cast<uint32_t>(i / geo_.planes_per_package());
        flash::FlashAddress a;
        a.channel = pkg / geo_.packages_per_channel();
        a.package = pkg % geo_.packages_per_channel();
        a = geo_.with_plane_in_package(a, static_cast<uint32_t>(i % geo_.planes_per_package()));
        unit_by_plane_[i] = compute_unit_of(a);
        plane_in_unit_by_plane_[i] = compute_plane_in_unit(a);
    }
}

uint32_t DataBlockLayout::share_of(uint16_t app) const {
    if (apps_ == 1) return 0;  // one share: every application uses all planes
    if (app >= apps_)
        throw SimError("ZnG FTL: application " + std::to_string(app) +
                       " has no flash plane: the planes were split among " +
                       std::to_string(apps_) + " application(s) (translation.placement app_planes)");
    return app;
}

flash::FlashAddress DataBlockLayout::to_physical(uint32_t app, flash::FlashAddress sub) const {
    sub.plane += app * sub_.planes_per_die();
    return sub;
}

flash::FlashAddress DataBlockLayout::to_sub(flash::FlashAddress a) const {
    a.plane %= sub_.planes_per_die();
    return a;
}

uint32_t DataBlockLayout::unit_in_app(const flash::FlashAddress& sub) const {
    return sub_.package_index(sub) * groups_per_package_ + sub_.plane_in_package(sub) / span_;
}

uint32_t DataBlockLayout::compute_unit_of(const flash::FlashAddress& a) const {
    return app_of(a) * units_per_app_ + unit_in_app(to_sub(a));
}

uint32_t DataBlockLayout::compute_plane_in_unit(const flash::FlashAddress& a) const {
    return sub_.plane_in_package(to_sub(a)) % span_;
}

flash::FlashAddress DataBlockLayout::block_address(uint32_t unit, uint32_t piu, uint32_t block) const {
    const uint32_t app = unit / units_per_app_;
    const uint32_t local = unit % units_per_app_;
    const uint32_t pkg = local / groups_per_package_;
    const uint32_t group = local % groups_per_package_;
    flash::FlashAddress a;
    a.channel = pkg / sub_.packages_per_channel();
    a.package = pkg % sub_.packages_per_channel();
    a = sub_.with_plane_in_package(a, group * span_ + piu);
    a.block = block;
    a.page = 0;
    return to_physical(app, a);
}

DataBlockLayout::Position DataBlockLayout::locate(uint16_t app, uint64_t vpn) const {
    const uint32_t share = share_of(app);
    const uint64_t pages = sub_.pages();
    Position p;
    uint64_t wrap = vpn / pages;
    const flash::FlashAddress sub = sub_.decode((vpn % pages) * sub_.page_size());
    const uint32_t local = unit_in_app(sub);
    p.addr = to_physical(share, sub);
    p.unit = share * units_per_app_ + local;
    p.vbn = (wrap * sub_.blocks_per_plane() + sub.block) * units_per_app_ + local;
    return p;
}

uint64_t DataBlockLayout::vpn_of(uint16_t app, uint64_t vbn, uint32_t piu, uint32_t page) const {
    const uint32_t share = share_of(app);
    const uint32_t local = static_cast<uint32_t>(vbn % units_per_app_);
    uint64_t rest = vbn / units_per_app_;
    uint32_t vblock = static_cast<uint32_t>(rest % sub_.blocks_per_plane());
    uint64_t wrap = rest / sub_.blocks_per_plane();
    const flash::FlashAddress a = to_sub(block_address(share * units_per_app_ + local, piu, vblock).with_page(page));
    return wrap * sub_.pages() + sub_.encode(a) / sub_.page_size();
}

}  // namespace zng::ftl
