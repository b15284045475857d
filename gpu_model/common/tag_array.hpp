// Set-associative tag store with true LRU, shared by the L1D, the L2 banks, the TLBs
// and the walk cache. Each line carries the state the caches need: dirty and the owning
// application (L2 flushes before a merge). The L2's per-line policy bits (prefetched,
// accessed, pinned) live in a LineMarksArray beside the bank's tag array
// (gpu_model/l2/line_marks.hpp), read far more often than the rest of the state.
// LRU is a per-line timestamp from a per-array counter: exact, and a lookup touches
// only the ways of one set. An invalid way's stamp is 0, below every valid line's, so
// the replacement choice (an invalid way first, else the least recently used) is one
// search for the first smallest stamp.
//
// Layout: a lookup walks the tags of one set, and a replacement its LRU stamps, many
// times per simulated access, so those live apart from the line state: per set, the
// keys of its ways (the tag of a valid line, kNoKey for an invalid one) and then their
// LRU stamps, in one 64-byte-aligned block (an 8-way set: two host cache lines, the
// first holding every tag). The line state (TagLine) is read only once a way is chosen.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace zng::gpu {

struct TagLine {
    uint64_t tag = 0;       // the line's tag; kept by TagArray (install)
    uint64_t data = 0;      // payload for non-cache users (e.g. a TLB's frame number)
    bool valid = false;     // kept by TagArray (install, invalidate)
    bool dirty = false;
    uint16_t app = 0;         // owning application (L2: the last fill or write)
};

class TagArray {
public:
    static constexpr int kMiss = -1;
    // Key of an invalid way. No tag may take this value (install refuses it).
    static constexpr uint64_t kNoKey = ~uint64_t{0};

    TagArray(uint32_t sets, uint32_t ways);

    // Host bytes a TagArray(sets, ways) allocates when built: a TagLine per way plus each
    // set's block of keys and LRU stamps (2 words a way, whole host cache lines). Used to
    // refuse a configuration before it is built (run.memory_limit).
    static uint64_t upfront_bytes(uint64_t sets, uint32_t ways) {
        return sets * ways * sizeof(TagLine) + sets * stride_words(ways) * sizeof(uint64_t);
    }

    uint32_t sets() const { return sets_; }
    // The set of index value x: x modulo the set count, a mask when the count is a power
    // of two (the usual geometry; a 64-bit division costs tens of host cycles, and
    // caches and TLBs index on every access).
    uint32_t set_of(uint64_t x) const { return static_cast<uint32_t>(set_mask_ ? x & set_mask_ : x % sets_); }
    uint32_t ways() const { return ways_; }

    // Way holding `tag` in `set`, or kMiss. Does not update LRU.
    int find(uint32_t set, uint64_t tag) const {
        const uint64_t* k = keys(set);
        for (uint32_t w = 0; w < ways_; ++w)
            if (k[w] == tag) return tag == kNoKey ? kMiss : static_cast<int>(w);
        return kMiss;
    }
    // Asks the host to start loading `set`'s keys and LRU stamps. An L2 bank calls it
    // when a request or fill is queued, well before its lookup: a 24 MB L2's tags do not
    // stay in the host's caches, and the lookup would otherwise wait for the load.
    void prefetch(uint32_t set) const {
        const uint64_t* block = keys(set);
        for (size_t w = 0; w < stride_; w += kHostLine / sizeof(uint64_t)) __builtin_prefetch(block + w);
    }
    void touch(uint32_t set, uint32_t way) { stamps(set)[way] = ++clock_; }
    TagLine& at(uint32_t set, uint32_t way) { return lines_[static_cast<size_t>(set) * ways_ + way]; }
    const TagLine& at(uint32_t set, uint32_t way) const { return lines_[static_cast<size_t>(set) * ways_ + way]; }

    // The way a new line should take among the ways in `allowed` (bit w = way w): an
    // invalid one if any (lowest index), else the least recently used.
    uint32_t victim(uint32_t set, uint64_t allowed = ~0ull) const;
    // Writes a fresh line (clean, app 0) into (set, way) as MRU.
    TagLine& install(uint32_t set, uint32_t way, uint64_t tag);
    void invalidate(uint32_t set, uint32_t way) {
        keys(set)[way] = kNoKey;
        stamps(set)[way] = kInvalidStamp;
        at(set, way).valid = false;
    }
    uint64_t valid_lines() const;

private:
    struct AlignedDelete {
        void operator()(uint64_t* p) const { ::operator delete[](p, std::align_val_t{kHostLine}); }
    };
    static constexpr size_t kHostLine = 64;  // bytes
    static constexpr uint64_t kInvalidStamp = 0;  // valid lines are stamped from 1 on
    static constexpr size_t stride_words(uint32_t ways) {
        constexpr size_t words_per_host_line = kHostLine / sizeof(uint64_t);
        return (2 * size_t{ways} + words_per_host_line - 1) / words_per_host_line * words_per_host_line;
    }
    uint64_t* keys(uint32_t set) { return &index_[static_cast<size_t>(set) * stride_]; }
    const uint64_t* keys(uint32_t set) const { return &index_[static_cast<size_t>(set) * stride_]; }
    uint64_t* stamps(uint32_t set) { return keys(set) + ways_; }
    const uint64_t* stamps(uint32_t set) const { return keys(set) + ways_; }

    uint32_t sets_, ways_;
    uint64_t set_mask_;  // sets - 1 when sets is a power of two above 1, else 0 (use %)
    uint64_t all_ways_;  // the allowed-ways mask of every way
    size_t stride_;  // words per set block: 2 x ways, rounded up to whole host cache lines
    uint64_t clock_ = 0;
    std::unique_ptr<uint64_t[], AlignedDelete> index_;  // per set: keys, then LRU stamps
    std::vector<TagLine> lines_;
};

}  // namespace zng::gpu
