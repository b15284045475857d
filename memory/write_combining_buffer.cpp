#include "memory/write_combining_buffer.hpp"

#include <stdexcept>

#include "sim/core/errors.hpp"

namespace zng::memory {

WriteCombiningBuffer::WriteCombiningBuffer(uint32_t lines, uint32_t sectors, uint32_t free_target)
    : entries_(lines), free_target_(free_target) {
    if (lines == 0) throw std::invalid_argument("the write-combining buffer needs at least one line");
    if (sectors == 0 || sectors > 64) throw std::invalid_argument("a buffer line holds 1 to 64 sectors");
    if (free_target == 0 || free_target > lines)
        throw std::invalid_argument("the free-line target must be between 1 and the number of lines");
    full_ = sectors == 64 ? ~0ull : (1ull << sectors) - 1;
    free_.reserve(lines);
    for (uint32_t i = lines; i-- > 0;) free_.push_back(i);
    size_t cap = 2;
    uint32_t bits = 1;
    while (cap < 2ull * lines) {
        cap <<= 1;
        ++bits;
    }
    index_.assign(cap, 0);
    shift_ = 64 - bits;
}

uint32_t WriteCombiningBuffer::find(uint64_t line) const {
    const size_t mask = index_.size() - 1;
    for (size_t i = home(line);; i = (i + 1) & mask) {
        const uint32_t v = index_[i];
        if (v == 0) return kNone;
        if (entries_[v - 1].line == line) return v - 1;
    }
}

void WriteCombiningBuffer::index_insert(uint32_t slot) {
    const size_t mask = index_.size() - 1;
    size_t i = home(entries_[slot].line);
    while (index_[i] != 0) i = (i + 1) & mask;
    index_[i] = slot + 1;
}

// Deletion with backward shift keeps probe chains intact without tombstones.
void WriteCombiningBuffer::index_erase(uint64_t line) {
    const size_t mask = index_.size() - 1;
    size_t i = home(line);
    while (entries_[index_[i] - 1].line != line) i = (i + 1) & mask;
    size_t hole = i;
    for (size_t j = (hole + 1) & mask; index_[j] != 0; j = (j + 1) & mask) {
        const size_t h = home(entries_[index_[j] - 1].line);
        // Move j into the hole if its home is not in (hole, j] (cyclically).
        const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
        if (!stays) {
            index_[hole] = index_[j];
            hole = j;
        }
    }
    index_[hole] = 0;
}

bool WriteCombiningBuffer::covers(uint64_t line, uint64_t mask) const {
    const uint32_t s = find(line);
    return s != kNone && (entries_[s].mask & mask) == mask;
}

bool WriteCombiningBuffer::write(uint64_t line, uint64_t mask) {
    const uint32_t s = find(line);
    if (s != kNone) {
        entries_[s].mask |= mask;
        entries_[s].stamp = ++clock_;
        return true;
    }
    if (free_.empty()) throw SimError("write-combining buffer: write taken with no free line");
    const uint32_t slot = free_.back();
    free_.pop_back();
    entries_[slot] = Entry{line, mask & full_, ++clock_, State::Valid};
    index_insert(slot);
    ++valid_;
    return false;
}

WriteCombiningBuffer::Writeback WriteCombiningBuffer::begin_writeback() {
    uint32_t victim = kNone;
    for (uint32_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].state == State::Valid && (victim == kNone || entries_[i].stamp < entries_[victim].stamp))
            victim = i;
    if (victim == kNone) throw SimError("write-combining buffer: write-back requested with no buffered line");
    Entry& e = entries_[victim];
    index_erase(e.line);
    e.state = State::Leaving;
    --valid_;
    ++leaving_;
    return {victim, e.line, e.mask == full_};
}

void WriteCombiningBuffer::finish_writeback(uint32_t slot) {
    if (slot >= entries_.size() || entries_[slot].state != State::Leaving)
        throw SimError("write-combining buffer: a write-back finished for a line that was not leaving");
    entries_[slot].state = State::Free;
    --leaving_;
    free_.push_back(slot);
}

}  // namespace zng::memory
