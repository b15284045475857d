// Where ZnG puts a virtual page: the flash geometry's interleaving applied to the virtual
// page number, so that consecutive virtual pages spread over channels, packages, dies
// and planes exactly as consecutive physical pages would.
//
// Application placement (paper IV-C: "SSD controller redirects the requests of different
// applications to access different flash planes, which can help reduce write
// amplification"). With `apps` > 1 co-running applications, the planes of every die are
// split among them: application a owns planes [a * s, (a + 1) * s) of every die, s =
// planes_per_die / apps, so each application still spans every channel, package and die
// but no two applications share a plane. An application's pages are placed by the same
// interleaving in its own sub-geometry (the flash shape with s planes per die); with one
// application the sub-geometry is the flash geometry itself and nothing changes.
//
// A data block is a set of `span` physical blocks with the same block number in `span`
// adjacent planes of one package owned by one application (span = 1 plane, the
// application's planes of a die, or its planes of a package; the paper's 80 KB-per-TB
// table implies the package-wide form). A "unit" is such a group of planes: per
// application, unit = package * groups_per_package + plane group, and the unit numbers of
// application a follow those of a - 1. A data block lives wholly in one unit and its
// block number (PDBN) is chosen freely inside the unit, so only the block field of the
// address is translated.
//
// Virtual page vpn of app a -> wrap = vpn / pages', rest = vpn % pages' decoded by the
// sub-geometry (pages' = its page count; the `block` field of `rest` is the virtual block
// inside the unit); VBN = (wrap * blocks_per_plane + virtual block) * units_per_app +
// unit in the app. The physical page is the decoded address with the plane moved to the
// application's planes and block := PDBN, so it keeps its channel/die/page.
#pragma once
#include <cstdint>
#include <vector>

#include "flash_model/array/flash_geometry.hpp"

namespace zng::ftl {

class DataBlockLayout {
public:
    enum class Span : uint8_t { Plane, Die, Package };
    // Throws std::invalid_argument when the planes of a die cannot be split among `apps`
    // applications (one would have no plane, or the shares would differ).
    DataBlockLayout(const flash::FlashGeometry& g, Span span, uint32_t apps = 1);

    const flash::FlashGeometry& geometry() const { return geo_; }
    // The shape one application's pages are interleaved over (its planes only).
    const flash::FlashGeometry& app_geometry() const { return sub_; }
    uint32_t apps() const { return apps_; }
    uint32_t planes_per_die_per_app() const { return sub_.planes_per_die(); }
    uint32_t span() const { return span_; }
    uint32_t units() const { return units_per_app_ * apps_; }
    uint32_t units_per_app() const { return units_per_app_; }
    uint32_t blocks_per_unit() const { return geo_.blocks_per_plane(); }
    uint64_t pages_per_data_block() const { return uint64_t{span_} * geo_.pages_per_block(); }
    uint64_t data_block_bytes() const { return pages_per_data_block() * geo_.page_size(); }

    struct Position {
        uint64_t vbn = 0;
        uint32_t unit = 0;
        flash::FlashAddress addr;  // physical channel/package/die/plane/page; block = virtual block in the unit
    };
    // Throws SimError when `app` has no planes (the planes were split among fewer applications).
    Position locate(uint16_t app, uint64_t vpn) const;
    // Inverse of locate(): the virtual page of `vbn` of `app` at plane `plane_in_unit`, page `page`.
    uint64_t vpn_of(uint16_t app, uint64_t vbn, uint32_t plane_in_unit, uint32_t page) const;
    // The same for application 0 (the only one of a layout whose planes are not split).
    uint64_t vpn_of(uint64_t vbn, uint32_t plane_in_unit, uint32_t page) const {
        return vpn_of(0, vbn, plane_in_unit, page);
    }

    // Unit and plane within the unit of an address inside the geometry: looked up by
    // plane (the flash model asks for every dirty register it weighs for eviction).
    uint32_t unit_of(const flash::FlashAddress& a) const { return unit_by_plane_[geo_.plane_index(a)]; }
    uint32_t plane_in_unit(const flash::FlashAddress& a) const { return plane_in_unit_by_plane_[geo_.plane_index(a)]; }
    // Address of block `block` in the `plane_in_unit`-th plane of `unit` (page 0).
    flash::FlashAddress block_address(uint32_t unit, uint32_t plane_in_unit, uint32_t block) const;
    // The plane share (application, when the planes are split) holding `a`.
    uint32_t app_of(const flash::FlashAddress& a) const { return a.plane / sub_.planes_per_die(); }

private:
    // The plane share of `app`: 0 when all applications share the planes; throws SimError
    // when the planes were split among fewer applications.
    uint32_t share_of(uint16_t app) const;
    // Physical address <-> the application's sub-geometry address (only the plane differs).
    flash::FlashAddress to_physical(uint32_t app, flash::FlashAddress sub) const;
    flash::FlashAddress to_sub(flash::FlashAddress a) const;
    uint32_t unit_in_app(const flash::FlashAddress& sub) const;
    // The arithmetic behind the tables of unit_of() and plane_in_unit().
    uint32_t compute_unit_of(const flash::FlashAddress& a) const;
    uint32_t compute_plane_in_unit(const flash::FlashAddress& a) const;

    flash::FlashGeometry geo_;
    flash::FlashGeometry sub_;
    uint32_t apps_;
    uint32_t span_;
    uint32_t groups_per_package_;
    uint32_t units_per_app_;
    std::vector<uint32_t> unit_by_plane_;           // by FlashGeometry::plane_index
    std::vector<uint32_t> plane_in_unit_by_plane_;  // likewise
};

}  // namespace zng::ftl
