// The state ZnG's FTL keeps about the flash, shared by the MMU-side translator (which
// allocates data blocks and log blocks) and the GPU helper thread (which merges them):
// the data-block layout, the DBMT, the LBMT, the role and erase count of every physical
// data-block-sized block, and the free blocks under the wear-levelling policy.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "flash_model/array/log_block_map.hpp"
#include "mmu_ftl/common/sparse_table.hpp"
#include "mmu_ftl/wear/free_block_pool.hpp"
#include "mmu_ftl/zng/data_block_layout.hpp"
#include "mmu_ftl/zng/data_block_mapping_table.hpp"
#include "mmu_ftl/zng/log_block_mapping_table.hpp"

namespace zng::ftl {

struct PhysicalBlock {
    enum Role : uint8_t { Free, Data, Log };
    Role role = Free;
    uint32_t owner = UINT32_MAX;  // LBN of a data block, group of a log block
    uint32_t erases = 0;
    bool held_data = false;  // was a data block at some time (late write-backs may still name it)
    uint32_t moved_to = UINT32_MAX;  // LBN whose data a merge moved out of this block, until it is reused
};

struct ZngFtlTables {
    ZngFtlTables(const DataBlockLayout& l, uint32_t user_blocks, uint32_t group_size,
                 std::unique_ptr<FreeBlockPool> free_pool);

    DataBlockLayout layout;
    uint32_t user_blocks_per_unit;
    DataBlockMappingTable dbmt;
    LogBlockMappingTable lbmt;
    // units x blocks_per_unit, allocated as blocks are first used: a configured geometry of
    // billions of blocks costs nothing until it is touched.
    SparseTable<PhysicalBlock> blocks;
    std::vector<uint32_t> data_blocks_in_unit;    // against the user capacity
    std::unique_ptr<FreeBlockPool> pool;
    flash::FlashOpExecutor* flash = nullptr;      // set when the flash back end is attached

    PhysicalBlock& block(uint32_t unit, uint32_t b) { return blocks.at(uint64_t{unit} * layout.blocks_per_unit() + b); }
    const PhysicalBlock& block(uint32_t unit, uint32_t b) const {
        return blocks.peek(uint64_t{unit} * layout.blocks_per_unit() + b);
    }
    // f(erase count, number of blocks) over every physical block: the touched ones one
    // by one in order, then the untouched ones (never erased) together.
    template <class F>
    void for_each_erase_count(F&& f) const {
        blocks.for_each_stored([&](uint64_t, const PhysicalBlock& b) { f(b.erases, uint64_t{1}); });
        if (const uint64_t untouched = blocks.size() - blocks.stored()) f(blocks.fill().erases, untouched);
    }
    // A free block that can be programmed: a never-used spare is declared erased to the
    // flash model (over-provisioned blocks leave the factory erased).
    uint32_t take_erased_block(uint32_t unit);
    // A block for a first-touched data block (a never-used block holds pre-loaded data).
    uint32_t take_data_block(uint32_t unit);
    // A merge has moved the block's data: it belongs to nothing, but stays out of the pool
    // until its erase (release_block).
    void retire_block(uint32_t unit, uint32_t b);
    void release_block(uint32_t unit, uint32_t b);  // erased (one more P/E cycle): back to the pool
    // Physical page of a DBMT entry's data block at the virtual page's position.
    flash::FlashAddress data_page(const DbmtEntry& e, const flash::FlashAddress& virtual_addr) const {
        return virtual_addr.with_block(e.pdbn);
    }
};

}  // namespace zng::ftl
