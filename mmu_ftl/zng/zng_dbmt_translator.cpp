#include "mmu_ftl/zng/zng_dbmt_translator.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <stdexcept>

namespace zng::ftl {

namespace {

using namespace param_kind;
const auto kDataBlockSpan =
    Param<Choice>("data_block_span", "package",
                  "planes one data block spans (same block number in each): plane, die (its planes) or package "
                  "(all its planes; gives the paper's ~80 KB DBMT per TB)")
        .choices({"plane", "die", "package"});
// Paper IV-C: "SSD controller redirects the requests of different applications to
// access different flash planes, which can help reduce write amplification".
const auto kPlacement =
    Param<Choice>("placement", "app_planes",
                  "where co-running applications' pages go: shared (every application over all planes) or "
                  "app_planes (the planes of every die split evenly among the applications, so each still spans "
                  "every channel, package and die; one application keeps all planes)")
        .choices({"shared", "app_planes"});
const auto kLogGroupSize =
    Param<UInt32>("log_group_size", "8",
                  "data blocks sharing one physical log block (assumption: the paper leaves it open)")
        .range(1, 1024);
const auto kOverprovisioning =
    Param<Real>("overprovisioning", "0.12",
                "fraction of each unit's blocks kept out of the address space for log blocks and merge "
                "destinations (assumption)")
        .range(0.0, 0.95);
const auto kLogBlockPages =
    Param<UInt32>("log_block_pages", "0",
                  "pages of a plane's log block a log group may fill before the helper thread merges the group "
                  "(0: the whole block, merges only when it is full). An FTL fill threshold, not a flash limit: "
                  "below pages_per_block it makes merges happen at an unchanged geometry")
        .range(0, 65535);
const Param<Section> kWearLeveling{"wear_leveling", "", "free-block choice policy (type: least_erased | fifo)"};

struct Setup {
    DataBlockLayout layout;
    uint32_t user_blocks;
    uint32_t group_size;
    std::unique_ptr<FreeBlockPool> pool;
};

// `budget` is charged the layout's per-plane maps and the block table, which cover the
// whole array up front (run.memory_limit), before either is allocated.
Setup make_setup(const Params& p, const TranslatorContext& ctx, MemoryBudget& budget) {
    flash::FlashSpec spec = flash::load_flash_spec(ctx.root);
    const flash::FlashGeometry& g = spec.geometry;
    // "the MMU page table is the DBMT": a translation names a flash page, so the MMU's
    // page is the flash page, and the MMU needs pages of at least 4 KiB.
    if (g.page_size() < 4096)
        Params(ctx.root ? ctx.root->find("flash") : nullptr, flash::flash_section_schema(), "flash")
            .fail("page_size", fmt::format("{} B is below 4 KiB, the smallest page of the MMU whose page table "
                                           "ZnG's DBMT is (translation: zng_dbmt)",
                                           g.page_size()));
    std::string span_name = p[kDataBlockSpan];
    const DataBlockLayout::Span span = span_name == "plane" ? DataBlockLayout::Span::Plane
                                       : span_name == "die" ? DataBlockLayout::Span::Die
                                                            : DataBlockLayout::Span::Package;
    // With an unknown number of applications (a translator built outside a platform) the
    // planes cannot be split: every application then shares all of them.
    const uint32_t apps = p[kPlacement] == "app_planes" && ctx.apps > 1 ? ctx.apps : 1;
    std::optional<DataBlockLayout> layout;
    budget.reserve(g.planes(), 2 * sizeof(uint32_t), "ZnG FTL's plane-to-unit maps");
    try {
        layout.emplace(g, span, apps);
    } catch (const std::invalid_argument& e) {
        p.fail(kPlacement.key(), e.what());
    }
    budget.reserve(uint64_t{layout->units()} * layout->blocks_per_unit(), sizeof(PhysicalBlock),
                   "ZnG FTL's physical block table");
    const uint32_t blocks = g.blocks_per_plane();
    const uint32_t group = p[kLogGroupSize];
    const double op = p[kOverprovisioning];
    const uint32_t user = static_cast<uint32_t>(std::floor(blocks * (1.0 - op)));
    if (user == 0) p.fail(kOverprovisioning.key(), fmt::format("{} leaves no user block of the {} per unit", op, blocks));
    // Worst case: every user block written, so every group owns a log block, while one
    // merge holds a destination for each member of its group, and the merged group's old
    // log block awaits its erase after the group has opened a new one.
    const uint64_t needed = (user + group - 1) / group + group + 1;
    if (blocks - user < needed)
        p.fail(kOverprovisioning.key(),
               fmt::format("{} leaves {} spare blocks per unit ({} blocks, {} for data); log_group_size {} needs "
                           "ceil({}/{}) + {} + 1 = {} (a log block per group, the destinations of one merge and "
                           "the log block it erases)",
                           op, blocks - user, blocks, user, group, user, group, group, needed));
    auto pool = wear_leveling_slot().create(p[kWearLeveling], p.path() + "." + kWearLeveling.key(), "least_erased",
                                            layout->units(), blocks);
    return {*layout, user, group, std::move(pool)};
}

}  // namespace

const ComponentSchema& ZngDbmtTranslator::schema() {
    static const ComponentSchema s{
        "translation",
        "zng_dbmt",
        "ZnG's zero-overhead FTL: the MMU page table is the data-block mapping table (DBMT), so translation "
        "yields a flash physical page; log blocks from over-provisioned space are shared by groups of data "
        "blocks (LBMT) and merged by a GPU helper thread with wear-levelled free-block choice. Geometry comes "
        "from the `flash:` section.",
        {
            kDataBlockSpan, kPlacement, kLogGroupSize, kOverprovisioning, kLogBlockPages, kWearLeveling,
        },
        {}};
    return s;
}

ZngDbmtTranslator::ZngDbmtTranslator(Simulator& sim, const Params& p, const TranslatorContext& ctx)
    : stats_(sim.stats(), "translation"),
      tables_([&] {
          Setup s = make_setup(p, ctx, sim.memory_budget());
          return ZngFtlTables(s.layout, s.user_blocks, s.group_size, std::move(s.pool));
      }()),
      sizes_(compute_mapping_table_sizes(tables_.layout, tables_.user_blocks_per_unit, tables_.lbmt.group_size())),
      gc_(sim, tables_, stats_.sub("gc"), ctx.apps, ctx.in_data_set),
      translations_(stats_.counter("translations", "translations served from the DBMT", "translations")),
      first_touches_(stats_.counter("first_touches", "data blocks allocated on first touch", "blocks")),
      log_blocks_opened_(stats_.counter("log_blocks_opened", "log blocks taken from over-provisioned space", "blocks")),
      late_writebacks_(stats_.counter("late_writebacks",
                                      "evicted pages of data blocks a merge had retired (dropped; L2 lines cached "
                                      "under the old address)", "pages")),
      writebacks_held_(stats_.counter("writebacks_held",
                                      "dirty pages whose program waited for their log group's merge (the flush "
                                      "before a merge and evictions during it)", "pages")) {
    const uint32_t budget = p[kLogBlockPages];
    const uint32_t block_pages = tables_.layout.geometry().pages_per_block();
    if (budget > block_pages)
        p.fail(kLogBlockPages.key(),
               fmt::format("{} exceeds the {} pages of a flash block (flash.pages_per_block)", budget, block_pages));
    log_budget_ = budget == block_pages ? 0 : budget;  // the whole block: the flash model reports it full
    gc_.set_shootdown(&shootdown_);
    gc_.set_release([this](uint16_t app, uint64_t vpn, FaultDone& done) {
        uint64_t ppn = 0;
        if (translate(app, vpn, ppn))
            done(ppn);
        else
            resolve_fault(app, vpn, std::move(done));
    });
    const MappingTableSizes& z = sizes_;
    auto constant = [this](const std::string& n, const std::string& d, double v) {
        stats_.formula(n, d, "bytes", [v] { return v; });
    };
    constant("dbmt.bytes", "DBMT size for the whole user capacity (two-level table)", static_cast<double>(z.dbmt_bytes));
    constant("dbmt.bytes_per_tb", "DBMT size per 10^12 bytes of user data", static_cast<double>(z.dbmt_bytes_per_tb));
    constant("dbmt.entry_bytes", "bytes of one DBMT entry", z.dbmt_entry_bytes);
    constant("lbmt.bytes", "LBMT size for the whole user capacity", static_cast<double>(z.lbmt_bytes));
    auto* t = &tables_;
    uint32_t eb = z.dbmt_entry_bytes, lb = z.lbmt_entry_bytes;
    stats_.formula("dbmt.touched_bytes", "DBMT entries in use x entry size", "bytes",
                   [t, eb] { return static_cast<double>(t->dbmt.size() * eb); });
    stats_.formula("lbmt.touched_bytes", "LBMT entries in use x entry size", "bytes",
                   [t, lb] { return static_cast<double>(t->lbmt.groups() * lb); });
}

void ZngDbmtTranslator::attach(flash::FlashOpExecutor& exec) {
    if (!(exec.geometry() == tables_.layout.geometry()))
        throw SimError("zng_dbmt: the flash back end's geometry differs from the `flash:` section it was built from");
    tables_.flash = &exec;
}

bool ZngDbmtTranslator::translate(uint16_t app, uint64_t vpn, uint64_t& ppn) {
    const DataBlockLayout::Position pos = tables_.layout.locate(app, vpn);
    uint32_t lbn = tables_.dbmt.find(app, pos.vbn);
    if (lbn == DataBlockMappingTable::kNoLbn) {
        DbmtEntry e;
        e.vbn = pos.vbn;
        e.app = app;
        e.unit = pos.unit;
        e.pdbn = tables_.take_data_block(pos.unit);
        e.plbn = DataBlockMappingTable::kNoBlock;
        lbn = tables_.dbmt.add(e);
        DbmtEntry& added = tables_.dbmt.at(lbn);
        added.group = tables_.lbmt.join(app, pos.unit, lbn);
        PhysicalBlock& pb = tables_.block(pos.unit, added.pdbn);
        pb.role = PhysicalBlock::Data;
        pb.owner = lbn;
        pb.held_data = true;
        ++first_touches_;
    }
    const DbmtEntry& e = tables_.dbmt.at(lbn);
    // Held until the helper thread's merge ends: the group's blocks from the merge
    // request on, every block of the owner while the merge runs.
    if (gc_.merging(e.group) || gc_.app_held(app)) return false;
    ++translations_;
    gc_.note_translation(app, vpn);
    const flash::FlashGeometry& g = tables_.layout.geometry();
    ppn = g.encode(pos.addr.with_block(e.pdbn)) / g.page_size();
    return true;
}

void ZngDbmtTranslator::resolve_fault(uint16_t app, uint64_t vpn, FaultDone done) {
    const DataBlockLayout::Position pos = tables_.layout.locate(app, vpn);
    uint32_t lbn = tables_.dbmt.find(app, pos.vbn);
    uint64_t ppn = 0;
    if (lbn != DataBlockMappingTable::kNoLbn && gc_.merging(tables_.dbmt.at(lbn).group)) {
        gc_.hold(app, vpn, tables_.dbmt.at(lbn).group, std::move(done));
        return;
    }
    if (gc_.app_held(app)) {  // another block of the application whose merge runs
        gc_.hold(app, vpn, gc_.active_group(), std::move(done));
        return;
    }
    // Not held (the merge ended between the walk and this call): the mapping is usable.
    if (!translate(app, vpn, ppn)) throw SimError("zng_dbmt: translation failed for a page that is not held");
    done(ppn);
}

uint32_t ZngDbmtTranslator::group_of(const flash::FlashAddress& a, PhysicalBlock::Role role) const {
    const DataBlockLayout& l = tables_.layout;
    l.geometry().check(a);
    const PhysicalBlock& pb = tables_.block(l.unit_of(a), a.block);
    const bool data = role == PhysicalBlock::Data;
    if (pb.role != role)
        throw SimError(fmt::format("zng_dbmt: {} at {}, which is not a {} block of the FTL",
                                   data ? "log block requested for a write" : "log-block-full report", a.to_string(),
                                   data ? "data" : "log"));
    return data ? tables_.dbmt.at(pb.owner).group : pb.owner;
}

uint32_t ZngDbmtTranslator::log_block_for(const flash::FlashAddress& data_page) {
    const DataBlockLayout& l = tables_.layout;
    l.geometry().check(data_page);
    const PhysicalBlock& pb = tables_.block(l.unit_of(data_page), data_page.block);
    if (pb.role != PhysicalBlock::Data && pb.held_data) {
        // An L2 line cached under the address of a block a merge has since retired
        // (dirtied after the owner's flush, or never flushed): its data block is gone.
        ++late_writebacks_;
        return flash::LogBlockMap::kRetiredBlock;
    }
    const uint32_t group = group_of(data_page, PhysicalBlock::Data);
    if (log_budget_) ++log_pages_used(group, l.plane_in_unit(data_page));
    LogGroup& g = tables_.lbmt.group(group);
    if (g.plbn == UINT32_MAX) {
        g.plbn = tables_.take_erased_block(g.unit);
        PhysicalBlock& pb = tables_.block(g.unit, g.plbn);
        pb.role = PhysicalBlock::Log;
        pb.owner = group;
        for (uint32_t i = 0; i < g.members; ++i) tables_.dbmt.at(tables_.lbmt.member(group, i)).plbn = g.plbn;
        ++log_blocks_opened_;
    }
    return g.plbn;
}

bool ZngDbmtTranslator::forward(flash::FlashAddress& page) {
    const DataBlockLayout& l = tables_.layout;
    l.geometry().check(page);
    const PhysicalBlock& pb = tables_.block(l.unit_of(page), page.block);
    if (pb.role != PhysicalBlock::Free || pb.moved_to == UINT32_MAX) return gc_.forward(page);
    page.block = tables_.dbmt.at(pb.moved_to).pdbn;
    return true;
}

bool ZngDbmtTranslator::wait_for_merge(const flash::FlashAddress& data_page, std::function<void()> resume) {
    const DataBlockLayout& l = tables_.layout;
    l.geometry().check(data_page);
    const PhysicalBlock& pb = tables_.block(l.unit_of(data_page), data_page.block);
    if (pb.role != PhysicalBlock::Data) return false;  // retired blocks are answered by log_block_for()
    const uint32_t group = tables_.dbmt.at(pb.owner).group;
    if (!gc_.merging(group)) {
        if (!log_budget_ || log_pages_used(group, l.plane_in_unit(data_page)) < log_budget_) return false;
        merge_group(group, {});  // the plane's log block reached the fill threshold
    }
    ++writebacks_held_;
    gc_.after_merge(group, std::move(resume));
    return true;
}

void ZngDbmtTranslator::log_page_taken(const flash::FlashAddress& data_page, std::function<void()> merged) {
    // Paper III-B: "when all the flash pages in a physical log block have been used up,
    // the GPU helper thread performs garbage collection". With a fill threshold the
    // block is used up when its plane has taken log_block_pages pages.
    if (!log_budget_) return;
    const DataBlockLayout& l = tables_.layout;
    const PhysicalBlock& pb = tables_.block(l.unit_of(data_page), data_page.block);
    if (pb.role != PhysicalBlock::Data) return;
    const uint32_t group = tables_.dbmt.at(pb.owner).group;
    if (!gc_.merging(group) && log_pages_used(group, l.plane_in_unit(data_page)) >= log_budget_)
        merge_group(group, std::move(merged));
}

bool ZngDbmtTranslator::merge_pending(const flash::FlashAddress& data_page) const {
    const DataBlockLayout& l = tables_.layout;
    l.geometry().check(data_page);
    const PhysicalBlock& pb = tables_.block(l.unit_of(data_page), data_page.block);
    if (pb.role != PhysicalBlock::Data) return false;
    const uint32_t group = tables_.dbmt.at(pb.owner).group;
    if (gc_.merging(group)) return true;
    // At the fill threshold the next program of the plane requests the merge and waits.
    if (!log_budget_) return false;
    const uint64_t i = uint64_t{group} * l.span() + l.plane_in_unit(data_page);
    return i < log_pages_used_.size() && log_pages_used_[i] >= log_budget_;
}

uint32_t ZngDbmtTranslator::open_log_block(const flash::FlashAddress& data_page) const {
    const DataBlockLayout& l = tables_.layout;
    l.geometry().check(data_page);
    const PhysicalBlock& pb = tables_.block(l.unit_of(data_page), data_page.block);
    if (pb.role != PhysicalBlock::Data) return kNoLogBlock;
    const uint32_t plbn = tables_.lbmt.group(tables_.dbmt.at(pb.owner).group).plbn;
    return plbn == UINT32_MAX ? kNoLogBlock : plbn;
}

uint16_t& ZngDbmtTranslator::log_pages_used(uint32_t group, uint32_t plane_in_unit) {
    const uint64_t i = uint64_t{group} * tables_.layout.span() + plane_in_unit;
    if (log_pages_used_.size() <= i) log_pages_used_.resize((uint64_t{group} + 1) * tables_.layout.span(), 0);
    return log_pages_used_[i];
}

void ZngDbmtTranslator::merge_group(uint32_t group, std::function<void()> done) {
    // No page of the group is programmed from the request to the end of the merge (they
    // wait in wait_for_merge), and the merge erases the log block on every plane.
    if (log_budget_)
        for (uint32_t p = 0; p < tables_.layout.span(); ++p) log_pages_used(group, p) = 0;
    gc_.request_merge(group, std::move(done));
}

void ZngDbmtTranslator::log_block_full(const flash::FlashAddress& log_block, std::function<void()> done) {
    merge_group(group_of(log_block, PhysicalBlock::Log), std::move(done));
}

}  // namespace zng::ftl
