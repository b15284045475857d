// Set-associative tag store with true LRU, shared by the L1D, the L2 banks, the TLBs
// and the walk cache. Each line carries the state bits the caches and their policies
// need: dirty, the owning application (L2 flushes before a merge), and the
// prefetch/accessed bits of ZnG's read optimisation (set on a prefetch fill, set on
// first demand use, read when the line is evicted).
// LRU is a per-line timestamp from a per-array counter: exact, and a lookup touches
// only the ways of one set.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace zng::gpu {

struct TagLine {
    uint64_t tag = 0;
    uint64_t last_use = 0;  // LRU timestamp
    uint64_t data = 0;      // payload for non-cache users (e.g. a TLB's frame number)
    bool valid = false;
    bool dirty = false;
    bool prefetched = false;  // filled by a prefetch
    bool accessed = false;    // used by a demand access since the fill
    bool pinned = false;      // holds a redirected dirty page (ZnG write redirection)
    bool unused_prefetch = false;  // L2 policy mark: prefetched, first demand use not counted yet
    uint16_t app = 0;         // owning application (L2: the last fill or write)
};

class TagArray {
public:
    static constexpr int kMiss = -1;

    TagArray(uint32_t sets, uint32_t ways);

    uint32_t sets() const { return sets_; }
    uint32_t ways() const { return ways_; }

    // Way holding `tag` in `set`, or kMiss. Does not update LRU.
    int find(uint32_t set, uint64_t tag) const {
        const TagLine* s = &lines_[static_cast<size_t>(set) * ways_];
        for (uint32_t w = 0; w < ways_; ++w)
            if (s[w].valid && s[w].tag == tag) return static_cast<int>(w);
        return kMiss;
    }
    void touch(uint32_t set, uint32_t way) { at(set, way).last_use = ++clock_; }
    TagLine& at(uint32_t set, uint32_t way) { return lines_[static_cast<size_t>(set) * ways_ + way]; }
    const TagLine& at(uint32_t set, uint32_t way) const { return lines_[static_cast<size_t>(set) * ways_ + way]; }

    // The way a new line should take among the ways in `allowed` (bit w = way w): an
    // invalid one if any (lowest index), else the least recently used.
    uint32_t victim(uint32_t set, uint64_t allowed = ~0ull) const;
    // Writes a fresh line (clean, not prefetched, not accessed, not pinned, app 0) into (set, way) as MRU.
    TagLine& install(uint32_t set, uint32_t way, uint64_t tag);
    void invalidate(uint32_t set, uint32_t way) { at(set, way).valid = false; }
    // Ways (bit w = way w) of `set` holding valid pinned lines.
    uint64_t pinned_ways(uint32_t set) const {
        const TagLine* s = &lines_[static_cast<size_t>(set) * ways_];
        uint64_t m = 0;
        for (uint32_t w = 0; w < ways_; ++w)
            if (s[w].valid && s[w].pinned) m |= 1ull << w;
        return m;
    }

    uint64_t valid_lines() const;

private:
    uint32_t sets_, ways_;
    uint64_t clock_ = 0;
    std::vector<TagLine> lines_;
};

}  // namespace zng::gpu
