// ZnG's programmable row decoder (paper IV-A, Fig. 7b), one per plane. For every log
// block of the plane it holds the log page mapping table (LPMT): which log page holds
// the newest copy of (data block, page index). A write takes the page named by the
// log block's next-free-page register (programming is in order) and records the
// mapping; a read searches the table (the decoder works as a CAM; its latency is a
// parameter paid by the caller) and activates the log page on a hit, else the data
// block's own page. Erasing a log block erases its table with it.
// Both are indexed, not hashed: a plane's blocks are numbered densely (Table I: 1,024).
// A bound data block keeps a pointer to its own page map inside its log block's table,
// so a read's search is two loads (the binding, then the page's entry), not a walk
// through the log block's table: every demand sense and every program of a partly
// written page resolves its row, and on flash-bound runs those walks missed the host's
// caches at each step. Storage grows with the highest block number a run uses.
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
        const uint32_t* map = page_map(data_block);
        if (!map || map[page] == kNone) return std::nullopt;
        return map[page];
    }
    // Takes the next free log page for (data_block, page); the old copy (if any) is
    // superseded. Precondition: !full().
    uint32_t append(uint32_t data_block, uint32_t page);
    // Data blocks with at least one page in this log block.
    const std::vector<uint32_t>& data_blocks() const { return data_blocks_; }
    // The page map of data_block (by page: its newest log page or kNone), null if the
    // block has no page here. It stays where it is for the life of this table.
    const uint32_t* page_map(uint32_t data_block) const {
        for (size_t i = 0; i < data_blocks_.size(); ++i)
            if (data_blocks_[i] == data_block) return log_page_[i].data();
        return nullptr;
    }
    static constexpr uint32_t kNone = UINT32_MAX;

private:
    uint32_t capacity_;
    uint32_t next_free_ = 0;
    uint32_t entries_ = 0;
    std::vector<uint32_t> data_blocks_;
    // Beside data_blocks_: by page of that data block, its newest log page or kNone. Each
    // inner vector is made at its full size once, so its storage never moves (page_map).
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
            const uint32_t lp = page_map_[data_block][page];
            if (lp != LogPageMappingTable::kNone) return {binding_[data_block], lp, true};
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
    // By data block, beside binding_: its page map in that log block's table (valid while
    // bound; the binding is dropped before the table goes).
    std::vector<const uint32_t*> page_map_;
    void unbind(uint32_t data_block) {
        binding_[data_block] = kUnbound;
        page_map_[data_block] = nullptr;
    }
    std::vector<uint8_t> full_;  // by log block: its LPMT exists and is full (grows with the blocks used)
    size_t log_blocks_ = 0;
};

}  // namespace zng::flash
