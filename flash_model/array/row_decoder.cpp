#include "flash_model/array/row_decoder.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/core/errors.hpp"

namespace zng::flash {

uint32_t LogPageMappingTable::append(uint32_t data_block, uint32_t page) {
    size_t i = 0;
    while (i < data_blocks_.size() && data_blocks_[i] != data_block) ++i;
    if (i == data_blocks_.size()) {
        data_blocks_.push_back(data_block);
        log_page_.emplace_back(capacity_, kNone);
    }
    uint32_t& slot = log_page_[i][page];
    if (slot == kNone) ++entries_;
    slot = next_free_++;
    return slot;
}

uint32_t ProgrammableRowDecoder::program_log(uint32_t log_block, uint32_t data_block, uint32_t page) {
    if (log_block == data_block)
        throw SimError(fmt::format("row decoder: data block {} cannot be its own log block", data_block));
    if (data_block < binding_.size() && binding_[data_block] != kUnbound && binding_[data_block] != log_block) {
        // The data block's writes moved to a new log block: the old one must be merged
        // first, or reads would miss pages it still maps.
        const uint32_t old_log = binding_[data_block];
        const LogPageMappingTable& old = *tables_[old_log];
        if (std::find(old.data_blocks().begin(), old.data_blocks().end(), data_block) != old.data_blocks().end())
            throw SimError(fmt::format("row decoder: data block {} still has pages in log block {} but its writes "
                                       "were sent to log block {}",
                                       data_block, old_log, log_block));
    }
    if (tables_.size() <= log_block) tables_.resize(size_t{log_block} + 1);
    std::optional<LogPageMappingTable>& t = tables_[log_block];
    if (!t) {
        t.emplace(pages_per_block_);
        ++log_blocks_;
    }
    if (t->full())
        throw SimError(fmt::format("row decoder: log block {} is full (all {} pages programmed)", log_block,
                                   pages_per_block_));
    if (binding_.size() <= data_block) {
        binding_.resize(size_t{data_block} + 1, kUnbound);
        page_map_.resize(size_t{data_block} + 1, nullptr);
    }
    const uint32_t log_page = t->append(data_block, page);
    if (binding_[data_block] != log_block) {
        binding_[data_block] = log_block;
        page_map_[data_block] = t->page_map(data_block);
    }
    if (t->full()) {
        if (full_.size() <= log_block) full_.resize(size_t{log_block} + 1, 0);
        full_[log_block] = 1;
    }
    return log_page;
}

void ProgrammableRowDecoder::erase_block(uint32_t block) {
    if (block >= tables_.size() || !tables_[block]) return;
    for (uint32_t d : tables_[block]->data_blocks())
        if (binding_[d] == block) unbind(d);
    tables_[block].reset();
    --log_blocks_;
    if (block < full_.size()) full_[block] = 0;
}

void ProgrammableRowDecoder::drop_data_block(uint32_t from) {
    if (from < binding_.size()) unbind(from);
}

}  // namespace zng::flash
