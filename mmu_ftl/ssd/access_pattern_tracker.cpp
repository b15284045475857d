#include "mmu_ftl/ssd/access_pattern_tracker.hpp"

#include <string>


namespace zng::ftl {

namespace {
using namespace param_kind;
// Defaults: FlashGPU's public configuration (readprefetch.cfg) and cache layer.
const Param<Bool> kEnabled{"read_prefetch", "true",
                           "prefetch the pages after a read miss when the access pattern tracker sees a sequential "
                           "stream (FlashGPU: EnableReadPrefetch = 1)"};
const auto kTrackerEntries =
    Param<UInt32>("prefetch_tracker_entries", "1024",
                  "entries of the PC-indexed access pattern tracker (FlashGPU: 1,024, indexed by PC mod 1,024)")
        .range(1, 1 << 20);
const auto kRegionPages =
    Param<UInt32>("prefetch_region_pages", "16",
                  "logical pages of one super page; two reads are sequential when they fall in the same one "
                  "(FlashGPU: 16 channels x 4 KiB, SuperblockSize = C)")
        .range(1, 1 << 20);
const auto kConfidenceMax =
    Param<UInt32>("prefetch_confidence_max", "7",
                  "saturation value of a history's sequential-read counter (FlashGPU: 3 bits, 0..7)")
        .range(1, 1 << 20);
const auto kConfidenceThreshold =
    Param<UInt32>("prefetch_confidence_threshold", "4",
                  "counter value from which a read prefetches (FlashGPU: counter > 3); at most "
                  "prefetch_confidence_max")
        .range(1, 1 << 20);
const auto kPages =
    Param<UInt32>("prefetch_pages", "16",
                  "pages read on a prefetching miss, the demand page and those after it (FlashGPU: one super page, 16)")
        .range(1, 1 << 16);
// Seed 002 (SSDStreamer) as a policy for this buffer: "Stream buffers are well suited for
// coarse-grained caching patterns"; "A stream buffer is a circular FIFO queue, which is
// sized to house multiple sblocks. The number of sblocks contained in a stream buffer is
// equivalent to the prefetch depth."
const auto kPolicy =
    Param<Choice>("prefetch_policy", "burst",
                  "burst: a prefetching miss reads prefetch_pages at once (FlashGPU); stream_buffer: each warp's "
                  "sequential stream keeps prefetch_stream_depth sblocks of prefetch_sblock_pages ahead of its "
                  "reads, sblock i + 1 read only after sblock i has arrived (seed 002's chained stream buffer)")
        .choices({"burst", "stream_buffer"});
const auto kSblockPages =
    Param<UInt32>("prefetch_sblock_pages", "16",
                  "pages of one sblock of the stream_buffer policy (assumption: one super page)")
        .range(1, 1 << 16);
const auto kStreamDepth =
    Param<UInt32>("prefetch_stream_depth", "2",
                  "sblocks a warp's stream buffer holds under the stream_buffer policy (seed 002: SST's 0.76 GB "
                  "of buffers are twice USERIO's one-sblock 0.38 GB)")
        .range(1, 1 << 10);
}  // namespace

std::vector<ParamSpec> ReadPrefetchSettings::params() {
    return {kEnabled, kTrackerEntries, kRegionPages, kConfidenceMax, kConfidenceThreshold, kPages,
            kPolicy,  kSblockPages,    kStreamDepth};
}

ReadPrefetchSettings ReadPrefetchSettings::read(const Params& p) {
    ReadPrefetchSettings s;
    s.enabled = p[kEnabled];
    s.tracker_entries = p[kTrackerEntries];
    s.region_pages = p[kRegionPages];
    s.confidence_max = p[kConfidenceMax];
    s.confidence_threshold = p[kConfidenceThreshold];
    s.pages = p[kPages];
    s.stream_buffer = p[kPolicy] == "stream_buffer";
    s.sblock_pages = p[kSblockPages];
    s.stream_depth = p[kStreamDepth];
    if (s.confidence_threshold > s.confidence_max)
        p.fail(kConfidenceThreshold.key(), "is " + std::to_string(s.confidence_threshold) +
                                                    ", above prefetch_confidence_max (" +
                                                    std::to_string(s.confidence_max) + "): no read would prefetch");
    return s;
}

AccessPatternTracker::AccessPatternTracker(const ReadPrefetchSettings& s)
    : s_(s), per_pc_(s.tracker_entries), warp_index_(128) {}

bool AccessPatternTracker::update(History& h, uint64_t page) const {
    if (!h.seen) {  // the first read of a history only records where it was
        h.seen = true;
        h.last_page = page;
        return false;
    }
    if (h.last_page / s_.region_pages == page / s_.region_pages) {
        if (h.confidence < s_.confidence_max) ++h.confidence;
    } else if (h.confidence > 0) {
        --h.confidence;
    }
    h.last_page = page;
    return h.confidence >= s_.confidence_threshold;
}

bool AccessPatternTracker::observe(uint64_t pc, uint32_t warp, uint64_t page) {
    const uint64_t entry = pc % s_.tracker_entries;
    const uint64_t key = (entry << 32) | warp;
    const uint32_t* known = warp_index_.get(key);
    uint32_t w = known ? *known : 0;
    if (!known) {
        w = static_cast<uint32_t>(per_warp_.size());
        per_warp_.push_back({});
        warp_index_.put(key, w);
    }
    // Both histories learn from every read, whichever decides.
    const bool by_warp = update(per_warp_[w], page);
    const bool by_pc = update(per_pc_[entry], page);
    return by_warp || by_pc;
}

}  // namespace zng::ftl
