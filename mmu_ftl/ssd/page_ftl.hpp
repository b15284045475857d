// A page-mapping FTL as SSD firmware runs it (HybridGPU's SSD controller, Hetero's NVMe
// SSD): every logical page maps to any physical page; writes go to the open block of
// the next unit (plane) in turn; over-provisioned space keeps free blocks; when a unit's
// free blocks drop below a threshold, greedy GC relocates the valid pages of the block
// with the fewest valid pages and erases it. This class is the firmware's bookkeeping
// only: it returns the flash operations to perform, and the SSD model times them.
//
// Pre-loaded data (a page read before it was ever written) is placed on first read in
// "pre-load" blocks, never-used blocks that the flash model treats as programmed; new
// writes go to erased blocks. Memory grows with the blocks and pages touched.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "mmu_ftl/common/sparse_table.hpp"
#include "mmu_ftl/wear/free_block_pool.hpp"

namespace zng::ftl {

class PageFtl {
public:
    struct Location {
        uint32_t unit = 0, block = 0, page = 0;
    };
    struct Op {
        enum Kind : uint8_t {
            Read,          // relocation read
            Program,       // relocation program
            Erase,         // victim erase
            DeclareErased  // untimed: a never-used spare block is erased (factory state)
        } kind;
        Location at;
    };

    // Host bytes the FTL allocates per unit when built (its block list and heads; the
    // blocks themselves and the page map grow as they are used).
    static constexpr size_t kUpfrontBytesPerUnit = sizeof(std::vector<int>) + 2 * sizeof(uint32_t);

    PageFtl(uint32_t units, uint32_t blocks_per_unit, uint32_t pages_per_block, double overprovisioning,
            uint32_t gc_threshold, std::unique_ptr<FreeBlockPool> pool);

    uint64_t logical_pages() const { return logical_pages_; }
    uint32_t units() const { return units_; }
    // Where a read of `lpn` goes (placing pre-loaded data on first read; any untimed
    // DeclareErased op is appended to `ops`).
    Location read_location(uint64_t lpn, std::vector<Op>& ops);
    // A new physical page for a write of `lpn` (the old copy becomes invalid). Appends
    // to `ops`, in the order they must be performed: the erase declaration of a newly
    // opened spare block if any, the Program of this page, then any GC work it triggered.
    Location write_location(uint64_t lpn, std::vector<Op>& ops);

    uint64_t gc_runs() const { return gc_runs_; }
    uint64_t gc_pages_moved() const { return gc_moved_; }
    uint64_t erases() const { return erases_; }
    uint64_t free_blocks(uint32_t unit) const { return pool_->free(unit); }

private:
    static constexpr uint64_t kUnmapped = UINT64_MAX;
    static constexpr uint32_t kNone = UINT32_MAX;
    enum class Use : uint8_t { Free, Open, Full, Preload };
    struct Block {
        Use use = Use::Free;
        uint32_t written = 0;  // pages allocated so far (in order)
        uint32_t valid = 0;
        uint32_t erases = 0;
        std::vector<uint64_t> lpns;  // page -> logical page (kUnmapped when invalid)
    };
    struct Unit {
        std::vector<Block> blocks;  // grows as blocks are first used
        uint32_t open = kNone;      // erased block taking writes
        uint32_t preload = kNone;   // block receiving pre-loaded data
    };
    static_assert(sizeof(Unit) == kUpfrontBytesPerUnit);

    uint64_t encode(const Location& l) const {
        return (uint64_t{l.unit} * blocks_per_unit_ + l.block) * pages_per_block_ + l.page;
    }
    Location decode(uint64_t p) const;
    Block& block(uint32_t unit, uint32_t b);
    uint32_t take_block(uint32_t unit, bool erased, std::vector<Op>& ops);
    Location append(uint32_t unit, uint32_t& cursor, bool erased, uint64_t lpn, std::vector<Op>& ops);
    void invalidate(uint64_t lpn);
    void collect(uint32_t unit, std::vector<Op>& ops);

    uint32_t units_, blocks_per_unit_, pages_per_block_;
    uint64_t logical_pages_;
    uint32_t gc_threshold_;
    std::unique_ptr<FreeBlockPool> pool_;
    std::vector<Unit> unit_;
    SparseTable<uint64_t> l2p_;
    uint32_t next_write_unit_ = 0;
    uint64_t gc_runs_ = 0, gc_moved_ = 0, erases_ = 0;
};

}  // namespace zng::ftl
