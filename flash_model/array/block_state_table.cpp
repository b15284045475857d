#include "flash_model/array/block_state_table.hpp"

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace zng::flash {

BlockStateTable::State& BlockStateTable::touch(const FlashAddress& a) {
    geo_.check(a.with_page(0));
    uint32_t& i = index_.get_or_insert(geo_.block_index(a));
    if (i == 0) {  // new: places are stored plus one, so that 0 means absent
        states_.push_back(State{geo_.pages_per_block(), 0, {}});
        i = static_cast<uint32_t>(states_.size());
    }
    return states_[i - 1];
}

void BlockStateTable::program(const FlashAddress& page) {
    geo_.check(page);
    State& s = touch(page);
    if (page.page < s.next_page)
        throw SimError(fmt::format("program of flash page {}: the page is not free (pages of a block are "
                                   "programmed in increasing order and the next free page is {}; erase before write)",
                                   page.to_string(), s.next_page));
    if (page.page > s.next_page) {  // the pages in between are skipped: they stay erased
        if (s.skipped.empty()) s.skipped.assign((geo_.pages_per_block() + 63) / 64, 0);
        for (uint32_t p = s.next_page; p < page.page; ++p) s.skipped[p / 64] |= uint64_t{1} << (p % 64);
    }
    s.next_page = page.page + 1;
}

bool BlockStateTable::page_programmed(const FlashAddress& page) const {
    const State* s = find(page);
    if (!s) return true;  // untouched: the pre-loaded data set
    if (page.page >= s->next_page) return false;
    return s->skipped.empty() || !((s->skipped[page.page / 64] >> (page.page % 64)) & 1);
}

void BlockStateTable::erase(const FlashAddress& block) {
    State& s = touch(block);
    s.next_page = 0;
    s.skipped.clear();
    ++s.erases;
    if (s.erases > max_erases_) max_erases_ = s.erases;
    if (s.erases == endurance_ + 1) ++worn_;  // counted once, when it first exceeds its endurance
}

void BlockStateTable::set_erased(const FlashAddress& block) {
    State& s = touch(block);
    s.next_page = 0;
    s.skipped.clear();
}

uint32_t BlockStateTable::next_free_page(const FlashAddress& block) const {
    const State* s = find(block);
    return s ? s->next_page : geo_.pages_per_block();
}

uint32_t BlockStateTable::erase_count(const FlashAddress& block) const {
    const State* s = find(block);
    return s ? s->erases : 0;
}

}  // namespace zng::flash
