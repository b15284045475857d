#include "gpu_model/l2/prefetch/decision_accuracy.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace zng::gpu {

DecisionAccuracy::DecisionAccuracy(uint32_t entries, uint32_t max_window_lines)
    : table_(entries),
      max_window_lines_(max_window_lines),
      block_shift_(static_cast<uint32_t>(std::countr_zero(std::bit_ceil(std::max(max_window_lines, 1u))))),
      // A window of at most B lines spans at most two blocks.
      blocks_(uint64_t{entries} * 2) {
    if (entries == 0 || max_window_lines == 0 || max_window_lines > 64)
        throw std::invalid_argument("decision table: entries >= 1 and windows of 1..64 lines");
    const uint32_t places = entries * 2;
    owners_.assign(static_cast<size_t>(places) << block_shift_, kNoSlot);
    owned_.assign(places, 0);
    free_places_.reserve(places);
    for (uint32_t p = places; p-- > 0;) free_places_.push_back(p);
}

uint32_t* DecisionAccuracy::block_owners(uint64_t block, bool create) {
    if (const uint32_t* p = blocks_.get(block)) return &owners_[static_cast<size_t>(*p) << block_shift_];
    if (!create) return nullptr;
    const uint32_t p = free_places_.back();
    free_places_.pop_back();
    blocks_.put(block, p);
    return &owners_[static_cast<size_t>(p) << block_shift_];
}

void DecisionAccuracy::set_owner(uint64_t first, uint32_t lines, uint32_t slot, bool take_back) {
    const uint64_t block_mask = (uint64_t{1} << block_shift_) - 1;
    for (uint64_t line = first, end = first + lines; line < end;) {
        const uint64_t block = line >> block_shift_;
        const uint64_t block_end = std::min(end, (block + 1) << block_shift_);
        uint32_t* owner = block_owners(block, !take_back);
        if (!owner) {
            line = block_end;
            continue;
        }
        const uint32_t place = static_cast<uint32_t>((owner - owners_.data()) >> block_shift_);
        uint32_t* const from = owner + (line & block_mask);
        uint32_t* const to = from + (block_end - line);
        line = block_end;
        // Branch-free passes over the block's part of the window (up to 64 owners).
        uint32_t changed = 0;
        if (take_back) {
            for (uint32_t* o = from; o < to; ++o) {
                const bool mine = *o == slot;
                changed += mine;
                *o = mine ? kNoSlot : *o;
            }
            owned_[place] -= changed;
        } else {
            for (uint32_t* o = from; o < to; ++o) {
                changed += *o == kNoSlot;
                *o = slot;
            }
            owned_[place] += changed;
        }
        if (owned_[place] == 0) {
            blocks_.erase(block);
            free_places_.push_back(place);
        }
    }
}

bool DecisionAccuracy::verdict(const Decision& d) {
    if (d.prefetch) return 2 * std::popcount(d.used) >= std::popcount(d.brought);
    // Fewer than half of the other lines (a one-line window has none: trivially correct).
    return 2 * static_cast<uint32_t>(std::popcount(d.used)) < std::max(d.lines - 1, 1u);
}

void DecisionAccuracy::judge(uint32_t slot) {
    Decision& d = table_[slot];
    ++judged_;
    correct_ += verdict(d);
    set_owner(d.first_line, d.lines, slot, true);
    d.valid = false;
}

void DecisionAccuracy::decide(bool prefetch, uint64_t first_line, uint32_t lines, uint64_t missed_line) {
    if (lines == 0 || lines > max_window_lines_)
        throw std::invalid_argument("decision window of " + std::to_string(lines) + " lines (1.." +
                                    std::to_string(max_window_lines_) + ")");
    const uint32_t slot = next_;
    next_ = (next_ + 1) % static_cast<uint32_t>(table_.size());
    if (table_[slot].valid) judge(slot);  // pushed out of a full table
    ++decisions_;
    table_[slot] = Decision{first_line, missed_line, 0, 0, 0, lines, prefetch, true};
    set_owner(first_line, lines, slot, false);
}

DecisionAccuracy::Decision* DecisionAccuracy::find(uint64_t line, uint64_t* bit, uint32_t* slot) {
    const uint32_t* owner = block_owners(line >> block_shift_, false);
    if (!owner) return nullptr;
    const uint32_t s = owner[line & ((uint64_t{1} << block_shift_) - 1)];
    if (s == kNoSlot) return nullptr;
    if (slot) *slot = s;
    Decision& d = table_[s];
    *bit = uint64_t{1} << (line - d.first_line);
    return &d;
}

void DecisionAccuracy::prefetch_filled(uint64_t line) {
    uint64_t bit = 0;
    if (Decision* d = find(line, &bit); d && d->prefetch && line != d->missed_line) d->brought |= bit;
}

void DecisionAccuracy::demanded(uint64_t line, bool first_use_of_prefetch) {
    uint64_t bit = 0;
    Decision* d = find(line, &bit);
    if (!d || line == d->missed_line) return;
    if (!d->prefetch || (first_use_of_prefetch && (d->brought & bit))) d->used |= bit;
}

void DecisionAccuracy::evicted(uint64_t line, bool used_prefetch) {
    uint64_t bit = 0;
    uint32_t slot = 0;
    Decision* d = find(line, &bit, &slot);
    if (!d) return;
    if (d->prefetch && (d->brought & bit)) {
        if (used_prefetch) d->used |= bit;
        d->gone |= bit;
        if (d->gone == d->brought) judge(slot);
    } else if (line == d->missed_line && (!d->prefetch || d->brought == 0)) {
        judge(slot);
    }
}

double DecisionAccuracy::accuracy() const {
    if (decisions_ == 0) return 0.0;
    uint64_t correct = correct_;
    for (const Decision& d : table_)
        if (d.valid) correct += verdict(d);
    return static_cast<double>(correct) / static_cast<double>(decisions_);
}

}  // namespace zng::gpu
