#include "gpu_model/tlb/mmu.hpp"

#include <algorithm>
#include <bit>


namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kL2TlbEntries = Param<UInt32>("l2_tlb_entries", "512", "entries of the shared L2 TLB").range(1, 1 << 24);
const auto kL2TlbWays =
    Param<UInt32>("l2_tlb_ways", "16", "associativity of the L2 TLB (entries / ways sets)").range(1, 64);
const auto kL2TlbLatency = Param<UInt32>("l2_tlb_latency", "10", "L2 TLB lookup latency, GPU cycles").range(0, 100000);
const auto kWalkers = Param<UInt32>("walkers", "32", "concurrent page walks (walker threads)").range(1, 4096);
const auto kLevels = Param<UInt32>("levels", "4", "page-table levels walked on a walk-cache miss").range(1, 8);
const auto kBitsPerLevel =
    Param<UInt32>("bits_per_level", "9", "virtual page number bits translated per level").range(1, 20);
const auto kLevelLatency =
    Param<UInt32>("level_latency", "20", "time to read one page-table level, GPU cycles").range(0, 1000000);
const auto kWalkCacheEntries =
    Param<UInt32>("walk_cache_entries", "64", "entries of the page walk cache (upper-level entries)")
        .range(1, 1 << 20);
const auto kWalkCacheWays =
    Param<UInt32>("walk_cache_ways", "4", "associativity of the page walk cache").range(1, 64);
const auto kWalkCacheLatency =
    Param<UInt32>("walk_cache_latency", "1", "page walk cache lookup latency, GPU cycles").range(0, 100000);
}  // namespace

const ComponentSchema& MmuConfig::schema() {
    static const ComponentSchema s{
        .slot = "gpu.mmu",
        .name = "mmu",
        .description = "shared MMU: L2 TLB, multi-threaded page-table walker and page walk cache",
        .params = {kL2TlbEntries, kL2TlbWays, kL2TlbLatency, kWalkers, kLevels, kBitsPerLevel, kLevelLatency,
                   kWalkCacheEntries, kWalkCacheWays, kWalkCacheLatency},
        .ports = {}};
    return s;
}

MmuConfig MmuConfig::from(const Params& p) {
    MmuConfig c;
    c.l2_tlb_entries = p[kL2TlbEntries];
    c.l2_tlb_ways = p[kL2TlbWays];
    c.l2_tlb_latency = p[kL2TlbLatency];
    c.walkers = p[kWalkers];
    c.levels = p[kLevels];
    c.bits_per_level = p[kBitsPerLevel];
    c.level_latency = p[kLevelLatency];
    c.walk_cache_entries = p[kWalkCacheEntries];
    c.walk_cache_ways = p[kWalkCacheWays];
    c.walk_cache_latency = p[kWalkCacheLatency];
    if (c.l2_tlb_entries % c.l2_tlb_ways)
        p.fail(kL2TlbEntries.key(), "must be a multiple of l2_tlb_ways (" + std::to_string(c.l2_tlb_ways) + ")");
    if (c.walk_cache_entries % c.walk_cache_ways)
        p.fail(kWalkCacheEntries.key(),
               "must be a multiple of walk_cache_ways (" + std::to_string(c.walk_cache_ways) + ")");
    return c;
}

Mmu::Mmu(Simulator& sim, std::string name, const ClockDomain& clock, const MmuConfig& cfg,
         AddressTranslator& translator, uint32_t clients)
    : Component(sim, std::move(name), clock),
      cfg_(cfg),
      translator_(translator),
      page_shift_(static_cast<uint32_t>(std::countr_zero(translator.page_size()))),
      clients_(clients, nullptr),
      l2_tlb_(cfg.l2_tlb_entries / cfg.l2_tlb_ways, cfg.l2_tlb_ways),
      walk_cache_(cfg.walk_cache_entries / cfg.walk_cache_ways, cfg.walk_cache_ways),
      walk_queue_(64),
      lookups_(sim, [this](Lookup& l) { l2_tlb_lookup(l); }, "mmu-l2-tlb"),
      walking_(sim, [this](uint32_t& w) { walk_finished(w); }, "mmu-walk"),
      l2_hits_(stats().counter("l2_tlb_hits", "L2 TLB hits", "lookups")),
      l2_misses_(stats().counter("l2_tlb_misses", "L2 TLB misses", "lookups")),
      walks_started_(stats().counter("walks", "page walks started", "walks")),
      walk_merges_(stats().counter("walk_merges", "L2 TLB misses merged into a walk of the same page", "misses")),
      walk_cache_hits_(stats().counter("walk_cache_hits", "walks that found an upper level in the walk cache", "walks")),
      walk_levels_(stats().counter("walk_levels", "page-table levels read by walks", "levels")),
      faults_(stats().counter("faults", "walks that needed the translator's fault path", "walks")),
      walk_latency_(stats().average("walk_latency", "time from a walk's request to its translation", "ns")) {
    uint64_t ps = translator.page_size();
    if (!std::has_single_bit(ps) || ps < 4096)
        throw SimError(this->name() + ": translator page size " + std::to_string(ps) +
                       " must be a power of two of at least 4 KiB");
    if (clients > WarpMask::kMaxWarps)
        throw SimError(this->name() + ": at most " + std::to_string(WarpMask::kMaxWarps) + " SMs are supported");
    StatGroup g = stats();
    g.formula("l2_tlb_hit_rate", "L2 TLB hits / lookups", "ratio", [this] {
        double n = static_cast<double>(l2_hits_.get() + l2_misses_.get());
        return n > 0 ? static_cast<double>(l2_hits_.get()) / n : 0.0;
    });
    translator.set_shootdown([this](uint16_t app, uint64_t vpn) { shootdown(app, vpn); });
}

void Mmu::attach(uint32_t client, TranslationClient& c) { clients_.at(client) = &c; }

void Mmu::request(uint32_t client, uint16_t app, uint64_t vpn, uint32_t delay) {
    lookups_.push(Lookup{client, app, vpn}, edge_.edge_after(now(), delay + cfg_.l2_tlb_latency));
}

void Mmu::l2_tlb_lookup(Lookup& l) {
    uint64_t key = page_key(l.app, l.vpn);
    uint32_t set = set_of(key, l2_tlb_);
    int way = l2_tlb_.find(set, key);
    if (way != TagArray::kMiss) {
        ++l2_hits_;
        l2_tlb_.touch(set, static_cast<uint32_t>(way));
        clients_[l.client]->translation_done(l.app, l.vpn, l2_tlb_.at(set, static_cast<uint32_t>(way)).data);
        return;
    }
    ++l2_misses_;
    if (const uint64_t* walking = pending_.get(key)) {
        ++walk_merges_;
        walks_[*walking].clients.set(l.client);
        return;
    }
    uint32_t w;
    if (!free_walks_.empty()) {
        w = free_walks_.back();
        free_walks_.pop_back();
    } else {
        w = static_cast<uint32_t>(walks_.size());
        walks_.emplace_back();
        walk_start_.push_back(0);
    }
    walks_[w] = Walk{l.app, l.vpn, {}};
    walks_[w].clients.set(l.client);
    walk_start_[w] = now();
    pending_.put(key, w);
    if (busy_walkers_ < cfg_.walkers)
        start_walk(w);
    else
        walk_queue_.push_back(w);
}

uint64_t Mmu::walk_cache_key(uint16_t app, uint32_t level, uint64_t vpn) const {
    // The entry read at `level` (1 = root) is selected by the vpn bits above the
    // levels still below it.
    uint64_t prefix = vpn >> ((cfg_.levels - level) * cfg_.bits_per_level);
    return (prefix << 12) | (static_cast<uint64_t>(app) << 4) | level;
}

void Mmu::start_walk(uint32_t w) {
    ++busy_walkers_;
    ++walks_started_;
    const Walk& wk = walks_[w];
    // Deepest upper level whose entry is cached: the walk resumes below it.
    uint32_t cached = 0;
    for (uint32_t level = cfg_.levels - 1; level >= 1; --level) {
        uint64_t key = walk_cache_key(wk.app, level, wk.vpn);
        uint32_t set = walk_cache_.set_of(key >> 4);
        int way = walk_cache_.find(set, key);
        if (way != TagArray::kMiss) {
            walk_cache_.touch(set, static_cast<uint32_t>(way));
            cached = level;
            break;
        }
    }
    if (cached) ++walk_cache_hits_;
    uint32_t reads = cfg_.levels - cached;
    walk_levels_ += reads;
    walking_.push(w, edge_.edge_after(now(), cfg_.walk_cache_latency + uint64_t{reads} * cfg_.level_latency));
}

void Mmu::walk_finished(uint32_t& w) {
    const Walk& wk = walks_[w];
    // Upper levels just read are now in the walk cache.
    for (uint32_t level = 1; level < cfg_.levels; ++level) {
        uint64_t key = walk_cache_key(wk.app, level, wk.vpn);
        uint32_t set = walk_cache_.set_of(key >> 4);
        int way = walk_cache_.find(set, key);
        if (way == TagArray::kMiss)
            walk_cache_.install(set, walk_cache_.victim(set), key);
        else
            walk_cache_.touch(set, static_cast<uint32_t>(way));
    }
    uint64_t ppn = 0;
    if (translator_.translate(wk.app, wk.vpn, ppn)) {
        complete_walk(w, ppn);
        return;
    }
    ++faults_;
    // A fault frees its walker thread once it is handed to the translator: since Pascal
    // the GPU MMU writes a far fault into a fault buffer and the faulting access is
    // replayed once the driver has served it (NVIDIA's UVM driver, "replayable faults"),
    // so the L1 TLB misses wait on the fault (they stay merged on this walk record), not
    // on a walker, and faults in flight are not capped by the walker count.
    release_walker();
    uint32_t id = w;
    translator_.resolve_fault(wk.app, wk.vpn, [this, id](uint64_t p) { complete_walk(id, p, false); });
}

void Mmu::release_walker() {
    --busy_walkers_;
    if (!walk_queue_.empty()) {
        uint32_t next = walk_queue_.front();
        walk_queue_.pop_front();
        start_walk(next);
    }
}

void Mmu::complete_walk(uint32_t w, uint64_t ppn, bool holds_walker) {
    Walk wk = walks_[w];
    uint64_t key = page_key(wk.app, wk.vpn);
    uint32_t set = set_of(key, l2_tlb_);
    int way = l2_tlb_.find(set, key);
    TagLine& line = way == TagArray::kMiss ? l2_tlb_.install(set, l2_tlb_.victim(set), key)
                                           : l2_tlb_.at(set, static_cast<uint32_t>(way));
    line.data = ppn;
    walk_latency_.sample(static_cast<double>(now() - walk_start_[w]) / static_cast<double>(kNanosecond));
    pending_.erase(key);
    free_walks_.push_back(w);
    if (holds_walker) release_walker();
    for (uint32_t c = wk.clients.next(0); c != WarpMask::kNone; c = wk.clients.next(c + 1))
        clients_[c]->translation_done(wk.app, wk.vpn, ppn);
}

void Mmu::shootdown(uint16_t app, uint64_t vpn) {
    uint64_t key = page_key(app, vpn);
    uint32_t set = set_of(key, l2_tlb_);
    int way = l2_tlb_.find(set, key);
    if (way != TagArray::kMiss) l2_tlb_.invalidate(set, static_cast<uint32_t>(way));
    for (TranslationClient* c : clients_)
        if (c) c->invalidate(app, vpn);
}

}  // namespace zng::gpu
