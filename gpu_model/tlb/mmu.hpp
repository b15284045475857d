// The GPU's shared MMU (paper Fig. 2, after Power et al.): an L2 TLB behind every SM's
// L1 TLB, and a multi-threaded page-table walker with a page walk cache. The walker's
// timing is levels x per-level latency, minus the upper levels found in the walk
// cache; the mapping itself comes from the platform's AddressTranslator, and a page
// that is not mapped yet is a fault the translator resolves after the walker thread has
// been freed (the misses wait on the fault). Misses to a page already being walked or
// faulting merge into that walk.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu_model/common/tag_array.hpp"
#include "gpu_model/common/warp_mask.hpp"
#include "gpu_model/tlb/translation_client.hpp"
#include "sim/config/params.hpp"
#include "sim/core/component.hpp"
#include "sim/core/edge_clock.hpp"
#include "sim/core/hash_map.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/timed_queue.hpp"
#include "sim/mem/address_translator.hpp"

namespace zng::gpu {

struct MmuConfig {
    uint32_t l2_tlb_entries = 512;
    uint32_t l2_tlb_ways = 16;
    uint32_t l2_tlb_latency = 10;  // cycles
    uint32_t walkers = 32;
    uint32_t levels = 4;
    uint32_t bits_per_level = 9;
    uint32_t level_latency = 20;   // cycles per page-table level read
    uint32_t walk_cache_entries = 64;
    uint32_t walk_cache_ways = 4;
    uint32_t walk_cache_latency = 1;

    static const ComponentSchema& schema();
    static MmuConfig from(const Params& p);
};

class Mmu : public Component {
public:
    // `clients`: how many L1 TLBs attach (one per SM).
    Mmu(Simulator& sim, std::string name, const ClockDomain& clock, const MmuConfig& cfg,
        AddressTranslator& translator, uint32_t clients);

    void attach(uint32_t client, TranslationClient& c);
    // An L1 TLB miss: after `delay` cycles (the L1 TLB's own lookup), look up the L2
    // TLB, then walk if needed; the answer comes back through translation_done().
    void request(uint32_t client, uint16_t app, uint64_t vpn, uint32_t delay);

    uint32_t page_shift() const { return page_shift_; }
    uint64_t walks_in_flight() const { return pending_.size(); }
    uint64_t lookups_in_flight() const { return lookups_.size(); }
    // Drops (app, vpn) from every TLB (the translator's shootdown hook).
    void shootdown(uint16_t app, uint64_t vpn);

private:
    struct Lookup {
        uint32_t client;
        uint16_t app;
        uint64_t vpn;
    };
    struct Walk {
        uint16_t app = 0;
        uint64_t vpn = 0;
        WarpMask clients;  // the L1 TLBs waiting (one bit per SM)
    };
    void l2_tlb_lookup(Lookup& l);
    void start_walk(uint32_t w);
    void walk_finished(uint32_t& w);
    // Installs the translation and answers the waiting L1 TLBs; `holds_walker`: the walk
    // still holds its walker thread (false once it went to the fault path).
    void complete_walk(uint32_t w, uint64_t ppn, bool holds_walker = true);
    void release_walker();  // frees a walker thread and starts the oldest queued walk
    uint32_t set_of(uint64_t key, const TagArray& t) const { return t.set_of(key >> 8); }
    uint64_t walk_cache_key(uint16_t app, uint32_t level, uint64_t vpn) const;

    MmuConfig cfg_;
    AddressTranslator& translator_;
    uint32_t page_shift_;
    std::vector<TranslationClient*> clients_;
    TagArray l2_tlb_;
    TagArray walk_cache_;
    std::vector<Walk> walks_;              // walk records, indexed by walk id
    std::vector<uint32_t> free_walks_;
    GrowingHashMap<uint64_t> pending_{32};  // page key -> walk id, queued or walking (merging)
    RingQueue<uint32_t> walk_queue_;       // waiting for a walker thread
    uint32_t busy_walkers_ = 0;
    EdgeClock edge_{clock()};
    TimedQueue<Lookup> lookups_;
    TimedQueue<uint32_t> walking_;

    Counter& l2_hits_;
    Counter& l2_misses_;
    Counter& walks_started_;
    Counter& walk_merges_;
    Counter& walk_cache_hits_;
    Counter& walk_levels_;
    Counter& faults_;
    Average& walk_latency_;
    std::vector<Tick> walk_start_;
};

}  // namespace zng::gpu
