#include "mmu_ftl/zng/gc_helper_thread.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "sim/config/units.hpp"

namespace zng::ftl {

GcHelperThread::GcHelperThread(Simulator& sim, ZngFtlTables& tables, StatGroup stats, uint32_t apps,
                               DataSetQuery in_data_set)
    : sim_(sim), tables_(tables), stats_(stats), in_data_set_(std::move(in_data_set)),
      merges_(stats_.counter("merges", "log groups merged by the GPU helper thread", "merges")),
      pages_moved_(stats_.counter("pages_moved", "valid pages programmed into new data blocks by merges", "pages")),
      pages_read_(stats_.counter("pages_read", "pages read by merges", "pages")),
      erases_(stats_.counter("erases", "flash blocks erased by merges (one per plane)", "blocks")),
      held_(stats_.counter("held_translations",
                          "translations held: their data block was merging or a merge of their application ran", "translations")),
      merge_time_(stats_.average("merge_time", "time from a merge request to its end", "ns")) {
    register_wear_stats(stats_);
    // Registered before the run, so that a platform's statistics can be listed without running it.
    for (uint32_t a = 0; a < apps; ++a) app_blocked(static_cast<uint16_t>(a));
}

void GcHelperThread::register_wear_stats(StatGroup& g) {
    auto* t = &tables_;
    g.formula("pe.max", "largest erase count of a physical data-block-sized block", "erases", [t] {
        uint32_t m = 0;
        t->for_each_erase_count([&](uint32_t e, uint64_t) { m = std::max(m, e); });
        return static_cast<double>(m);
    });
    g.formula("pe.min", "smallest erase count of a physical block", "erases", [t] {
        uint32_t m = UINT32_MAX;
        t->for_each_erase_count([&](uint32_t e, uint64_t) { m = std::min(m, e); });
        return t->blocks.size() == 0 ? 0.0 : static_cast<double>(m);
    });
    g.formula("pe.mean", "mean erase count of the physical blocks", "erases", [t] {
        double s = 0;
        t->for_each_erase_count([&](uint32_t e, uint64_t n) { s += static_cast<double>(e) * static_cast<double>(n); });
        return t->blocks.size() == 0 ? 0.0 : s / static_cast<double>(t->blocks.size());
    });
    // P/E distribution: number of blocks whose erase count lies in [lo, hi], log2 buckets.
    for (uint32_t k = 0; k <= 17; ++k) {
        uint32_t lo = k == 0 ? 0 : (1u << (k - 1)), hi = k == 0 ? 0 : (1u << k) - 1;
        std::string name = k <= 1 ? "pe_distribution." + std::to_string(lo)
                                  : "pe_distribution." + std::to_string(lo) + "_" + std::to_string(hi);
        g.formula(name, "physical blocks with an erase count in this range", "blocks", [t, lo, hi] {
            uint64_t n = 0;
            t->for_each_erase_count([&](uint32_t e, uint64_t count) { n += (e >= lo && e <= hi) ? count : 0; });
            return static_cast<double>(n);
        });
    }
}

Counter& GcHelperThread::app_blocked(uint16_t app) {
    if (blocked_by_app_.size() <= app) blocked_by_app_.resize(app + 1u, nullptr);
    if (!blocked_by_app_[app])
        blocked_by_app_[app] = &stats_.counter("app" + std::to_string(app) + ".blocked_time",
                                               "time from the request to the end of this application's merges "
                                               "(its requests held)",
                                               "ps");
    return *blocked_by_app_[app];
}

Tick GcHelperThread::blocked_time(uint16_t app) const {
    return app < blocked_by_app_.size() && blocked_by_app_[app] ? blocked_by_app_[app]->get() : 0;
}

void GcHelperThread::request_merge(uint32_t group, std::function<void()> done) {
    completions_.push_back({group, std::move(done)});
    LogGroup& g = tables_.lbmt.group(group);
    if (g.merging) return;  // already queued or running
    g.merging = true;       // from now on the owner's translations of these blocks wait
    queue_.push_back({group, sim_.now()});
    // Shoot down the TLB entries of every page of the group's data blocks, so that no
    // translation of them survives the request.
    if (shootdown_ && *shootdown_) {
        const DataBlockLayout& l = tables_.layout;
        for (uint32_t i = 0; i < g.members; ++i) {
            const DbmtEntry& e = tables_.dbmt.at(tables_.lbmt.member(group, i));
            for (uint32_t p = 0; p < l.span(); ++p)
                for (uint32_t pg = 0; pg < l.geometry().pages_per_block(); ++pg)
                    (*shootdown_)(g.app, l.vpn_of(g.app, e.vbn, p, pg));
        }
    }
    start_next();
}

void GcHelperThread::after_merge(uint32_t group, std::function<void()> done) {
    if (!merging(group)) throw SimError("ZnG GC: a write waits for a merge of a group that is not merging");
    completions_.push_back({group, std::move(done)});
}

void GcHelperThread::hold(uint16_t app, uint64_t vpn, uint32_t group, AddressTranslator::FaultDone done) {
    ++held_;
    parked_.push_back({app, vpn, group, std::move(done)});
}

void GcHelperThread::note_translation(uint16_t app, uint64_t vpn) {
    const uint64_t key = (uint64_t{app} << 48) | vpn;
    uint64_t& chunk = translated_set_.get_or_insert(key >> 6);
    const uint64_t bit = uint64_t{1} << (key & 63);
    if (chunk & bit) return;
    chunk |= bit;
    if (translated_.size() <= app) translated_.resize(app + 1u);
    translated_[app].push_back(vpn);
}

void GcHelperThread::shoot_down_app(uint16_t app) {
    if (app >= translated_.size()) return;
    for (uint64_t vpn : translated_[app]) {
        if (shootdown_ && *shootdown_) (*shootdown_)(app, vpn);
        const uint64_t key = (uint64_t{app} << 48) | vpn;
        uint64_t* chunk = translated_set_.get(key >> 6);
        *chunk &= ~(uint64_t{1} << (key & 63));
        if (*chunk == 0) translated_set_.erase(key >> 6);
    }
    translated_[app].clear();  // keeps its capacity for the next round
}

void GcHelperThread::start_next() {
    if (active_ != kIdle || queue_.empty()) return;
    if (!tables_.flash)
        throw SimError("ZnG FTL: a log block is full but no flash back end is attached to run the merge");
    Pending p = queue_.front();
    queue_.erase(queue_.begin());
    active_ = p.group;
    active_since_ = p.since;
    const LogGroup& g = tables_.lbmt.group(p.group);
    active_app_ = g.app;
    members_.clear();  // no plane of this merge is moved yet (forward() may be asked during the flush)
    chains_.clear();
    if (flush_) flush_(g.app);
    shoot_down_app(g.app);  // from now on every translation of the owner is held
    for (uint32_t i = 0; i < g.members; ++i) {
        uint32_t lbn = tables_.lbmt.member(p.group, i);
        const DbmtEntry& e = tables_.dbmt.at(lbn);
        // Destinations are chosen now by the wear-levelling policy (all planes of a data
        // block share one block number, so the choice is made once per data block).
        members_.push_back({lbn, e.pdbn, tables_.take_erased_block(g.unit), e.vbn, e.app});
        // The new block is the member's from now on: once a plane's pages are copied, a
        // register holding a page of the old block follows it there, and its program must
        // find the group (and wait for the merge's end) as it would for the old block.
        PhysicalBlock& nb = tables_.block(g.unit, members_.back().new_block);
        nb.role = PhysicalBlock::Data;
        nb.owner = lbn;
    }
    old_log_ = g.plbn;
    const uint32_t span = tables_.layout.span();
    chains_.assign(span, Chain{});
    chains_running_ = span;
    copies_running_ = span;
    for (uint32_t plane = 0; plane < span; ++plane) {
        next_page(chains_[plane], plane);
        issue(plane);
    }
}

bool GcHelperThread::page_valid(uint32_t m, uint32_t plane, uint32_t page) const {
    const DataBlockLayout& l = tables_.layout;
    const LogGroup& g = tables_.lbmt.group(active_);
    const Member& mem = members_[m];
    const flash::FlashAddress data = l.block_address(g.unit, plane, mem.old_block).with_page(page);
    if (!(tables_.flash->newest_copy(data) == data)) return true;  // rewritten: the log holds its newest copy
    if (!tables_.flash->page_programmed(data)) return false;
    if (!in_data_set_) return true;
    const uint64_t bytes = l.geometry().page_size(), first = l.vpn_of(mem.app, mem.vbn, plane, page) * bytes;
    return in_data_set_(mem.app, first, first + (bytes - 1));
}

void GcHelperThread::next_page(Chain& c, uint32_t plane) {
    const uint32_t pages = tables_.layout.geometry().pages_per_block();
    const uint32_t n = static_cast<uint32_t>(members_.size());
    for (; c.member < n; ++c.member, c.page = 0)
        for (; c.page < pages; ++c.page)
            if (page_valid(c.member, plane, c.page)) {
                c.step = Step::Read;
                return;
            }
    c.member = 0;
    c.step = Step::EraseData;  // a merged group has at least one member
    move_plane(plane);
}

void GcHelperThread::move_plane(uint32_t plane) {
    const LogGroup& g = tables_.lbmt.group(active_);
    const DataBlockLayout& l = tables_.layout;
    for (const Member& m : members_)
        tables_.flash->block_moved(l.block_address(g.unit, plane, m.old_block),
                                   l.block_address(g.unit, plane, m.new_block));
    chains_[plane].moved = true;
    if (--copies_running_ == 0) switch_over();
}

bool GcHelperThread::forward(flash::FlashAddress& page) const {
    if (active_ == kIdle) return false;
    const DataBlockLayout& l = tables_.layout;
    if (chains_.empty() || l.unit_of(page) != tables_.lbmt.group(active_).unit ||
        !chains_[l.plane_in_unit(page)].moved)
        return false;
    for (const Member& m : members_)
        if (m.old_block == page.block) {
            page.block = m.new_block;
            return true;
        }
    return false;
}

void GcHelperThread::issue(uint32_t plane) {
    const LogGroup& g = tables_.lbmt.group(active_);
    const DataBlockLayout& l = tables_.layout;
    Chain& c = chains_[plane];
    flash::FlashOp op;
    op.app = g.app;
    op.done = [this, plane] { on_op_done(plane); };
    switch (c.step) {
        case Step::Read:
            // Each page is read once, from its newest copy: the log page the plane's row
            // decoder maps it to, else the data block's own page.
            op.kind = flash::FlashOp::Read;
            op.addr = tables_.flash->newest_copy(
                l.block_address(g.unit, plane, members_[c.member].old_block).with_page(c.page));
            ++pages_read_;
            break;
        case Step::Program:
            op.kind = flash::FlashOp::Program;
            op.addr = l.block_address(g.unit, plane, members_[c.member].new_block).with_page(c.page);
            ++pages_moved_;
            break;
        case Step::EraseData:
            op.kind = flash::FlashOp::Erase;
            op.addr = l.block_address(g.unit, plane, members_[c.member].old_block);
            ++erases_;
            break;
        case Step::EraseLog:
            op.kind = flash::FlashOp::Erase;
            op.addr = l.block_address(g.unit, plane, old_log_);
            ++erases_;
            break;
        case Step::Done: return;
    }
    tables_.flash->submit(std::move(op));
}

void GcHelperThread::on_op_done(uint32_t plane) {
    Chain& c = chains_[plane];
    const uint32_t n = static_cast<uint32_t>(members_.size());
    switch (c.step) {
        case Step::Read: c.step = Step::Program; break;
        case Step::Program:
            ++c.page;
            next_page(c, plane);
            break;
        case Step::EraseData:
            if (++c.member == n) c.step = old_log_ != UINT32_MAX ? Step::EraseLog : Step::Done;
            break;
        case Step::EraseLog: c.step = Step::Done; break;
        case Step::Done: throw SimError("ZnG GC: completion for a finished plane");
    }
    if (c.step != Step::Done) {
        issue(plane);
    } else if (--chains_running_ == 0) {
        retire();
    }
}

void GcHelperThread::switch_over() {
    const uint32_t group = active_;
    LogGroup& g = tables_.lbmt.group(group);
    for (const Member& m : members_) {  // each plane's blocks were moved when its copies ended
        DbmtEntry& e = tables_.dbmt.at(m.lbn);
        e.pdbn = m.new_block;
        e.plbn = DataBlockMappingTable::kNoBlock;
        tables_.block(g.unit, m.new_block).held_data = true;
        // Requests still naming the old block are forwarded; it returns to the pool once erased.
        tables_.retire_block(g.unit, m.old_block);
        tables_.block(g.unit, m.old_block).moved_to = m.lbn;
    }
    if (g.plbn != UINT32_MAX) {
        tables_.retire_block(g.unit, g.plbn);
        g.plbn = UINT32_MAX;  // the next rewrite opens a fresh log block
    }
    g.merging = false;
    switched_ = true;
    ++merges_;
    const Tick held_for = sim_.now() - active_since_;
    merge_time_.sample(static_cast<double>(held_for) / kNanosecond);
    app_blocked(g.app) += held_for;

    // Writes parked by the flash model, then the owner's held translations, resume.
    std::vector<Completion> ready;
    auto split = std::stable_partition(completions_.begin(), completions_.end(),
                                       [group](const Completion& c) { return c.group != group; });
    std::move(split, completions_.end(), std::back_inserter(ready));
    completions_.erase(split, completions_.end());
    std::vector<Parked> wake;
    auto psplit = std::stable_partition(parked_.begin(), parked_.end(),
                                        [group](const Parked& p) { return p.group != group; });
    std::move(psplit, parked_.end(), std::back_inserter(wake));
    parked_.erase(psplit, parked_.end());

    for (auto& c : ready)
        if (c.done) c.done();
    for (auto& p : wake) release_(p.app, p.vpn, p.done);
}

void GcHelperThread::retire() {
    const uint32_t unit = tables_.lbmt.group(active_).unit;
    for (const Member& m : members_) tables_.release_block(unit, m.old_block);
    if (old_log_ != UINT32_MAX) tables_.release_block(unit, old_log_);
    active_ = kIdle;
    switched_ = false;
    old_log_ = UINT32_MAX;
    start_next();
}

std::string GcHelperThread::state() const {
    std::string out = fmt::format("{} garbage-collection merges ended (translation.gc.merges)", merges_.get());
    if (active_ != kIdle)
        out += fmt::format(", the merge of log group {} (application {}) requested at {} is {}", active_, active_app_,
                           units::format_time(active_since_),
                           switched_ ? "erasing its old blocks"
                                     : fmt::format("copying ({} of {} planes still copying; its owner's requests held)",
                                                   copies_running_, chains_.size()));
    if (!queue_.empty()) out += fmt::format(", {} more queued behind it (one helper thread)", queue_.size());
    return out;
}

}  // namespace zng::ftl
