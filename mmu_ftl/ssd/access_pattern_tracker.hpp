// FlashGPU's access pattern tracker: the read prefetch of its flash cache (Zhang et al.,
// DAC'19: "a dynamic page-placement and buffer manager in Z-NAND subsystems by being
// aware of bulk and parallel memory access characteristics of GPU applications").
//
// What FlashGPU's public implementation does (github FlashGPU/FlashGPU-srccode, whose
// SSD is the SimpleSSD of its submodule FlashGPU/flasharray-src; configuration
// config/readprefetch.cfg, the one its MacSim parameter example bin/params.in names;
// cache layer icl/generic_cache.cc):
//  - Its README: the flash cache "communicates with access pattern tracker being aware
//    of each warp execution behavior based on its program counter (PC)" to decide
//    whether to fetch "in a super-page scheduling manner".
//  - The configuration enables the read cache, the write cache and read prefetch
//    (EnableReadCache = EnableWriteCache = EnableReadPrefetch = 1). Its flash has
//    SuperblockSize = C over 16 channels: one mapping unit ("super page") is 16
//    physical 4 KiB pages, one per channel, at 16 consecutive logical 4 KiB pages.
//  - Every read that misses the write cache updates, before the read cache is looked
//    up, a table of 1,024 entries indexed by PC mod 1,024 (this model updates it on
//    every read: its one buffer does not tell written pages apart). An entry holds one
//    history for the PC (all warps together) and one per warp that executed it. A history keeps the last logical 4 KiB page and a
//    3-bit saturating counter: a read in the same super page (same logical page / 16)
//    as the previous one counts up (to 7), any other read counts down (to 0); the
//    first read of a history only records its page. Prefetch is on for this read when
//    the PC's or the warp's counter exceeds 3: from the fifth read of a stream that
//    stays within super pages, each read after the first counting one up.
//  - A read that hits the DRAM cache is served by a DRAM read of its bytes (even while
//    the line's flash read is still in progress: it waits for the line).
//  - A read miss with prefetch on reads the requested page and the 15 logical pages
//    after it (16 pages, one super page's worth, not aligned to a super page); pages
//    already cached are skipped; each page is its own flash read of one physical page
//    at its mapped location (so consecutive pages go to different channels), and each
//    is written into the DRAM cache. The request waits only for its own page.
//  - Without prefetch, a miss reads the requested page alone.
//  - ReadPrefetchCount = 15 and ReadPrefetchRatio = 4.0 are read from the configuration
//    but not used by this version's cache layer: the tracker above replaced the
//    count/size rule of stock SimpleSSD.
//  - Cache organisation (not modelled here; this simulator keeps one LRU read/write
//    buffer sized by the platform file): read cache CacheSize = 33,554,432 B (32 MiB;
//    the "512MiB" beside it in the file is stale), 8-way, LRU; write cache
//    WriteCacheSize = 1 MiB, 8-way, LRU, write-back, though the code sizes the write
//    cache's sets from CacheSize; a write invalidates the page in the read cache.
//  - Its DRAM (DRAMBusWidth = 64, tCK = 1.25 ns: 12.8 GB/s) charges each access its
//    own transfer time without queueing behind others (dram/simple.cc), so there a
//    prefetch's fills do not delay demand reads. Here the buffer is the ZnG paper's
//    32-bit bus (BufferBus): under the fifo arbitration fills reserve it when their
//    sense ends and a demand read-out waits behind fills reserved before it; under
//    round_robin the read-out shares the bus with them burst by burst.
//
// This class is the tracker only; FirmwareSsd issues the prefetch reads.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/config/params.hpp"
#include "sim/core/hash_map.hpp"

namespace zng::ftl {

struct ReadPrefetchSettings {
    bool enabled = false;
    uint32_t tracker_entries = 1024;   // PC-indexed table size
    uint32_t region_pages = 16;        // pages of one super page: "sequential" = same region
    uint32_t confidence_max = 7;       // 3-bit saturating counter
    uint32_t confidence_threshold = 4; // counter value from which reads prefetch ("> 3")
    uint32_t pages = 16;               // pages read on a prefetching miss, the demand page first
    bool stream_buffer = false;        // policy: per-warp chained stream buffers instead of bursts
    uint32_t sblock_pages = 16;        // stream_buffer: pages per sblock
    uint32_t stream_depth = 2;         // stream_buffer: sblocks per warp's stream buffer

    // The schema keys (the defaults are FlashGPU's public configuration) and their reader.
    static std::vector<ParamSpec> params();
    static ReadPrefetchSettings read(const Params& p);
};

class AccessPatternTracker {
public:
    explicit AccessPatternTracker(const ReadPrefetchSettings& s);

    // Records a read of logical page `page` by the instruction at `pc` of warp `warp`;
    // true when the PC's or the warp's history says the read should prefetch.
    bool observe(uint64_t pc, uint32_t warp, uint64_t page);

    uint64_t warp_histories() const { return per_warp_.size(); }

private:
    struct History {
        uint64_t last_page = 0;
        uint32_t confidence = 0;
        bool seen = false;
    };
    bool update(History& h, uint64_t page) const;

    ReadPrefetchSettings s_;
    std::vector<History> per_pc_;
    GrowingHashMap<uint32_t> warp_index_;         // (PC entry, warp) -> index into per_warp_
    std::vector<History> per_warp_;
};

}  // namespace zng::ftl
