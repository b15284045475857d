// Sizes in bytes of ZnG's mapping tables as the hardware would hold them, derived from
// the geometry (the simulator's own data structures are sized by what is touched).
//
// DBMT (the MMU's two-level page table): one entry per user data block holding
// LBN, PDBN, PLBN and a valid bit (the VBN is the index). Field widths are the bits
// needed to name a block; the entry is rounded up to a power-of-two number of bytes as
// page-table entries are. Leaves are 4 KiB pages of entries; the directory has one
// 8-byte pointer per leaf.
// LBMT (GPU shared memory): one entry per log group: PLBN, a member count and the LBNs
// of up to `group_size` data blocks, rounded up to whole bytes.
//
// Paper geometry (16 x 1 x 8 x 8 x 1024 x 384 x 4 KiB, package-wide data blocks):
// a data block is 64 planes x 384 pages x 4 KiB = 100,663,296 B; 10^12 B need
// ceil(1e12 / 100,663,296) = 9,935 entries; block numbers need 14 bits (16,384 data
// blocks), so an entry is 14+14+14+1 = 43 bits -> 8 B; 9,935 x 8 = 79,480 B of leaves
// + ceil(9,935 / 512) = 20 directory pointers x 8 B = 160 B -> 79,640 B, "about 80 KB
// per 1 TB" as the paper says.
#pragma once
#include <cstdint>

#include "mmu_ftl/zng/data_block_layout.hpp"

namespace zng::ftl {

struct MappingTableSizes {
    uint32_t block_number_bits = 0;  // bits to name one data block (PDBN, PLBN, LBN)
    uint32_t dbmt_entry_bits = 0;
    uint32_t dbmt_entry_bytes = 0;
    uint64_t user_data_blocks = 0;
    uint64_t dbmt_bytes = 0;          // whole user capacity
    uint64_t dbmt_bytes_per_tb = 0;   // for 10^12 bytes of user data
    uint32_t lbmt_entry_bytes = 0;
    uint64_t log_groups = 0;
    uint64_t lbmt_bytes = 0;
};

// Bits needed to represent values 0 .. n-1 (at least 1).
uint32_t bits_for(uint64_t n);
// Bytes of a two-level table of `entries` entries of `entry_bytes` (4 KiB leaves).
uint64_t two_level_table_bytes(uint64_t entries, uint32_t entry_bytes);

MappingTableSizes compute_mapping_table_sizes(const DataBlockLayout& layout, uint32_t user_blocks_per_unit,
                                              uint32_t group_size);

}  // namespace zng::ftl
