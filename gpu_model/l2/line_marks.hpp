// The prefetch and accessed bits of an L2 bank's lines, kept apart from its TagLines.
// ZnG IV-B: "We extend each entry of L2 cache's tag array with the fields of an accessed
// bit and a prefetch bit. ... When a cache line is evicted, the prefetch and accessed
// bits are checked."
// Every demand hit sets the accessed bit and lets the L2 policy read the prefetch bits,
// so these are read far more often than the rest of the line's state. One byte per line,
// in the tag array's (set, way) order: a 24 MB L2 of 128 B lines needs 192 KB, which
// stays in the host's caches, where its 24-byte TagLines (4.5 MB) do not, and a set's
// marks (8 ways: 8 bytes) lie in one host cache line. A replacement that must spare the
// pinned lines reads them here too, not in each way's TagLine.
// The bank clears a line's marks when it installs or invalidates the line, so an
// invalid way's marks are all clear.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace zng::gpu {

struct LineMarks {
    enum Bit : uint8_t {
        kPrefetched = 1,      // filled by a prefetch
        kAccessed = 2,        // used by a demand access since the fill
        kUnusedPrefetch = 4,  // L2 policy mark: prefetched, first demand use not counted yet
        kPinned = 8,          // holds a redirected dirty page (ZnG write redirection, IV-C)
    };
    uint8_t bits = 0;

    bool prefetched() const { return bits & kPrefetched; }
    bool accessed() const { return bits & kAccessed; }
    bool unused_prefetch() const { return bits & kUnusedPrefetch; }
    bool pinned() const { return bits & kPinned; }
    void set(Bit b) { bits = static_cast<uint8_t>(bits | b); }
    void clear(Bit b) { bits = static_cast<uint8_t>(bits & ~b); }
    void assign(Bit b, bool on) { on ? set(b) : clear(b); }
};

class LineMarksArray {
public:
    // All marks clear: a freshly installed line is neither prefetched nor accessed.
    LineMarksArray(uint32_t sets, uint32_t ways) : ways_(ways), marks_(size_t{sets} * ways) {}

    LineMarks& at(uint32_t set, uint32_t way) { return marks_[index(set, way)]; }
    const LineMarks& at(uint32_t set, uint32_t way) const { return marks_[index(set, way)]; }
    // Asks the host to start loading `set`'s marks (with its tags, well before the lookup).
    void prefetch(uint32_t set) const { __builtin_prefetch(&marks_[index(set, 0)]); }
    // Ways (bit w = way w) of `set` whose marks hold `b`.
    uint64_t ways_with(uint32_t set, LineMarks::Bit b) const {
        const LineMarks* s = &marks_[index(set, 0)];
        uint64_t m = 0;
        for (uint32_t w = 0; w < ways_; ++w) m |= uint64_t{(s[w].bits & b) != 0} << w;
        return m;
    }

private:
    size_t index(uint32_t set, uint32_t way) const { return static_cast<size_t>(set) * ways_ + way; }

    uint32_t ways_;
    std::vector<LineMarks> marks_;
};

}  // namespace zng::gpu
