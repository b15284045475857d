#include "flash_model/array/row_decoder.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/core/errors.hpp"

namespace zng::flash {

std::optional<uint32_t> LogPageMappingTable::find(uint32_t data_block, uint32_t page) const {
    auto it = map_.find(key(data_block, page));
    if (it == map_.end()) return std::nullopt;
    return it->second;
}

uint32_t LogPageMappingTable::append(uint32_t data_block, uint32_t page) {
    uint32_t log_page = next_free_++;
    map_[key(data_block, page)] = log_page;
    if (std::find(data_blocks_.begin(), data_blocks_.end(), data_block) == data_blocks_.end())
        data_blocks_.push_back(data_block);
    return log_page;
}

void LogPageMappingTable::rename_data_block(uint32_t from, uint32_t to) {
    std::unordered_map<uint64_t, uint32_t> renamed;
    for (auto it = map_.begin(); it != map_.end();) {
        if (static_cast<uint32_t>(it->first >> 32) == from) {
            renamed[key(to, static_cast<uint32_t>(it->first))] = it->second;
            it = map_.erase(it);
        } else {
            ++it;
        }
    }
    for (auto& [k, v] : renamed) map_[k] = v;
    for (auto& b : data_blocks_)
        if (b == from) b = to;
}

ProgrammableRowDecoder::Row ProgrammableRowDecoder::resolve(uint32_t data_block, uint32_t page) const {
    auto b = binding_.find(data_block);
    if (b != binding_.end()) {
        const LogPageMappingTable& t = tables_.at(b->second);
        if (auto lp = t.find(data_block, page)) return {b->second, *lp, true};
    }
    return {data_block, page, false};
}

const LogPageMappingTable* ProgrammableRowDecoder::table(uint32_t log_block) const {
    auto it = tables_.find(log_block);
    return it == tables_.end() ? nullptr : &it->second;
}

uint32_t ProgrammableRowDecoder::program_log(uint32_t log_block, uint32_t data_block, uint32_t page) {
    if (log_block == data_block)
        throw SimError(fmt::format("row decoder: data block {} cannot be its own log block", data_block));
    auto b = binding_.find(data_block);
    if (b != binding_.end() && b->second != log_block) {
        // The data block's writes moved to a new log block: the old one must be merged
        // first, or reads would miss pages it still maps.
        const LogPageMappingTable& old = tables_.at(b->second);
        bool has_pages = std::find(old.data_blocks().begin(), old.data_blocks().end(), data_block) !=
                         old.data_blocks().end();
        if (has_pages)
            throw SimError(fmt::format("row decoder: data block {} still has pages in log block {} but its writes "
                                       "were sent to log block {}",
                                       data_block, b->second, log_block));
    }
    auto [it, fresh] = tables_.try_emplace(log_block, pages_per_block_);
    (void)fresh;
    if (it->second.full())
        throw SimError(fmt::format("row decoder: log block {} is full (all {} pages programmed)", log_block,
                                   pages_per_block_));
    binding_[data_block] = log_block;
    const uint32_t log_page = it->second.append(data_block, page);
    if (it->second.full()) {
        if (full_.size() <= log_block) full_.resize(size_t{log_block} + 1, 0);
        full_[log_block] = 1;
    }
    return log_page;
}

void ProgrammableRowDecoder::erase_block(uint32_t block) {
    auto it = tables_.find(block);
    if (it == tables_.end()) return;
    for (uint32_t d : it->second.data_blocks()) {
        auto b = binding_.find(d);
        if (b != binding_.end() && b->second == block) binding_.erase(b);
    }
    tables_.erase(it);
    if (block < full_.size()) full_[block] = 0;
}

void ProgrammableRowDecoder::move_data_block(uint32_t from, uint32_t to) {
    auto b = binding_.find(from);
    if (b == binding_.end()) return;
    uint32_t log = b->second;
    binding_.erase(b);
    binding_[to] = log;
    tables_.at(log).rename_data_block(from, to);
}

}  // namespace zng::flash
