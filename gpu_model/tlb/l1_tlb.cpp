#include "gpu_model/tlb/l1_tlb.hpp"

namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kEntries = Param<UInt32>("entries", "64", "TLB entries").range(1, 1 << 20);
const auto kWays = Param<UInt32>("ways", "4", "associativity (entries / ways sets)").range(1, 64);
const auto kLatency = Param<UInt32>("latency", "1", "lookup latency, GPU cycles").range(0, 100000);
const auto kMshrEntries =
    Param<UInt32>("mshr_entries", "16", "distinct pages being translated at once").range(1, 4096);
const auto kMshrMerge =
    Param<UInt32>("mshr_merge", "64", "accesses waiting on one page's translation").range(1, 4096);
}  // namespace

const ComponentSchema& L1TlbConfig::schema() {
    static const ComponentSchema s{
        .slot = "gpu.l1_tlb",
        .name = "l1_tlb",
        .description = "per-SM L1 TLB (set-associative, LRU) with merging miss registers",
        .params = {kEntries, kWays, kLatency, kMshrEntries, kMshrMerge},
        .ports = {}};
    return s;
}

L1TlbConfig L1TlbConfig::from(const Params& p) {
    L1TlbConfig c;
    c.entries = p[kEntries];
    c.ways = p[kWays];
    c.latency = p[kLatency];
    c.mshr_entries = p[kMshrEntries];
    c.mshr_merge = p[kMshrMerge];
    if (c.entries % c.ways) p.fail(kEntries.key(), "must be a multiple of ways (" + std::to_string(c.ways) + ")");
    return c;
}

L1Tlb::L1Tlb(const L1TlbConfig& cfg, Mmu& mmu, uint32_t client_id, TlbClient& owner, StatGroup g)
    : cfg_(cfg),
      mmu_(mmu),
      client_id_(client_id),
      owner_(owner),
      shift_(mmu.page_shift()),
      tags_(cfg.entries / cfg.ways, cfg.ways),
      mshr_(cfg.mshr_entries, cfg.mshr_merge),
      hits_(g.counter("hits", "L1 TLB hits", "lookups")),
      misses_(g.counter("misses", "L1 TLB misses sent to the MMU", "lookups")),
      merges_(g.counter("merges", "L1 TLB misses merged with a translation in flight", "lookups")),
      stalls_(g.counter("stalls", "L1 TLB lookups refused for lack of a miss register", "lookups")) {
    mmu.attach(client_id, *this);
}

L1Tlb::Result L1Tlb::lookup(MemRequest* r) {
    uint64_t vpn = r->vaddr >> shift_;
    uint64_t key = page_key(r->app, vpn);
    uint32_t set = set_of(key);
    int way = tags_.find(set, key);
    if (way != TagArray::kMiss) {
        ++hits_;
        tags_.touch(set, static_cast<uint32_t>(way));
        set_paddr(r, tags_.at(set, static_cast<uint32_t>(way)).data);
        return Result::Hit;
    }
    int e = mshr_.find(key);
    if (e != MshrTable::kNone) {
        if (!mshr_.can_merge(e)) {
            ++stalls_;
            return Result::Stall;
        }
        ++merges_;
        mshr_.add_waiter(e, r);
        return Result::Miss;
    }
    if (mshr_.full()) {
        ++stalls_;
        return Result::Stall;
    }
    ++misses_;
    e = mshr_.allocate(key);
    mshr_.add_waiter(e, r);
    mmu_.request(client_id_, r->app, vpn, cfg_.latency);
    return Result::Miss;
}

void L1Tlb::translation_done(uint16_t app, uint64_t vpn, uint64_t ppn) {
    uint64_t key = page_key(app, vpn);
    uint32_t set = set_of(key);
    int way = tags_.find(set, key);
    TagLine& line =
        way == TagArray::kMiss ? tags_.install(set, tags_.victim(set), key) : tags_.at(set, static_cast<uint32_t>(way));
    line.data = ppn;
    int e = mshr_.find(key);
    if (e == MshrTable::kNone) return;  // a shootdown raced the walk: nobody waits
    for (uint32_t i = 0; i < mshr_.waiters(e); ++i) {
        MemRequest* r = mshr_.waiter(e, i);
        set_paddr(r, ppn);
        owner_.translated(r);
    }
    mshr_.release(e);
    owner_.tlb_unblocked();
}

void L1Tlb::invalidate(uint16_t app, uint64_t vpn) {
    uint64_t key = page_key(app, vpn);
    uint32_t set = set_of(key);
    int way = tags_.find(set, key);
    if (way != TagArray::kMiss) tags_.invalidate(set, static_cast<uint32_t>(way));
}

}  // namespace zng::gpu
