// Translator `zng_dbmt`: ZnG's zero-overhead FTL (paper III-B, IV-A, Fig. 7a). The MMU's
// page table is the DBMT, so a translation yields a flash physical page directly:
// ppn = the flash byte address of the page / page size, in the geometry of the `flash:`
// section (L1/L2 are indexed by that address). A data block is allocated on first touch
// in the unit the data-block layout assigns to the virtual page; rewrites go to the log
// block the LBMT assigns to the data block's group (this class is the flash back end's
// LogBlockMap), and a full log block is merged by the GPU helper thread.
#pragma once
#include <memory>
#include <vector>

#include "flash_model/flash_spec.hpp"
#include "flash_model/array/log_block_map.hpp"
#include "mmu_ftl/zng/gc_helper_thread.hpp"
#include "mmu_ftl/zng/mapping_table_sizes.hpp"
#include "mmu_ftl/zng/zng_ftl_tables.hpp"
#include "sim/mem/address_translator.hpp"
#include "sim/mem/cache_flush_client.hpp"

namespace zng::ftl {

class ZngDbmtTranslator final : public AddressTranslator, public flash::LogBlockMap, public CacheFlushClient {
public:
    ZngDbmtTranslator(Simulator& sim, const Params& p, const TranslatorContext& ctx);
    static const ComponentSchema& schema();

    uint64_t page_size() const override { return tables_.layout.geometry().page_size(); }
    bool translate(uint16_t app, uint64_t vpn, uint64_t& ppn) override;
    void resolve_fault(uint16_t app, uint64_t vpn, FaultDone done) override;
    // A merge that ends releases its owner's held requests.
    uint64_t background_work_done() const override { return gc_.merges(); }
    std::string background_work_state() const override { return gc_.state(); }

    uint32_t log_block_for(const flash::FlashAddress& data_page) override;
    void log_block_full(const flash::FlashAddress& log_block, std::function<void()> done) override;
    bool forward(flash::FlashAddress& page) override;
    bool wait_for_merge(const flash::FlashAddress& data_page, std::function<void()> resume) override;
    void log_page_taken(const flash::FlashAddress& data_page, std::function<void()> merged) override;
    bool merge_pending(const flash::FlashAddress& data_page) const override;
    uint32_t open_log_block(const flash::FlashAddress& data_page) const override;

    // The flash back end that adopted this FTL as its log-block map times the merges.
    void attach(flash::FlashOpExecutor& exec) override;

    void set_cache_flush(FlushApp f) override { gc_.set_flush(std::move(f)); }

    const MappingTableSizes& table_sizes() const { return sizes_; }
    const ZngFtlTables& tables() const { return tables_; }
    const GcHelperThread& gc() const { return gc_; }
    uint64_t translations() const { return translations_.get(); }
    uint64_t first_touches() const { return first_touches_.get(); }
    uint64_t late_writebacks() const { return late_writebacks_.get(); }

protected:
    void* offered_interface(std::string_view name) override {
        return offer<CacheFlushClient, flash::LogBlockMap>(this, name);
    }

private:
    // The log group of the block at `a`, checking that the block has the given role.
    uint32_t group_of(const flash::FlashAddress& a, PhysicalBlock::Role role) const;
    // Log pages the group has programmed on one plane of its unit since its last merge
    // (kept only under a log_block_pages threshold).
    uint16_t& log_pages_used(uint32_t group, uint32_t plane_in_unit);
    void merge_group(uint32_t group, std::function<void()> done);

    StatGroup stats_;
    ZngFtlTables tables_;
    MappingTableSizes sizes_;
    GcHelperThread gc_;
    Counter& translations_;
    Counter& first_touches_;
    Counter& log_blocks_opened_;
    Counter& late_writebacks_;
    Counter& writebacks_held_;
    uint32_t log_budget_ = 0;                // log_block_pages, 0 when the whole block is used
    std::vector<uint16_t> log_pages_used_;   // groups x span
};

}  // namespace zng::ftl
