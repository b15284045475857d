// ZnG's programmable row decoder (paper IV-A, Fig. 7b), one per plane. For every log
// block of the plane it holds the log page mapping table (LPMT): which log page holds
// the newest copy of (data block, page index). A write takes the page named by the
// log block's next-free-page register (programming is in order) and records the
// mapping; a read searches the table (the decoder works as a CAM; its latency is a
// parameter paid by the caller) and activates the log page on a hit, else the data
// block's own page. Erasing a log block erases its table with it.
#pragma once
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace zng::flash {

class LogPageMappingTable {
public:
    explicit LogPageMappingTable(uint32_t pages_per_block) : capacity_(pages_per_block) {}
    bool full() const { return next_free_ >= capacity_; }
    uint32_t next_free() const { return next_free_; }
    uint32_t entries() const { return static_cast<uint32_t>(map_.size()); }
    // Log page holding the newest copy of (data_block, page), if any.
    std::optional<uint32_t> find(uint32_t data_block, uint32_t page) const;
    // Takes the next free log page for (data_block, page); the old copy (if any) is
    // superseded. Precondition: !full().
    uint32_t append(uint32_t data_block, uint32_t page);
    // Data blocks with at least one page in this log block.
    const std::vector<uint32_t>& data_blocks() const { return data_blocks_; }
    // Re-keys the entries of data block `from` to `to` (the FTL moved the data block).
    void rename_data_block(uint32_t from, uint32_t to);

private:
    static uint64_t key(uint32_t block, uint32_t page) { return (static_cast<uint64_t>(block) << 32) | page; }
    uint32_t capacity_;
    uint32_t next_free_ = 0;
    std::unordered_map<uint64_t, uint32_t> map_;
    std::vector<uint32_t> data_blocks_;
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
    Row resolve(uint32_t data_block, uint32_t page) const;

    // Asked for every dirty register a victim search weighs: a flag read, not a map look-up.
    bool log_full(uint32_t log_block) const { return log_block < full_.size() && full_[log_block]; }
    // Reserves the next free page of `log_block` for (data_block, page) and records the
    // mapping; returns the log page. Throws SimError when the log block is full or when
    // the data block still has pages in another log block (it must be merged first).
    uint32_t program_log(uint32_t log_block, uint32_t data_block, uint32_t page);
    // The log block was erased: its table and the bindings to it vanish.
    void erase_block(uint32_t block);
    // The FTL moved data block `from` to `to`.
    void move_data_block(uint32_t from, uint32_t to);

    size_t log_blocks() const { return tables_.size(); }
    const LogPageMappingTable* table(uint32_t log_block) const;

private:
    uint32_t pages_per_block_;
    std::unordered_map<uint32_t, LogPageMappingTable> tables_;  // log block -> LPMT
    std::unordered_map<uint32_t, uint32_t> binding_;            // data block -> its log block
    std::vector<uint8_t> full_;  // by log block: its LPMT exists and is full (grows with the blocks used)
};

}  // namespace zng::flash
