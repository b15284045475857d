// The write-combining buffer on an Optane DC PMM (the "XPBuffer", ~16 KiB, Yang et al.,
// FAST'20): writes land in whole media lines (256 B "XPLines"); later writes to a
// buffered line merge into it; lines leave in LRU order to be programmed into the
// media. A line whose bytes were not all written must first be read from the media
// (read-modify-write); a fully written line is programmed directly.
//
// Entries are a fixed array with an open-addressing index, so nothing is allocated
// per write.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace zng::memory {

class WriteCombiningBuffer {
public:
    // lines: capacity in media lines; sectors: sectors per line (<= 64);
    // free_target: write-backs start whenever fewer lines than this are free or leaving.
    WriteCombiningBuffer(uint32_t lines, uint32_t sectors, uint32_t free_target);

    // Does a buffered line hold every sector of `mask`?
    bool covers(uint64_t line, uint64_t mask) const;
    // Can a write to `line` be taken now (the line is buffered, or a slot is free)?
    bool can_accept(uint64_t line) const { return find(line) != kNone || !free_.empty(); }
    // Takes a write (can_accept must hold). True if it merged into a buffered line.
    bool write(uint64_t line, uint64_t mask);

    struct Writeback {
        uint32_t slot;
        uint64_t line;
        bool full;  // every sector written: no media read needed
    };
    // Lines already leaving count as free: they will be soon.
    bool wants_writeback() const { return free_.size() + leaving_ < free_target_ && valid_ > 0; }
    // Picks the least recently written line and marks it as leaving.
    Writeback begin_writeback();
    // The line's program finished: its slot is free again.
    void finish_writeback(uint32_t slot);

    uint32_t lines() const { return static_cast<uint32_t>(entries_.size()); }
    uint32_t valid() const { return valid_; }
    uint32_t free_lines() const { return static_cast<uint32_t>(free_.size()); }
    uint64_t full_mask() const { return full_; }

private:
    static constexpr uint32_t kNone = ~0u;
    enum class State : uint8_t { Free, Valid, Leaving };
    struct Entry {
        uint64_t line = 0;
        uint64_t mask = 0;
        uint64_t stamp = 0;
        State state = State::Free;
    };
    uint32_t find(uint64_t line) const;
    void index_insert(uint32_t slot);
    void index_erase(uint64_t line);
    size_t home(uint64_t line) const { return static_cast<size_t>((line * 0x9E3779B97F4A7C15ull) >> shift_); }

    std::vector<Entry> entries_;
    std::vector<uint32_t> free_;   // stack of free slots
    std::vector<uint32_t> index_;  // slot + 1, 0 = empty; linear probing
    uint32_t shift_ = 0;
    uint32_t free_target_;
    uint32_t valid_ = 0;
    uint32_t leaving_ = 0;
    uint64_t full_;
    uint64_t clock_ = 0;
};

}  // namespace zng::memory
