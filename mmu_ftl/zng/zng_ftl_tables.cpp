#include "mmu_ftl/zng/zng_ftl_tables.hpp"

#include <string>

namespace zng::ftl {

ZngFtlTables::ZngFtlTables(const DataBlockLayout& l, uint32_t user_blocks, uint32_t group_size,
                           std::unique_ptr<FreeBlockPool> free_pool)
    : layout(l), user_blocks_per_unit(user_blocks), lbmt(group_size),
      blocks(uint64_t{l.units()} * l.blocks_per_unit(), PhysicalBlock{}), data_blocks_in_unit(l.units(), 0),
      pool(std::move(free_pool)) {}

uint32_t ZngFtlTables::take_erased_block(uint32_t unit) {
    FreeBlockPool::Taken t = pool->take(unit);
    block(unit, t.block).moved_to = UINT32_MAX;  // reused: old addresses no longer lead anywhere
    if (t.fresh && flash)
        for (uint32_t p = 0; p < layout.span(); ++p) flash->set_block_erased(layout.block_address(unit, p, t.block));
    return t.block;
}

uint32_t ZngFtlTables::take_data_block(uint32_t unit) {
    if (data_blocks_in_unit[unit] >= user_blocks_per_unit)
        throw SimError("ZnG FTL: the data of unit " + std::to_string(unit) + " exceeds its " +
                       std::to_string(user_blocks_per_unit) + " user blocks (flash capacity minus over-provisioning)");
    ++data_blocks_in_unit[unit];
    const uint32_t b = pool->take(unit).block;
    block(unit, b).moved_to = UINT32_MAX;
    return b;
}

void ZngFtlTables::retire_block(uint32_t unit, uint32_t b) {
    PhysicalBlock& pb = block(unit, b);
    pb.role = PhysicalBlock::Free;
    pb.owner = UINT32_MAX;
}

void ZngFtlTables::release_block(uint32_t unit, uint32_t b) {
    PhysicalBlock& pb = block(unit, b);
    ++pb.erases;
    pool->give_back(unit, b, pb.erases);
}

}  // namespace zng::ftl
