#include "mmu_ftl/zng/mapping_table_sizes.hpp"

namespace zng::ftl {

uint32_t bits_for(uint64_t n) {
    uint32_t b = 1;
    while (b < 64 && (uint64_t{1} << b) < n) ++b;
    return b;
}

uint64_t two_level_table_bytes(uint64_t entries, uint32_t entry_bytes) {
    constexpr uint64_t kLeafBytes = 4096, kPointerBytes = 8;
    uint64_t per_leaf = kLeafBytes / entry_bytes;
    uint64_t leaves = (entries + per_leaf - 1) / per_leaf;
    return entries * entry_bytes + leaves * kPointerBytes;
}

MappingTableSizes compute_mapping_table_sizes(const DataBlockLayout& layout, uint32_t user_blocks_per_unit,
                                              uint32_t group_size) {
    MappingTableSizes s;
    const uint64_t physical_blocks = uint64_t{layout.units()} * layout.blocks_per_unit();
    s.block_number_bits = bits_for(physical_blocks);
    s.dbmt_entry_bits = 3 * s.block_number_bits + 1;  // LBN, PDBN, PLBN, valid
    s.dbmt_entry_bytes = 1;
    while (s.dbmt_entry_bytes * 8 < s.dbmt_entry_bits) s.dbmt_entry_bytes *= 2;
    s.user_data_blocks = uint64_t{layout.units()} * user_blocks_per_unit;
    s.dbmt_bytes = two_level_table_bytes(s.user_data_blocks, s.dbmt_entry_bytes);
    const uint64_t per_tb = (1'000'000'000'000ull + layout.data_block_bytes() - 1) / layout.data_block_bytes();
    s.dbmt_bytes_per_tb = two_level_table_bytes(per_tb, s.dbmt_entry_bytes);

    const uint64_t lbmt_bits = s.block_number_bits + bits_for(uint64_t{group_size} + 1) +
                               uint64_t{group_size} * s.block_number_bits;
    s.lbmt_entry_bytes = static_cast<uint32_t>((lbmt_bits + 7) / 8);
    s.log_groups = uint64_t{layout.units()} * ((user_blocks_per_unit + group_size - 1) / group_size);
    s.lbmt_bytes = s.log_groups * s.lbmt_entry_bytes;
    return s;
}

}  // namespace zng::ftl
