#include "flash_model/array/simple_log_block_allocator.hpp"

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace zng::flash {

SimpleLogBlockAllocator::SimpleLogBlockAllocator(const FlashGeometry& geometry, uint32_t log_blocks_per_plane)
    : geo_(geometry), first_log_(geometry.blocks_per_plane() - log_blocks_per_plane) {
    if (log_blocks_per_plane == 0 || log_blocks_per_plane >= geometry.blocks_per_plane())
        throw ConfigError(fmt::format("log_blocks_per_plane must be between 1 and blocks_per_plane - 1 ({}), not {}",
                                      geometry.blocks_per_plane() - 1, log_blocks_per_plane));
}

void SimpleLogBlockAllocator::attach(FlashOpExecutor& flash) {
    if (!(flash.geometry() == geo_))
        throw SimError("built-in log-block allocator: attached to a flash back end of another geometry");
    flash_ = &flash;
}

FlashOpExecutor& SimpleLogBlockAllocator::flash() const {
    if (!flash_) throw SimError("built-in log-block allocator: used before a flash back end attached it");
    return *flash_;
}

SimpleLogBlockAllocator::PlanePool& SimpleLogBlockAllocator::pool(const FlashAddress& a) {
    auto [it, fresh] = pools_.try_emplace(geo_.plane_index(a));
    if (fresh) it->second.never_used = geo_.blocks_per_plane() - first_log_;
    return it->second;
}

uint32_t SimpleLogBlockAllocator::log_block_for(const FlashAddress& data_page) {
    const FlashGeometry& g = geo_;
    if (is_log_block(data_page.block))
        throw SimError(fmt::format("write to {}: block {} is reserved as a log block by the built-in allocator "
                                   "(blocks {}..{} of every plane)",
                                   data_page.to_string(), data_page.block, first_log_, g.blocks_per_plane() - 1));
    uint64_t key = g.block_index(data_page);
    if (auto it = log_of_.find(key); it != log_of_.end()) return it->second;
    PlanePool& p = pool(data_page);
    uint32_t log;
    if (!p.free.empty()) {
        log = p.free.back();
        p.free.pop_back();
    } else if (p.never_used > 0) {
        log = g.blocks_per_plane() - p.never_used--;
        flash().set_block_erased(data_page.with_block(log));  // spare blocks start erased
    } else {
        throw SimError(fmt::format("built-in log-block allocator: the plane of {} has no free log block ({} "
                                   "reserved, all serving other data blocks); configure an FTL or raise "
                                   "log_blocks_per_plane",
                                   data_page.to_string(), g.blocks_per_plane() - first_log_));
    }
    log_of_[key] = log;
    owner_[g.block_index(data_page.with_block(log))] = key;
    return log;
}

void SimpleLogBlockAllocator::log_block_full(const FlashAddress& log_block, std::function<void()> done) {
    const FlashGeometry& g = geo_;
    auto o = owner_.find(g.block_index(log_block));
    if (o == owner_.end())
        throw SimError(fmt::format("built-in log-block allocator: {} is not one of its log blocks",
                                   log_block.to_string()));
    uint32_t data_block = static_cast<uint32_t>(o->second % g.blocks_per_plane());
    uint32_t id = next_merge_++;
    Merge& m = merges_running_[id];
    m.data = log_block.with_block(data_block).with_page(0);
    m.log = log_block.with_page(0);
    m.done = std::move(done);
    ++merges_;
    // Read phase: the newest copy of every page (the row decoder's LPMT knows which).
    m.pending = g.pages_per_block();
    for (uint32_t pg = 0; pg < g.pages_per_block(); ++pg)
        flash().submit({FlashOp::Read, flash().newest_copy(m.data.with_page(pg)), 0, [this, id] {
                            if (--merges_running_.at(id).pending == 0) merge_phase_erase_data(id);
                        }});
}

void SimpleLogBlockAllocator::merge_phase_erase_data(uint32_t id) {
    flash().submit({FlashOp::Erase, merges_running_.at(id).data, 0, [this, id] { merge_phase_program(id); }});
}

void SimpleLogBlockAllocator::merge_phase_program(uint32_t id) {
    Merge& m = merges_running_.at(id);
    uint32_t pages = geo_.pages_per_block();
    m.pending = pages;
    // Submitted together: the controller and the plane keep firmware operations in
    // order, so the pages are programmed in order.
    for (uint32_t pg = 0; pg < pages; ++pg)
        flash().submit({FlashOp::Program, m.data.with_page(pg), 0, [this, id] {
                        if (--merges_running_.at(id).pending == 0) merge_phase_erase_log(id);
                    }});
}

void SimpleLogBlockAllocator::merge_phase_erase_log(uint32_t id) {
    flash().submit({FlashOp::Erase, merges_running_.at(id).log, 0, [this, id] { merge_finish(id); }});
}

void SimpleLogBlockAllocator::merge_finish(uint32_t id) {
    const FlashGeometry& g = geo_;
    Merge m = std::move(merges_running_.at(id));
    merges_running_.erase(id);
    log_of_.erase(g.block_index(m.data));
    owner_.erase(g.block_index(m.log));
    pool(m.log).free.push_back(m.log.block);
    m.done();
}

}  // namespace zng::flash
