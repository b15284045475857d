// Hook for L2 policies (slot "l2_policy", `gpu.l2.policy: {type: ...}`): prefetchers,
// predictors, write bypass and way pinning attach here without touching the banks.
// ZnG's read optimisation (PC-indexed predictor, access monitor, page-sized fills) and
// write optimisation (pinned ways for redirected dirty pages) are such policies; `none`
// is the plain cache. One instance serves every bank (a predictor is shared L2 state).
// A policy sees each line's prefetch and accessed bits (LineMarks, kept beside the tag
// array): the bank sets the prefetch bit on a prefetch fill and the accessed bit on every
// demand hit or fill.
#pragma once
#include <cstdint>

#include "gpu_model/common/tag_array.hpp"
#include "gpu_model/l2/line_marks.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/clock_domain.hpp"
#include "sim/core/simulator.hpp"
#include "sim/mem/mem_request.hpp"
#include "sim/mem/write_redirection.hpp"
#include "sim/stats/stats.hpp"

namespace zng::gpu {

// Where a policy sends prefetches: the L2 routes the line to its bank, which fetches it
// unless it is present, already being fetched, or out of MSHRs (then it is dropped).
class L2PrefetchSink {
public:
    virtual ~L2PrefetchSink() = default;
    // True if a fill was issued.
    virtual bool prefetch(uint64_t paddr, const MemRequest& cause) = 0;

    // Paper I: "Z-NAND has to fetch a whole 4KB flash page to serve a 128B data block.
    // ZnG increases the GPU L2 cache sizes to buffer the pages fetched from Z-NAND".
    // The demand read miss `cause` (its line fetch just allocated) and the prefetch of
    // the other lines of the window [first_line, first_line + lines) become one memory
    // transaction. Unsupported: the back end cannot serve it whole (the policy falls
    // back to line prefetches); Issued: `prefetched` lines besides the demand line are
    // fetched with it (0: every other line was present or in flight, nothing changed).
    struct UnitResult {
        enum Status : uint8_t { Unsupported, Issued } status = Unsupported;
        uint32_t prefetched = 0;
    };
    virtual UnitResult prefetch_unit(uint64_t first_line, uint32_t lines, const MemRequest& cause) {
        (void)first_line, (void)lines, (void)cause;
        return {};
    }
};

class L2Policy {
public:
    virtual ~L2Policy() = default;
    // A demand lookup (read, write or atomic); `marks` are the hit line's, null on a
    // miss. The policy may keep its own mark there (LineMarks::kUnusedPrefetch).
    virtual void on_access(const MemRequest& r, LineMarks* marks) { (void)r, (void)marks; }
    // A demand miss that allocated an MSHR; the policy may prefetch around it.
    virtual void on_miss(const MemRequest& r, L2PrefetchSink& sink) { (void)r, (void)sink; }
    // Line number `line` was filled (prefetch = filled by a prefetch); `marks` are its.
    virtual void on_fill(uint64_t line, LineMarks& marks, bool prefetch) { (void)line, (void)marks, (void)prefetch; }
    // A valid line is about to be replaced (or invalidated); `marks` are its.
    virtual void on_evict(const TagLine& line, LineMarks marks) { (void)line, (void)marks; }
    // True: this store skips the L2 and goes straight to memory.
    virtual bool bypass_write(const MemRequest& r) { (void)r; return false; }
    // A bypassed store found its line in the L2: true writes the store's data into the
    // line in place (the line does not become dirty: the store goes on to memory), false
    // invalidates the line. Either way no stale copy stays.
    virtual bool bypass_hit_updates() const { return false; }
    // Ways (bit w = way w) a fill for `r` may replace; pinning withholds ways.
    virtual uint64_t fill_ways(const MemRequest& r) { (void)r; return ~0ull; }
    // Write redirection (ZnG IV-C). A store or write-back left a dirty line in the L2:
    // true pins it (asked once per line that is not pinned yet).
    virtual bool pin_write(const MemRequest& r) { (void)r; return false; }
    // True while pinned lines must not be replaced (unless a set holds nothing else).
    virtual bool pins_protected() const { return false; }
    // The memory side's thrashing signal, when the back end provides one.
    virtual void set_redirection_source(const WriteRedirectionSource* s) { (void)s; }
};

struct L2PolicyContext {
    uint32_t banks = 0;
    uint32_t line_size = 0;
    uint64_t size = 0;
    uint32_t ways = 0;
    const ClockDomain* clock = nullptr;
    std::string stats_prefix;  // e.g. "gpu.l2.policy"
};

using L2PolicySlot = Slot<L2Policy, Simulator&, const L2PolicyContext&>;
L2PolicySlot& l2_policy_slot();

void register_l2_policies();

}  // namespace zng::gpu
