// Where ZnG puts a virtual page: the flash geometry's interleaving applied to the virtual
// page number, so that consecutive virtual pages spread over channels, packages, dies
// and planes exactly as consecutive physical pages would.
//
// A data block is a set of `span` physical blocks with the same block number in `span`
// adjacent planes of one package (span = 1 plane, a die's planes, or a package's planes;
// the paper's 80 KB-per-TB table implies the package-wide form). A "unit" is such a
// group of planes: unit = package * (planes_per_package / span) + plane group. A data
// block lives wholly in one unit and its block number (PDBN) is chosen freely inside the
// unit, so only the block field of the address is translated.
//
// Virtual page vpn -> wrap = vpn / pages, rest = vpn % pages decoded by the geometry
// (the `block` field of `rest` is the virtual block inside the unit);
// VBN = (wrap * blocks_per_plane + virtual block) * units + unit. The physical page is
// the decoded address with block := PDBN, so it keeps its channel/die/plane/page.
#pragma once
#include <cstdint>

#include "flash_model/flash_geometry.hpp"

namespace zng {

class DataBlockLayout {
public:
    // Throws std::invalid_argument when span does not divide the planes of a package.
    DataBlockLayout(const flash::FlashGeometry& g, uint32_t span);

    const flash::FlashGeometry& geometry() const { return geo_; }
    uint32_t span() const { return span_; }
    uint32_t units() const { return units_; }
    uint32_t blocks_per_unit() const { return geo_.blocks_per_plane(); }
    uint64_t pages_per_data_block() const { return uint64_t{span_} * geo_.pages_per_block(); }
    uint64_t data_block_bytes() const { return pages_per_data_block() * geo_.page_size(); }

    struct Position {
        uint64_t vbn = 0;
        uint32_t unit = 0;
        flash::FlashAddress addr;  // block field = virtual block inside the unit
    };
    Position locate(uint64_t vpn) const;
    // Inverse of locate(): the virtual page of `vbn` at plane `plane_in_unit`, page `page`.
    uint64_t vpn_of(uint64_t vbn, uint32_t plane_in_unit, uint32_t page) const;
    uint32_t unit_of_vbn(uint64_t vbn) const { return static_cast<uint32_t>(vbn % units_); }

    uint32_t unit_of(const flash::FlashAddress& a) const;
    uint32_t plane_in_unit(const flash::FlashAddress& a) const;
    // Address of block `block` in the `plane_in_unit`-th plane of `unit` (page 0).
    flash::FlashAddress block_address(uint32_t unit, uint32_t plane_in_unit, uint32_t block) const;

private:
    flash::FlashGeometry geo_;
    uint32_t span_;
    uint32_t groups_per_package_;
    uint32_t units_;
};

}  // namespace zng
