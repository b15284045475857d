#include "gpu_model/l2/prefetch/decision_accuracy.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace zng::gpu {

DecisionAccuracy::DecisionAccuracy(uint32_t entries, uint32_t max_window_lines)
    : table_(entries), by_line_(uint64_t{entries} * max_window_lines) {
    if (entries == 0 || max_window_lines == 0 || max_window_lines > 64)
        throw std::invalid_argument("decision table: entries >= 1 and windows of 1..64 lines");
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
    for (uint32_t i = 0; i < d.lines; ++i) {
        const uint32_t* s = by_line_.get(d.first_line + i);
        if (s && *s == slot) by_line_.erase(d.first_line + i);
    }
    d.valid = false;
}

void DecisionAccuracy::decide(bool prefetch, uint64_t first_line, uint32_t lines, uint64_t missed_line) {
    const uint32_t slot = next_;
    next_ = (next_ + 1) % static_cast<uint32_t>(table_.size());
    if (table_[slot].valid) judge(slot);  // pushed out of a full table
    ++decisions_;
    table_[slot] = Decision{first_line, missed_line, 0, 0, 0, lines, prefetch, true};
    for (uint32_t i = 0; i < lines; ++i) by_line_.put(first_line + i, slot);
}

DecisionAccuracy::Decision* DecisionAccuracy::find(uint64_t line, uint64_t* bit, uint32_t* slot) {
    const uint32_t* s = by_line_.get(line);
    if (!s) return nullptr;
    if (slot) *slot = *s;
    Decision& d = table_[*s];
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
