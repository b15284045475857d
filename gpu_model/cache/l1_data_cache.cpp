#include "gpu_model/cache/l1_data_cache.hpp"

#include <bit>
#include <cstddef>

#include "gpu_model/common/sector.hpp"

namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kSize = Param<Size>("size", "48KiB", "capacity (size / (ways x line) sets)")
                       .range(128, static_cast<double>(uint64_t{1} << 32));
const auto kWays = Param<UInt32>("ways", "6", "associativity").range(1, 64);
const auto kLine = Param<Size>("line", "128B", "line size (power of two, 32 B .. 1 KiB)").range(32, 1024);
const auto kLatency = Param<UInt32>("latency", "1", "tag lookup / hit latency, GPU cycles").range(0, 100000);
const auto kMshrEntries = Param<UInt32>("mshr_entries", "32", "lines being fetched at once").range(1, 4096);
const auto kMshrMerge = Param<UInt32>("mshr_merge", "8", "accesses merged into one line fetch").range(1, 4096);
const auto kMissQueue = Param<UInt32>("miss_queue", "8", "requests waiting to enter the crossbar").range(1, 4096);
const auto kWritePolicy = Param<Choice>("write_policy", "write_through",
                                        "write_through: no allocate on store miss (Fermi global stores); "
                                        "write_back: allocate (fetch on write) and write dirty victims back")
                              .choices({"write_through", "write_back"});
}  // namespace

const ComponentSchema& L1Config::schema() {
    static const ComponentSchema s{
        .slot = "gpu.l1d",
        .name = "l1d",
        .description = "per-SM L1 data cache with merging MSHRs and a configurable write policy",
        .params = {kSize, kWays, kLine, kLatency, kMshrEntries, kMshrMerge, kMissQueue, kWritePolicy},
        .ports = {"out: requests to the crossbar"}};
    return s;
}

L1Config L1Config::from(const Params& p) {
    L1Config c;
    c.size = p[kSize];
    c.ways = p[kWays];
    c.line = static_cast<uint32_t>(p[kLine]);
    c.latency = p[kLatency];
    c.mshr_entries = p[kMshrEntries];
    c.mshr_merge = p[kMshrMerge];
    c.miss_queue = p[kMissQueue];
    c.write_policy = p[kWritePolicy] == "write_back" ? WritePolicy::WriteBack : WritePolicy::WriteThrough;
    if (!std::has_single_bit(c.line)) p.fail(kLine.key(), std::to_string(c.line) + " B is not a power of two");
    if (c.size % (uint64_t{c.ways} * c.line) != 0)
        p.fail(kSize.key(), "must be a multiple of ways x line (" + std::to_string(c.ways * c.line) + " B)");
    return c;
}

L1DataCache::L1DataCache(Simulator& sim, std::string name, const ClockDomain& clock, const L1Config& cfg,
                         L1Client& client)
    : Component(sim, std::move(name), clock),
      cfg_(cfg),
      client_(client),
      port_(*this, this->name() + ".out"),
      tags_(cfg.sets(), cfg.ways),
      mshr_(cfg.mshr_entries, cfg.mshr_merge),
      line_shift_(static_cast<uint32_t>(std::countr_zero(cfg.line))),
      lookup_(sim, [this](MemRequest*& r) { after_lookup(r); }, "l1d-lookup"),
      outbound_(cfg.miss_queue + cfg.mshr_entries),
      hits_(stats().counter("hits", "load hits", "accesses")),
      misses_(stats().counter("misses", "misses that fetched a line", "accesses")),
      merges_(stats().counter("merges", "misses merged into an MSHR already fetching the line", "accesses")),
      reservation_fails_(stats().counter("reservation_fails", "accesses refused: MSHR or miss queue full", "accesses")),
      writebacks_(stats().counter("writebacks", "dirty lines written back to the L2", "lines")),
      store_hits_(stats().counter("store_hits", "stores that found their line", "accesses")),
      stores_(stats().counter("stores", "store accesses", "accesses")),
      atomics_(stats().counter("atomics", "atomic accesses (forwarded to the L2)", "accesses")),
      mshr_avg_(stats().average("mshr_occupancy", "time-weighted MSHR entries in use", "entries")),
      mshr_occupancy_(mshr_avg_),
      valid_sectors_(static_cast<size_t>(cfg.sets()) * cfg.ways, 0),
      dirty_ways_(cfg.sets(), 0) {}

bool L1DataCache::refuse(const MemRequest* r, bool on_queue) {
    refusal_ = Refusal{r, state_epoch_, queue_epoch_, on_queue};
    refused_ = true;
    ++reservation_fails_;
    return false;
}

bool L1DataCache::access(MemRequest* r) {
    if (refusal_stands(r)) return refuse(r, refusal_.on_queue);
    refusal_.r = nullptr;
    const uint64_t line = r->paddr >> line_shift_;
    const uint32_t set = set_of(line);
    const int way = tags_.find(set, line);
    const bool queue_full = outbound_.size() + outbound_reserved_ >= cfg_.miss_queue;
    // The end of the lookup, asked only once the access is taken: about half of the
    // offers are refused (retries of a full MSHR table) and need no time.
    auto done = [this] { return edge_.edge_after(now(), cfg_.latency); };
    switch (r->op) {
        case MemOp::Read:
            // A line allocated by local stores holds only the sectors they wrote.
            if (way == TagArray::kMiss || (r->sector_mask & ~valid_sectors(set, static_cast<uint32_t>(way))) != 0)
                return miss(r, line);
            ++hits_;
            tags_.touch(set, static_cast<uint32_t>(way));
            lookup_.push(r, done());
            return true;
        case MemOp::Write:
            if (writes_back(*r)) {
                if (way == TagArray::kMiss) {
                    if (r->local && mshr_.find(line) == MshrTable::kNone) {
                        if (!allocate_for_store(r, line, set)) return refuse(r, true);
                        ++stores_;
                        lookup_.push(r, done());
                        return true;
                    }
                    if (!miss(r, line)) return false;
                    ++stores_;
                    return true;
                }
                ++stores_;
                ++store_hits_;
                tags_.touch(set, static_cast<uint32_t>(way));
                mark_dirty(set, static_cast<uint32_t>(way), r->app);
                valid_sectors(set, static_cast<uint32_t>(way)) |= r->sector_mask;
                ++state_epoch_;
                lookup_.push(r, done());
                return true;
            }
            if (queue_full) return refuse(r, true);
            ++stores_;
            if (way != TagArray::kMiss) {
                ++store_hits_;
                tags_.touch(set, static_cast<uint32_t>(way));
            }
            ++outbound_reserved_;
            lookup_.push(r, done());
            return true;
        case MemOp::Atomic:
            if (queue_full) return refuse(r, true);
            ++atomics_;
            if (way != TagArray::kMiss) {
                if (dirty(set, static_cast<uint32_t>(way)))
                    writeback(line, tags_.at(set, static_cast<uint32_t>(way)).app);
                tags_.invalidate(set, static_cast<uint32_t>(way));
                clear_dirty(set, static_cast<uint32_t>(way));
                ++state_epoch_;
            }
            ++outbound_reserved_;
            lookup_.push(r, done());
            return true;
        default:
            throw SimError(name() + ": unexpected " + std::string(to_string(r->op)) + " access from a warp");
    }
}

// Fermi's L1 caches local memory (register spills, per-thread arrays) write-back, while
// sm_20 global stores bypass the L1 to the L2 (PTX ISA manual, the st.wb cache operator;
// NVIDIA's profiler documentation: on compute capability 2.x and later all local memory
// accesses are cached in L1 and L2). A local
// line belongs to one warp slot's frame, so a local store that misses allocates its
// line without fetching it: the sectors it writes become valid, and a later load of any
// other sector fetches the line. The victim, if dirty, is written back first.
bool L1DataCache::allocate_for_store(MemRequest* r, uint64_t line, uint32_t set) {
    const uint32_t v = tags_.victim(set);
    const bool dirty_victim = dirty(set, v);
    if (dirty_victim && outbound_.size() + outbound_reserved_ >= cfg_.miss_queue) return false;
    if (dirty_victim) writeback(tags_.at(set, v).tag, tags_.at(set, v).app);
    tags_.install(set, v, line);
    mark_dirty(set, v, r->app);
    valid_sectors(set, v) = r->sector_mask;
    ++state_epoch_;
    return true;
}

bool L1DataCache::miss(MemRequest* r, uint64_t line) {
    int e = mshr_.find(line);
    if (e != MshrTable::kNone) {
        if (!mshr_.can_merge(e)) return refuse(r, false);
        ++merges_;
        mshr_.add_waiter(e, r);
        ++state_epoch_;
        return true;
    }
    if (mshr_.full()) return refuse(r, false);
    if (outbound_.size() + outbound_reserved_ >= cfg_.miss_queue) return refuse(r, true);
    ++misses_;
    e = mshr_.allocate(line);
    mshr_.add_waiter(e, r);
    ++state_epoch_;
    mshr_occupancy_.set(mshr_.in_use(), now());
    MemRequest* f = sim().requests().get();
    f->app = r->app;
    f->sm = r->sm;
    f->warp = r->warp;
    f->pc = r->pc;
    f->vaddr = r->vaddr & ~static_cast<uint64_t>(cfg_.line - 1);
    f->paddr = line << line_shift_;
    f->size = cfg_.line;
    f->sector_mask = full_sector_mask(cfg_.line);
    f->op = MemOp::Read;
    f->stamp[static_cast<int>(Stage::Issue)] = r->stamp[static_cast<int>(Stage::Issue)];
    f->stamp[static_cast<int>(Stage::TlbDone)] = r->stamp[static_cast<int>(Stage::TlbDone)];
    f->context = this;
    f->tag = (static_cast<uint64_t>(e) << 2) | kFill;
    ++outbound_reserved_;
    lookup_.push(f, edge_.edge_after(now(), cfg_.latency));
    return true;
}

void L1DataCache::after_lookup(MemRequest*& r) {
    r->mark(Stage::L1Done, now());
    bool forward = own(r) || r->op == MemOp::Atomic || (r->op == MemOp::Write && !writes_back(*r));
    if (!forward) {
        client_.l1_complete(r);
        return;
    }
    --outbound_reserved_;
    send_out(r);
}

void L1DataCache::send_out(MemRequest* r) {
    outbound_.push_back(r);
    ++in_flight_;
    ++requests_sent_;
    try_send();
}

void L1DataCache::try_send() {
    while (!outbound_.empty() && !port_.waiting_retry()) {
        if (!port_.send(outbound_.front())) break;
        outbound_.pop_front();
        ++queue_epoch_;
    }
    unblock();
}

void L1DataCache::unblock() {
    if (!refused_) return;
    if (refusal_.r && refusal_stands(refusal_.r)) {
        // The client's first offer would be refusal_.r, refused again (see L1Client).
        refuse(refusal_.r, refusal_.on_queue);
        return;
    }
    refused_ = false;
    client_.l1_unblocked();
}

void L1DataCache::recv_retry(RequestPort&) { try_send(); }

void L1DataCache::writeback(uint64_t line, uint16_t app) {
    MemRequest* w = sim().requests().get();
    fill_line_writeback(*w, line << line_shift_, cfg_.line, app);
    w->context = this;
    w->tag = kWriteback;
    ++writebacks_;
    send_out(w);
}

void L1DataCache::recv_response(MemRequest* r, RequestPort&) {
    --in_flight_;
    if (!own(r)) {  // a forwarded store or atomic, acknowledged by the L2
        client_.l1_complete(r);
        return;
    }
    if ((r->tag & 3) == kWriteback) {
        sim().requests().put(r);
        return;
    }
    fill(r);
}

// Asks the host to start loading the fields of `r` that finishing or retrying it reads
// (everything before the route slots).
static void prefetch_request(const MemRequest* r) {
    constexpr uintptr_t kHostLine = 64;
    const auto first = reinterpret_cast<uintptr_t>(r);
    const uintptr_t last = first + offsetof(MemRequest, route) - 1;
    for (uintptr_t a = first & ~(kHostLine - 1); a <= last; a += kHostLine)
        __builtin_prefetch(reinterpret_cast<const void*>(a));
}

void L1DataCache::fill(MemRequest* f) {
    const int e = static_cast<int>(f->tag >> 2);
    // The accesses this fill answers (their stage stamps are read next), and the access
    // refused last (offered again once the MSHR is freed), have waited since their miss
    // or refusal and are rarely still in the host's caches: their loads overlap the
    // line's installation instead of following it.
    for (uint32_t i = 0; i < mshr_.waiters(e); ++i) prefetch_request(mshr_.waiter(e, i));
    if (refusal_.r) prefetch_request(refusal_.r);
    const uint64_t line = mshr_.key(e);
    const uint32_t set = set_of(line);
    int way = tags_.find(set, line);
    if (way == TagArray::kMiss) {
        uint32_t v = tags_.victim(set);
        if (dirty(set, v)) writeback(tags_.at(set, v).tag, tags_.at(set, v).app);
        tags_.install(set, v, line);
        clear_dirty(set, v);
        way = static_cast<int>(v);
    }
    valid_sectors(set, static_cast<uint32_t>(way)) = full_sector_mask(cfg_.line);
    ++state_epoch_;
    const uint32_t n = mshr_.waiters(e);
    for (uint32_t i = 0; i < n; ++i) {
        MemRequest* r = mshr_.waiter(e, i);
        if (i == 0) {
            // The access that missed first owns the fill's journey through the hierarchy.
            // A select, not a branch: which stages a fill passed varies from fill to fill.
            for (int s = static_cast<int>(Stage::L1Done); s < static_cast<int>(Stage::Complete); ++s)
                r->stamp[s] = f->stamp[s] ? f->stamp[s] : r->stamp[s];
        }
        if (r->op == MemOp::Write) mark_dirty(set, static_cast<uint32_t>(way), r->app);
        client_.l1_complete(r);
    }
    mshr_.release(e);
    ++state_epoch_;
    mshr_occupancy_.set(mshr_.in_use(), now());
    sim().requests().put(f);
    unblock();
}

}  // namespace zng::gpu
