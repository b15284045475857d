#include "mmu_ftl/ssd/page_ftl.hpp"

#include <cmath>
#include <string>

namespace zng::ftl {

PageFtl::PageFtl(uint32_t units, uint32_t blocks_per_unit, uint32_t pages_per_block, double op,
                 uint32_t gc_threshold, std::unique_ptr<FreeBlockPool> pool)
    : units_(units), blocks_per_unit_(blocks_per_unit), pages_per_block_(pages_per_block),
      logical_pages_(static_cast<uint64_t>(std::floor(static_cast<double>(units) * blocks_per_unit * (1.0 - op))) *
                     pages_per_block),
      gc_threshold_(gc_threshold), pool_(std::move(pool)), unit_(units),
      l2p_(logical_pages_ ? logical_pages_ : 1, kUnmapped) {
    // GC needs the open block plus one to relocate into, and must trigger before the
    // last free block is gone.
    if (gc_threshold < 2 || gc_threshold >= blocks_per_unit)
        throw SimError("page FTL: the GC threshold must be at least 2 and below the blocks per unit");
    if (logical_pages_ == 0) throw SimError("page FTL: over-provisioning leaves no logical page");
}

PageFtl::Location PageFtl::decode(uint64_t p) const {
    Location l;
    l.page = static_cast<uint32_t>(p % pages_per_block_);
    p /= pages_per_block_;
    l.block = static_cast<uint32_t>(p % blocks_per_unit_);
    l.unit = static_cast<uint32_t>(p / blocks_per_unit_);
    return l;
}

PageFtl::Block& PageFtl::block(uint32_t unit, uint32_t b) {
    auto& v = unit_[unit].blocks;
    if (v.size() <= b) v.resize(b + 1u);
    return v[b];
}

uint32_t PageFtl::take_block(uint32_t unit, bool erased, std::vector<Op>& ops) {
    FreeBlockPool::Taken t = pool_->take(unit);
    Block& b = block(unit, t.block);
    b.use = erased ? Use::Open : Use::Preload;
    b.written = b.valid = 0;
    b.lpns.assign(pages_per_block_, kUnmapped);
    if (erased && t.fresh) ops.push_back({Op::DeclareErased, {unit, t.block, 0}});
    return t.block;
}

PageFtl::Location PageFtl::append(uint32_t unit, uint32_t& cursor, bool erased, uint64_t lpn, std::vector<Op>& ops) {
    if (cursor == kNone) cursor = take_block(unit, erased, ops);
    Block& b = block(unit, cursor);
    Location l{unit, cursor, b.written++};
    b.lpns[l.page] = lpn;
    ++b.valid;
    l2p_.set(lpn, encode(l));
    if (b.written == pages_per_block_) {
        b.use = Use::Full;
        cursor = kNone;
    }
    return l;
}

void PageFtl::invalidate(uint64_t lpn) {
    uint64_t old = l2p_.get(lpn);
    if (old == kUnmapped) return;
    Location o = decode(old);
    Block& b = block(o.unit, o.block);
    b.lpns[o.page] = kUnmapped;
    --b.valid;
}

PageFtl::Location PageFtl::read_location(uint64_t lpn, std::vector<Op>& ops) {
    if (lpn >= logical_pages_)
        throw SimError("page FTL: logical page " + std::to_string(lpn) + " beyond the " +
                       std::to_string(logical_pages_) + " logical pages of the SSD");
    uint64_t p = l2p_.get(lpn);
    if (p != kUnmapped) return decode(p);
    // Pre-loaded data, striped over units like sequentially written data would be.
    uint32_t unit = static_cast<uint32_t>(lpn % units_);
    return append(unit, unit_[unit].preload, false, lpn, ops);
}

PageFtl::Location PageFtl::write_location(uint64_t lpn, std::vector<Op>& ops) {
    if (lpn >= logical_pages_)
        throw SimError("page FTL: logical page " + std::to_string(lpn) + " beyond the " +
                       std::to_string(logical_pages_) + " logical pages of the SSD");
    invalidate(lpn);
    uint32_t unit = next_write_unit_;
    next_write_unit_ = (next_write_unit_ + 1) % units_;
    Location l = append(unit, unit_[unit].open, true, lpn, ops);
    ops.push_back({Op::Program, l});
    if (pool_->free(unit) < gc_threshold_) collect(unit, ops);
    return l;
}

void PageFtl::collect(uint32_t unit, std::vector<Op>& ops) {
    Unit& u = unit_[unit];
    while (pool_->free(unit) < gc_threshold_) {
        // Greedy: the full block with the fewest valid pages (lowest number on ties).
        uint32_t victim = kNone, best = pages_per_block_;
        for (uint32_t b = 0; b < u.blocks.size(); ++b) {
            const Block& blk = u.blocks[b];
            if (blk.use == Use::Full && blk.valid < best) {
                best = blk.valid;
                victim = b;
            }
        }
        if (victim == kNone) return;  // every full block is all valid: nothing to gain
        ++gc_runs_;
        for (uint32_t pg = 0; pg < pages_per_block_; ++pg) {
            uint64_t lpn = u.blocks[victim].lpns[pg];
            if (lpn == kUnmapped) continue;
            ops.push_back({Op::Read, {unit, victim, pg}});
            u.blocks[victim].lpns[pg] = kUnmapped;
            --u.blocks[victim].valid;
            Location to = append(unit, u.open, true, lpn, ops);
            ops.push_back({Op::Program, to});
            ++gc_moved_;
        }
        Block& v = u.blocks[victim];
        ops.push_back({Op::Erase, {unit, victim, 0}});
        ++v.erases;
        ++erases_;
        v.use = Use::Free;
        v.written = v.valid = 0;
        v.lpns.clear();
        v.lpns.shrink_to_fit();
        pool_->give_back(unit, victim, v.erases);
    }
}

}  // namespace zng::ftl
