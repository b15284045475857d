// ZnG's programmable row decoder (paper IV-A, Fig. 7b), one per plane. For every log
// block of the plane it holds the log page mapping table (LPMT): which log page holds
// the newest copy of (data block, page index). A write takes the page named by the
// log block's next-free-page register (programming is in order) and records the
// mapping; a read searches the table (the decoder works as a CAM; its latency is a
// parameter paid by the caller) and activates the log page on a hit, else the data
// block's own page. Erasing a log block erases its table with it.
// Both are indexed, not hashed: a plane's blocks are numbered densely (Table I: 1,024),
// and a log block serves one or a few data blocks, so a read's search is an index into
// the data block's binding, a walk over the log block's few data blocks and an index
// into that block's pages. Storage grows with the highest block number a run uses.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace zng::flash {

class LogPageMappingTable {
public:
    explicit LogPageMappingTable(uint32_t pages_per_block) : capacity_(pages_per_block) {}
    bool full() const { return next_free_ >= capacity_; }
    uint32_t next_free() const { return next_free_; }
    // Distinct (data block, page) pairs mapped.
    uint32_t entries() const { return entries_; }
    // Log page holding the newest copy of (data_block, page), if any.
    std::optional<uint32_t> find(uint32_t data_block, uint32_t page) const {
        for (size_t i = 0; i < data_blocks_.size(); ++i)
            if (data_blocks_[i] == data_block) {
                const uint32_t lp = log_page_[i][page];
                if (lp == kNone) return std::nullopt;
                return lp;
            }
        return std::nullopt;
    }
    // Takes the next free log page for (data_block, page); the old copy (if any) is
    // superseded. Precondition: !full().
    uint32_t append(uint32_t data_block, uint32_t page);
    // Data blocks with at least one page in this log block.
    const std::vector<uint32_t>& data_blocks() const { return data_blocks_; }

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t capacity_;
    uint32_t next_free_ = 0;
    uint32_t entries_ = 0;
    std::vector<uint32_t> data_blocks_;
    // Beside data_blocks_: by page of that data block, its newest log page or kNone.
    std::vector<std::vector<uint32_t>> log_page_;
};

class ProgrammableRowDecoder {
public:
    explicit ProgrammableRowDecoder(uint32_t pages_per_block) : pages_per_block_(pages_per_block) {}

    // The (block, page) a read of data page (data_block, page) activates.
    struct Row {
        uint32_t block;
        uint32_t page;
        bool log_hit;
    };
    Row resolve(uint32_t data_block, uint32_t page) const {
        if (data_block < binding_.size() && binding_[data_block] != kUnbound) {
            const uint32_t log = binding_[data_block];
            if (auto lp = tables_[log]->find(data_block, page)) return {log, *lp, true};
        }
        return {data_block, page, false};
    }

    // Asked for every dirty register a victim search weighs: a byte read from a dense
    // array, not a table's fields.
    bool log_full(uint32_t log_block) const { return log_block < full_.size() && full_[log_block]; }
    // Reserves the next free page of `log_block` for (data_block, page) and records the
    // mapping; returns the log page. Throws SimError when the log block is full or when
    // the data block still has pages in another log block (it must be merged first).
    uint32_t program_log(uint32_t log_block, uint32_t data_block, uint32_t page);
    // The log block was erased: its table and the bindings to it vanish.
    void erase_block(uint32_t block);
    // The FTL copied the newest copy of every page of data block `from` into another
    // block: the log pages `from` is bound to are superseded (reads of the new block
    // activate its own pages, and its writes may take a new log block before the old one
    // is erased).
    void drop_data_block(uint32_t from);

    size_t log_blocks() const { return log_blocks_; }
    const LogPageMappingTable* table(uint32_t log_block) const {
        return log_block < tables_.size() && tables_[log_block] ? &*tables_[log_block] : nullptr;
    }

private:
    static constexpr uint32_t kUnbound = UINT32_MAX;
    uint32_t pages_per_block_;
    std::vector<std::optional<LogPageMappingTable>> tables_;  // by log block: its LPMT, if it is one
    std::vector<uint32_t> binding_;                           // by data block: its log block, or kUnbound
    std::vector<uint8_t> full_;  // by log block: its LPMT exists and is full (grows with the blocks used)
    size_t log_blocks_ = 0;
};

}  // namespace zng::flash
