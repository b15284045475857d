#include "gpu_model/l2/l2_bank.hpp"

#include <algorithm>
#include <bit>

#include "gpu_model/common/sector.hpp"
#include "gpu_model/l2/l2_cache.hpp"

namespace zng::gpu {

L2Bank::L2Bank(Simulator& sim, std::string name, const ClockDomain& clock, const L2Config& cfg,
               const L2AddressMap& map, L2Policy& policy, L2Cache& l2, uint32_t index)
    : Component(sim, std::move(name), clock),
      cfg_(cfg),
      map_(map),
      policy_(policy),
      l2_(l2),
      cpu_port_(*this, this->name() + ".in"),
      mem_port_(*this, this->name() + ".mem"),
      tags_(cfg.sets_per_bank(), cfg.ways),
      marks_(cfg.sets_per_bank(), cfg.ways),
      mshr_(cfg.mshr_entries, cfg.mshr_merge),
      line_shift_(static_cast<uint32_t>(std::countr_zero(cfg.line))),
      input_(RingQueue<Queued>::charged(sim.memory_budget(), cfg.input_queue, "L2 banks' input queues")),
      fills_(16),
      unit_fills_(64),
      mem_reads_(RingQueue<MemRequest*>::charged(sim.memory_budget(), cfg.memory_queue, "L2 banks' memory queues")),
      mem_writes_(RingQueue<MemRequest*>::charged(sim.memory_budget(), cfg.memory_queue, "L2 banks' memory queues")),
      index_(index),
      responses_(sim,
                 [this](MemRequest*& r) {
                     if (!r->passed(Stage::L2Done)) r->mark(Stage::L2Done, now());
                     send_response(r);
                 },
                 "l2-response"),
      lookups_(sim,
               [this](MemRequest*& f) {
                   f->mark(Stage::L2Done, now());
                   --mem_reserved_;
                   send_to_memory(f);
               },
               "l2-lookup"),
      hits_(stats().counter("hits", "read hits", "accesses")),
      misses_(stats().counter("misses", "read misses that fetched a line", "accesses")),
      merges_(stats().counter("merges", "misses merged into a fetch in flight", "accesses")),
      write_hits_(stats().counter("write_hits", "stores and write-backs that found their line", "accesses")),
      write_misses_(stats().counter("write_misses", "stores and write-backs that missed", "accesses")),
      atomics_(stats().counter("atomics", "atomic operations performed", "operations")),
      evictions_(stats().counter("evictions", "valid lines replaced", "lines")),
      writebacks_(stats().counter("writebacks", "dirty lines written back to memory", "lines")),
      prefetches_(stats().counter("prefetches", "fills issued by the L2 policy", "fills")),
      prefetch_drops_(stats().counter("prefetch_drops", "policy prefetches dropped for lack of MSHR/queue room", "prefetches")),
      bypassed_writes_(stats().counter("bypassed_writes", "stores sent straight to memory by the policy", "stores")),
      bypass_invalidations_(stats().counter("bypass_invalidations", "lines invalidated by a bypassed store", "lines")),
      bypass_updates_(stats().counter("bypass_updates", "lines a bypassed store wrote in place", "lines")),
      busy_cycles_(stats().counter("busy_cycles", "cycles the bank array was occupied", "cycles")),
      mshr_avg_(stats().average("mshr_occupancy", "time-weighted MSHR entries in use", "entries")),
      mshr_occupancy_(mshr_avg_) {}

bool L2Bank::idle() const {
    return input_.empty() && fills_.empty() && unit_fills_.empty() && mem_reads_.empty() && mem_writes_.empty() && mshr_.in_use() == 0 && mem_in_flight_ == 0 &&
           responses_.empty() && lookups_.empty();
}

// ---- arrival ------------------------------------------------------------------------

bool L2Bank::recv_request(MemRequest* r, ResponsePort&) {
    if (input_.size() >= cfg_.input_queue) {
        refused_ = true;
        return false;
    }
    r->mark(Stage::L2Arrive, now());
    const uint32_t set = set_of(r->paddr);
    prefetch_set(set, false);  // looked up when it reaches the head of input_
    input_.push_back({r, set});
    wake_at(now());
    return true;
}

void L2Bank::wake_at(Tick t) {
    sim().events().schedule_at_most(tick_ev_, std::max(edge_.next_edge(t), busy_until_));
}

void L2Bank::occupy(uint32_t cycles) {
    busy_until_ = edge_.edge_after(now(), cycles ? cycles : 1);
    busy_cycles_ += cycles ? cycles : 1;
}

void L2Bank::array_read() { occupy(1); }

void L2Bank::array_write() {
    if (cfg_.ports == L2Config::Ports::Shared) {
        occupy(cfg_.write_latency);
        return;
    }
    write_free_ = edge_.edge_after(now(), 1);
    ++busy_cycles_;
}

void L2Bank::array_rmw() {
    if (cfg_.ports == L2Config::Ports::Shared) {
        occupy(cfg_.write_latency);
        return;
    }
    array_read();
    array_write();
}

bool L2Bank::install_next_fill() {
    if (!fills_.empty()) {
        const Queued f = fills_.front();
        fills_.pop_front();
        fill(f.r, f.set);
        return true;
    }
    if (!unit_fills_.empty()) {
        const UnitLine ul = unit_fills_.front();
        unit_fills_.pop_front();
        install_unit_line(ul);
        return true;
    }
    return false;
}

void L2Bank::serve_next_input() {
    if (serve(input_.front().r, input_.front().set)) {
        input_.pop_front();
        if (refused_) {
            refused_ = false;
            cpu_port_.retry();
        }
    } else {
        stalled_ = true;
        l2_.bank_stalled(index_, true);
    }
}

bool L2Bank::work_left() const { return !fills_.empty() || !unit_fills_.empty() || (!input_.empty() && !stalled_); }

void L2Bank::tick_read_write() {
    // One fill on the write port and one request on the read port per cycle; a request
    // that writes the array (store, atomic) also needs the write port.
    if (now() >= write_free_) install_next_fill();
    if (now() >= busy_until_ && !input_.empty() && !stalled_ &&
        (input_.front().r->op == MemOp::Read || now() >= write_free_))
        serve_next_input();
    if (work_left()) sim().schedule(tick_ev_, edge_.edge_after(now(), 1));
}

void L2Bank::tick() {
    if (cfg_.ports == L2Config::Ports::ReadWrite) {
        tick_read_write();
        return;
    }
    if (now() < busy_until_) {
        sim().schedule(tick_ev_, busy_until_);
        return;
    }
    if (!install_next_fill() && !input_.empty() && !stalled_) serve_next_input();
    if (work_left()) sim().schedule(tick_ev_, std::max(busy_until_, edge_.edge_after(now(), 1)));
}

// ---- lookups ------------------------------------------------------------------------

bool L2Bank::serve(MemRequest* r, uint32_t set) {
    const uint64_t line = r->paddr >> line_shift_;
    const int way = tags_.find(set, line);
    TagLine* l = way == TagArray::kMiss ? nullptr : &tags_.at(set, static_cast<uint32_t>(way));
    switch (r->op) {
        case MemOp::Read:
            if (!l) return miss(r, line);
            ++hits_;
            tags_.touch(set, static_cast<uint32_t>(way));
            marks_.at(set, static_cast<uint32_t>(way)).set(LineMarks::kAccessed);
            policy_.on_access(*r, &marks_.at(set, static_cast<uint32_t>(way)));
            respond(r, cfg_.read_latency);
            array_read();
            return true;
        case MemOp::Write:
        case MemOp::Writeback:
            // An L1's write-back (a dirty local line) is a store to the L2 like any other:
            // a read-only L2 sends it on as well.
            if (policy_.bypass_write(*r)) {
                // Queued apart from the reads: the input slot frees at once, and a store
                // the back end refuses holds up no read (V-B: small writes are buffered).
                if (!write_room(l && l->dirty && !policy_.bypass_hit_updates() ? 2 : 1)) return false;
                ++bypassed_writes_;
                bool written = false;
                if (l) {
                    // Paper I: "ZnG constructs L2 cache as a read-only cache": the store's
                    // line must not stay stale here.
                    if (policy_.bypass_hit_updates()) {
                        ++bypass_updates_;
                        tags_.touch(set, static_cast<uint32_t>(way));
                        written = true;  // the data is written into the array
                    } else {
                        ++bypass_invalidations_;
                        if (l->dirty) writeback(*l);  // the line's other bytes, ahead of the store
                        policy_.on_evict(*l, marks_.at(set, static_cast<uint32_t>(way)));
                        tags_.invalidate(set, static_cast<uint32_t>(way));
                        marks_.at(set, static_cast<uint32_t>(way)) = {};
                    }
                }
                send_to_memory(r);
                if (written) {
                    array_write();
                } else {
                    array_read();
                }
                return true;
            }
            if (l) {
                ++write_hits_;
                tags_.touch(set, static_cast<uint32_t>(way));
                l->dirty = true;
                l->app = r->app;
                pin_if_redirected(marks_.at(set, static_cast<uint32_t>(way)), *r);
                marks_.at(set, static_cast<uint32_t>(way)).set(LineMarks::kAccessed);
                policy_.on_access(*r, &marks_.at(set, static_cast<uint32_t>(way)));
                respond(r, cfg_.write_latency);
                array_write();
                return true;
            }
            if (r->sector_mask == full_sector_mask(cfg_.line) && mshr_.find(line) == MshrTable::kNone) {
                // The store covers the whole line: allocate without fetching it.
                if (!write_room(1)) return false;  // the write-back the allocation may cause
                ++write_misses_;
                const uint32_t nw = allocate(set, line, *r);
                TagLine& nl = tags_.at(set, nw);
                nl.dirty = true;
                pin_if_redirected(marks_.at(set, nw), *r);
                marks_.at(set, nw).set(LineMarks::kAccessed);
                policy_.on_access(*r, nullptr);
                respond(r, cfg_.write_latency);
                array_write();
                return true;
            }
            return miss(r, line);
        case MemOp::Atomic:
            if (!l) return miss(r, line);
            ++atomics_;
            tags_.touch(set, static_cast<uint32_t>(way));
            l->dirty = true;
            l->app = r->app;
            marks_.at(set, static_cast<uint32_t>(way)).set(LineMarks::kAccessed);
            policy_.on_access(*r, &marks_.at(set, static_cast<uint32_t>(way)));
            respond(r, cfg_.read_latency + cfg_.write_latency);
            array_rmw();
            return true;
        default:
            throw SimError(name() + ": unexpected " + std::string(to_string(r->op)) + " request from the crossbar");
    }
}

bool L2Bank::miss(MemRequest* r, uint64_t line) {
    int e = mshr_.find(line);
    if (e != MshrTable::kNone) {
        if (!mshr_.can_merge(e)) return false;
        mshr_.add_waiter(e, r);
        ++merges_;
    } else if (const auto u = l2_.merge_into_unit(line, r); u != L2Cache::UnitMerge::None) {
        if (u == L2Cache::UnitMerge::Full) return false;
        ++merges_;  // waits on a unit fetch issued by this or another bank
    } else {
        if (mshr_.full() || !read_room(1) || !write_room(1)) return false;  // the fill, and the write-back it may cause
        fetch(line, *r, 0, r);
        ++(r->op == MemOp::Read ? misses_ : r->op == MemOp::Atomic ? atomics_ : write_misses_);
        policy_.on_access(*r, nullptr);
        policy_.on_miss(*r, l2_);  // may turn the fetch into a unit fetch
        last_fetch_ = nullptr;
        occupy(1);
        return true;
    }
    if (r->op == MemOp::Atomic) ++atomics_;
    policy_.on_access(*r, nullptr);
    occupy(1);
    return true;
}

bool L2Bank::fetch(uint64_t line, const MemRequest& cause, uint32_t flags, MemRequest* waiter) {
    const int e = mshr_.allocate(line, flags);
    if (waiter) mshr_.add_waiter(e, waiter);
    mshr_occupancy_.set(mshr_.in_use(), now());
    MemRequest* f = sim().requests().get();
    f->app = cause.app;
    f->sm = cause.sm;
    f->warp = cause.warp;
    f->pc = cause.pc;
    f->vaddr = cause.vaddr & ~static_cast<uint64_t>(cfg_.line - 1);
    f->paddr = line << line_shift_;
    f->size = cfg_.line;
    f->sector_mask = full_sector_mask(cfg_.line);
    f->op = (flags & kPrefetchEntry) ? MemOp::Prefetch : MemOp::Read;
    if (waiter)
        for (int s = 0; s <= static_cast<int>(Stage::L2Arrive); ++s) f->stamp[s] = cause.stamp[s];
    f->context = this;
    f->tag = (static_cast<uint64_t>(e) << 2) | kFill;
    ++mem_reserved_;
    lookups_.push(f, edge_.edge_after(now(), cfg_.read_latency));
    last_fetch_ = f;
    return true;
}

int L2Bank::convert_to_unit(uint64_t demand_line, uint32_t u, uint64_t paddr, uint32_t bytes) {
    const int e = mshr_.find(demand_line);
    MemRequest* f = last_fetch_;
    if (e == MshrTable::kNone || !f || (f->paddr >> line_shift_) != demand_line)
        throw SimError(name() + ": a unit fetch without the demand fetch it replaces");
    for (uint32_t i = 0; i < mshr_.waiters(e); ++i)
        if (l2_.merge_into_unit(demand_line, mshr_.waiter(e, i)) != L2Cache::UnitMerge::Merged)
            throw SimError(name() + ": a unit fetch could not take its demand miss");
    mshr_.release(e);
    const int ue = mshr_.allocate(kUnitKey | u, kUnitEntry);
    f->vaddr -= f->paddr - paddr;
    f->first_offset = static_cast<uint32_t>(f->paddr - paddr);  // the demand line
    f->first_bytes = cfg_.line;
    f->paddr = paddr;
    f->size = bytes;
    f->tag = (static_cast<uint64_t>(ue) << 2) | kUnit;
    f->context = this;
    last_fetch_ = nullptr;
    return ue;
}

void L2Bank::unit_line_arrived(uint32_t u, uint64_t line) {
    prefetch_set(set_of(line << line_shift_), true);  // installed when it reaches the head of unit_fills_
    unit_fills_.push_back({u, line});
    wake_at(now());
}

void L2Bank::release_unit(int e) {
    mshr_.release(e);
    mshr_occupancy_.set(mshr_.in_use(), now());
    unstall();
}

void L2Bank::install_unit_line(const UnitLine& ul) {
    const L2Cache::UnitFetch& uf = l2_.unit(ul.unit);
    const uint64_t paddr = ul.line << line_shift_;
    const uint32_t set = set_of(paddr);
    const int found = tags_.find(set, ul.line);
    uint32_t way;
    if (found == TagArray::kMiss) {
        // Lines other than the demand line are prefetched (tag prefetch bit, IV-B).
        const bool prefetched = ul.line != uf.demand_line;
        way = allocate(set, ul.line, uf.cause);
        marks_.at(set, way).assign(LineMarks::kPrefetched, prefetched);
        policy_.on_fill(ul.line, marks_.at(set, way), prefetched);
        array_write();  // the fill writes the array
    } else {
        // Valid already (a whole-line store allocated it): newer than the unit's copy.
        way = static_cast<uint32_t>(found);
        array_read();
    }
    // Most lines of a unit are prefetched with no request waiting: the per-line count
    // spares them the walk over the unit's waiters, and the walk stops at the last one.
    for (uint32_t left = uf.per_line[ul.line - uf.first_line], i = 0; left > 0; ++i)
        if (uf.waiters[i].first == ul.line) {
            answer(tags_.at(set, way), marks_.at(set, way), uf.waiters[i].second);
            --left;
        }
    l2_.unit_line_done(ul.unit, ul.line);
    unstall();
}

void L2Bank::answer(TagLine& l, LineMarks& m, MemRequest* r) {
    m.set(LineMarks::kAccessed);
    switch (r->op) {
        case MemOp::Read: respond(r, 0); break;
        case MemOp::Atomic:
            l.dirty = true;
            l.app = r->app;
            respond(r, cfg_.write_latency);
            break;
        default:
            l.dirty = true;
            l.app = r->app;
            pin_if_redirected(m, *r);
            respond(r, 0);
            break;
    }
}

bool L2Bank::prefetch(uint64_t paddr, const MemRequest& cause) {
    const uint64_t line = paddr >> line_shift_;
    if (holds(line) || l2_.unit_covers(line)) return false;
    if (mshr_.full() || !read_room(1) || !write_room(1)) {
        ++prefetch_drops_;
        return false;
    }
    fetch(line, cause, kPrefetchEntry, nullptr);
    ++prefetches_;
    return true;
}

// ---- fills and replacement ----------------------------------------------------------

void L2Bank::pin_if_redirected(LineMarks& m, const MemRequest& r) {
    if (!m.pinned() && policy_.pin_write(r)) m.set(LineMarks::kPinned);
}

uint32_t L2Bank::allocate(uint32_t set, uint64_t line, const MemRequest& cause) {
    uint64_t allowed = policy_.fill_ways(cause);
    if (policy_.pins_protected()) {
        // Redirected dirty pages stay while the flash side thrashes; a set holding
        // nothing but pinned lines still gives up its least recently used one.
        const uint64_t all_ways = tags_.ways() >= 64 ? ~0ull : (1ull << tags_.ways()) - 1;
        const uint64_t unpinned = allowed & ~marks_.ways_with(set, LineMarks::kPinned);
        if (unpinned & all_ways) allowed = unpinned;
    }
    const uint32_t v = tags_.victim(set, allowed);
    const TagLine& old = tags_.at(set, v);
    if (old.valid) {
        ++evictions_;
        policy_.on_evict(old, marks_.at(set, v));
        if (old.dirty) writeback(old);
    }
    tags_.install(set, v, line).app = cause.app;
    marks_.at(set, v) = {};
    return v;
}

void L2Bank::fill(MemRequest* f, uint32_t set) {
    const int e = static_cast<int>(f->tag >> 2);
    const uint64_t line = mshr_.key(e);
    const bool prefetched = (mshr_.flags(e) & kPrefetchEntry) != 0;
    const int found = tags_.find(set, line);
    const uint32_t way = found == TagArray::kMiss ? allocate(set, line, *f) : static_cast<uint32_t>(found);
    TagLine& l = tags_.at(set, way);
    LineMarks& m = marks_.at(set, way);
    m.assign(LineMarks::kPrefetched, prefetched);
    policy_.on_fill(line, m, prefetched);
    const uint32_t n = mshr_.waiters(e);
    for (uint32_t i = 0; i < n; ++i) {
        MemRequest* r = mshr_.waiter(e, i);
        if (i == 0 && !prefetched) {
            // The request that missed first owns the fetch's journey to memory and back.
            for (int s = static_cast<int>(Stage::L2Done); s < static_cast<int>(Stage::Complete); ++s)
                if (f->stamp[s]) r->stamp[s] = f->stamp[s];
        }
        answer(l, m, r);
    }
    mshr_.release(e);
    mshr_occupancy_.set(mshr_.in_use(), now());
    sim().requests().put(f);
    array_write();  // the fill writes the array
    unstall();
}

L2Bank::Flushed L2Bank::flush_app(uint16_t app) {
    Flushed out;
    for (uint32_t set = 0; set < tags_.sets(); ++set)
        for (uint32_t way = 0; way < tags_.ways(); ++way) {
            const TagLine& l = tags_.at(set, way);
            if (!l.valid || l.app != app) continue;
            ++out.lines;
            if (l.dirty) {
                ++out.dirty;
                writeback(l);
            }
            policy_.on_evict(l, marks_.at(set, way));  // the line leaves the L2: the policy's prefetch and pin tracking follow
            tags_.invalidate(set, way);
            marks_.at(set, way) = {};
        }
    return out;
}

void L2Bank::writeback(const TagLine& victim) {
    MemRequest* w = sim().requests().get();
    fill_line_writeback(*w, victim.tag << line_shift_, cfg_.line, victim.app);
    w->context = this;
    w->tag = kWriteback;
    ++writebacks_;
    send_to_memory(w);
}

// ---- to and from memory -------------------------------------------------------------

void L2Bank::respond(MemRequest* r, uint32_t delay) { responses_.push(r, edge_.edge_after(now(), delay)); }

void L2Bank::send_to_memory(MemRequest* r) {
    (is_write_op(r->op) ? mem_writes_ : mem_reads_).push_back(r);
    ++mem_in_flight_;
    try_send();
}

void L2Bank::try_send() {
    // Each queue's head is tried on its own: a refused store does not keep a read behind
    // it from the back end, nor the reverse. Passes repeat while one makes progress, so
    // the last attempt of a pass that leaves a request queued was a refusal and the port
    // waits for the back end's retry. A queue refused since the last retry is not tried
    // again while the port still waits for that retry.
    struct Side {
        RingQueue<MemRequest*>* q;
        bool* refused;
    };
    for (bool progress = true; progress;) {
        progress = false;
        for (const Side& s : {Side{&mem_reads_, &reads_refused_}, Side{&mem_writes_, &writes_refused_}}) {
            if (*s.refused && mem_port_.waiting_retry()) continue;
            while (!s.q->empty()) {
                if (!mem_port_.send(s.q->front())) {
                    *s.refused = true;
                    break;
                }
                *s.refused = false;
                s.q->pop_front();
                progress = true;
            }
        }
    }
    unstall();
}

void L2Bank::unstall() {
    if (!stalled_) return;
    stalled_ = false;
    l2_.bank_stalled(index_, false);
    wake_at(now());
}

void L2Bank::recv_retry(RequestPort&) {
    reads_refused_ = writes_refused_ = false;
    try_send();
}

void L2Bank::recv_response(MemRequest* r, RequestPort&) {
    if (r->first_piece) {
        // The demand line of a unit fetch, ahead of the rest (critical word first): the
        // unit is still in flight.
        l2_.unit_first_arrived(static_cast<uint32_t>(mshr_.key(static_cast<int>(r->tag >> 2)) & ~kUnitKey), *r);
        sim().requests().put(r);
        return;
    }
    --mem_in_flight_;
    if (!own(r)) {  // a bypassed store, acknowledged by memory
        respond(r, 0);
        return;
    }
    if ((r->tag & 3) == kWriteback) {
        sim().requests().put(r);
        return;
    }
    if ((r->tag & 3) == kUnit) {
        // No array work here: the unit's lines are written by their owner banks.
        l2_.unit_arrived(static_cast<uint32_t>(mshr_.key(static_cast<int>(r->tag >> 2)) & ~kUnitKey), *r);
        sim().requests().put(r);
        return;
    }
    const uint32_t set = set_of(r->paddr);
    prefetch_set(set, true);  // installed when it reaches the head of fills_
    fills_.push_back({r, set});
    wake_at(now());
}

}  // namespace zng::gpu
