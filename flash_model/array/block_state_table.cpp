#include "flash_model/array/block_state_table.hpp"

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace zng::flash {

BlockStateTable::Head& BlockStateTable::touch(const FlashAddress& a) {
    geo_.check(a.with_page(0));
    Head& h = index_.get_or_insert(geo_.block_index(a));
    if (h.place == 0) {  // new: places are stored plus one, so that 0 means absent
        states_.push_back(State{0, {}});
        h = Head{geo_.pages_per_block(), static_cast<uint32_t>(states_.size())};
    }
    return h;
}

void BlockStateTable::program(const FlashAddress& page) {
    geo_.check(page);
    Head& h = touch(page);
    if (page.page < h.next_page)
        throw SimError(fmt::format("program of flash page {}: the page is not free (pages of a block are "
                                   "programmed in increasing order and the next free page is {}; erase before write)",
                                   page.to_string(), h.next_page));
    if (page.page > h.next_page) {  // the pages in between are skipped: they stay erased
        State& s = state(h);
        if (s.skipped.empty()) s.skipped.assign((geo_.pages_per_block() + 63) / 64, 0);
        for (uint32_t p = h.next_page; p < page.page; ++p) s.skipped[p / 64] |= uint64_t{1} << (p % 64);
        h.place |= kSkips;
    }
    h.next_page = page.page + 1;
}

void BlockStateTable::set_free(Head& h) {
    h.next_page = 0;
    h.place &= ~kSkips;
    state(h).skipped.clear();
}

bool BlockStateTable::page_programmed(const FlashAddress& page) const {
    const Head* h = find(page);
    if (!h) return true;  // untouched: the pre-loaded data set
    if (page.page >= h->next_page) return false;
    if (!(h->place & kSkips)) return true;
    const State& s = state(*h);
    return !((s.skipped[page.page / 64] >> (page.page % 64)) & 1);
}

void BlockStateTable::erase(const FlashAddress& block) {
    Head& h = touch(block);
    State& s = state(h);
    set_free(h);
    ++s.erases;
    if (s.erases > max_erases_) max_erases_ = s.erases;
    if (s.erases == endurance_ + 1) ++worn_;  // counted once, when it first exceeds its endurance
}

void BlockStateTable::set_erased(const FlashAddress& block) {
    set_free(touch(block));
}

uint32_t BlockStateTable::next_free_page(const FlashAddress& block) const {
    const Head* h = find(block);
    return h ? h->next_page : geo_.pages_per_block();
}

uint32_t BlockStateTable::erase_count(const FlashAddress& block) const {
    const Head* h = find(block);
    return h ? state(*h).erases : 0;
}

}  // namespace zng::flash
