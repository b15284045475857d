// GoFS's data area as a log of 2 MB segments (seed 001 §3.3, §3.7).
//
// - Log-structured writes: every write of a file block goes to a new block at the head
//   of the writing SM's open segment, and the block it replaces becomes invalid (seed
//   001: "GoFS is log-structured ... so random writes are sequentially appended into
//   the log"; "GoFS allocates new free blocks with the per-SM allocation pool").
// - Per-SM free-block allocators: free segments are dealt to the SMs, each writes into
//   its own open segment; an SM whose pool runs dry has the free segments redealt
//   evenly ("GoFS maintains per-SM bitmaps ... will redistribute the free segments
//   among all SMs"). The bitmap of "a 2MB segment" is the per-segment valid map here.
// - Foreground GC: when free segments fall below `gc_threshold` of all of them ("when
//   the unused capacity drops below a configurable threshold (5% by default)"; at least
//   2 segments, one kept for the GC's own log), the
//   full segment with the fewest valid blocks is the victim ("greedily selects a victim
//   segment (2MB) with the least valid block"), its valid blocks are moved to the GC's
//   own open segment ("writes the valid 4KB data blocks to a newly allocated
//   segment"), and it is freed and trimmed ("sends a trim NVMe command").
//
// Block numbers count 4 KB blocks from the start of the data area. The caller drains
// gc_moves() and trims() to charge their I/O.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace zng::storage::gofs {

struct SegmentLogSettings {
    uint32_t segments = 1024;
    uint32_t blocks_per_segment = 512;  // 2 MB of 4 KB blocks
    uint32_t sms = 108;
    double gc_threshold = 0.05;
};

class SegmentLog {
public:
    static constexpr uint32_t kNoBlock = UINT32_MAX;
    struct GcMove {
        uint32_t from, to;
    };

    explicit SegmentLog(const SegmentLogSettings& s);

    // Host bytes that a log of `s` holding `files` files of `blocks` blocks allocates when
    // it is built and formatted: the segment table, the free-segment pools and the file
    // map (run.memory_limit). Throws SimError when the files do not fit the log.
    static uint64_t upfront_bytes(const SegmentLogSettings& s, uint64_t files, uint64_t blocks);

    // Lays out `files` files of `blocks` blocks each one after another from segment 0
    // (a freshly formatted and filled file system) and deals the rest to the SMs.
    void format(uint64_t files, uint64_t blocks);

    // The block holding block `block` of `file`.
    uint32_t lookup(uint64_t file, uint64_t block) const { return map_[file][block]; }
    // Writes block `block` of `file` from SM `sm`: returns the new block (the SM's log
    // head); the old one is invalidated. May run foreground GC first.
    uint32_t write(uint32_t sm, uint64_t file, uint64_t block);

    uint32_t valid(uint32_t segment) const { return segs_[segment].valid; }
    uint32_t free_segments() const;
    const std::vector<GcMove>& gc_moves() const { return moves_; }
    const std::vector<uint32_t>& trims() const { return trims_; }  // segments
    void clear_gc_work() {
        moves_.clear();
        trims_.clear();
    }
    uint64_t gc_runs() const { return gc_runs_; }
    const SegmentLogSettings& settings() const { return s_; }

private:
    enum class State : uint8_t { Free, Open, Full };
    struct Segment {
        uint32_t valid = 0;
        State state = State::Free;
        std::unique_ptr<uint64_t[]> owner;  // file << 32 | block, per block; made on first use
    };
    struct Head {
        uint32_t segment = kNoBlock;
        uint32_t next = 0;
        // Free segments dealt to this allocator, taken from the front: a deque, as a
        // vector's erase of its front is linear in the pool (millions of segments at 16 TiB).
        std::deque<uint32_t> pool;
    };
    static constexpr uint64_t kNoOwner = UINT64_MAX;
    static void check_fits(const SegmentLogSettings& s, uint64_t files, uint64_t blocks);

    uint32_t append(uint32_t head, uint64_t file, uint64_t block);
    void open_segment(uint32_t head);
    void redistribute();
    void collect_garbage(uint32_t head);
    void place(uint32_t b, uint64_t file, uint64_t block);
    void invalidate(uint32_t b);

    SegmentLogSettings s_;
    std::vector<Segment> segs_;
    std::vector<Head> heads_;  // one per SM, then the GC's
    std::vector<std::vector<uint32_t>> map_;
    std::vector<GcMove> moves_;
    std::vector<uint32_t> trims_;
    uint64_t gc_runs_ = 0;
};

}  // namespace zng::storage::gofs
