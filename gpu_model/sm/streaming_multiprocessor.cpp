#include "gpu_model/sm/streaming_multiprocessor.hpp"

#include <algorithm>
#include <cassert>

#include "gpu_model/app_runner.hpp"
#include "gpu_model/common/sector.hpp"

namespace zng::gpu {

using trace::MemSpace;
using trace::RecordKind;

StreamingMultiprocessor::StreamingMultiprocessor(Simulator& sim, std::string name, const ClockDomain& clock,
                                                 uint32_t id, const SmConfig& cfg, const L1Config& l1,
                                                 const L1TlbConfig& tlb, Mmu& mmu, RequestLatencyStats& latency,
                                                 const std::function<std::unique_ptr<WarpScheduler>()>& make_scheduler)
    : Component(sim, std::move(name), clock),
      id_(id),
      cfg_(cfg),
      coalescer_(l1.line, kSectorSize),
      local_(id, cfg.max_warps, cfg.local_frame),
      l1_(sim, this->name() + ".l1d", clock, l1, *this),
      tlb_(tlb, mmu, id, *this, stats().sub("l1_tlb")),
      latency_(latency),
      ready_(cfg.schedulers),
      warps_(cfg.max_warps),
      ctas_(cfg.max_ctas),
      sleepers_(cfg.max_warps),
      ldst_(RingQueue<MemRequest*>::charged(sim.memory_budget(), cfg.ldst_queue, "SMs' LD/ST queues")),
      l1_wait_(64),
      tlb_pipe_(sim, [this](MemRequest*& r) { to_l1(r); }, "sm-tlb"),
      instructions_(stats().counter("instructions", "warp instructions issued", "instructions")),
      loads_(stats().counter("loads", "global/local load instructions", "instructions")),
      stores_(stats().counter("stores", "global/local store instructions", "instructions")),
      atomics_(stats().counter("atomics", "atomic instructions", "instructions")),
      shared_(stats().counter("shared", "shared-memory instructions", "instructions")),
      constant_(stats().counter("constant", "constant-memory instructions", "instructions")),
      barriers_(stats().counter("barriers", "barrier instructions", "instructions")),
      ldst_full_(stats().counter("ldst_full_stalls", "scheduler cycles with a ready warp held back: LD/ST queue full", "cycles")) {
    if (mmu.page_shift() < static_cast<uint32_t>(std::countr_zero(l1.line)))
        throw SimError(this->name() + ": pages must not be smaller than L1 lines");
    if (local_.region_end() > trace::kLocalRegionBytes)
        throw SimError(this->name() + ": gpu.sm.local_frame: the local frames of " + std::to_string(id + 1) +
                       " SMs x " + std::to_string(cfg.max_warps) + " warp slots exceed the " +
                       std::to_string(trace::kLocalRegionBytes >> 30) + " GiB local region");
    for (uint32_t i = 0; i < cfg.schedulers; ++i) schedulers_.push_back(make_scheduler());
    for (uint32_t s = 0; s < cfg.max_warps; ++s) free_warps_.set(s);
}

// ---- CTA dispatch -----------------------------------------------------------------

uint32_t StreamingMultiprocessor::cta_registers(const trace::KernelInfo& k) const {
    uint64_t regs = uint64_t{k.regs_per_thread} * k.block.count();
    return regs > 0xffffffffull ? 0xffffffffu : static_cast<uint32_t>(regs);
}

bool StreamingMultiprocessor::fits_empty(const trace::KernelInfo& k, std::string& why) const {
    uint32_t warps = k.warps_per_cta();
    if (warps == 0 || warps > cfg_.max_warps) {
        why = std::to_string(warps) + " warps per CTA (the SM holds " + std::to_string(cfg_.max_warps) + ")";
        return false;
    }
    if (cta_registers(k) > cfg_.registers) {
        why = std::to_string(cta_registers(k)) + " registers per CTA (the SM has " + std::to_string(cfg_.registers) +
              ")";
        return false;
    }
    if (k.shared_mem_bytes > cfg_.shared_memory) {
        why = std::to_string(k.shared_mem_bytes) + " B of shared memory per CTA (the SM has " +
              std::to_string(cfg_.shared_memory) + " B)";
        return false;
    }
    return true;
}

bool StreamingMultiprocessor::can_accept(const trace::KernelInfo& k) const {
    return resident_ctas_ < cfg_.max_ctas && used_warps_ + k.warps_per_cta() <= cfg_.max_warps &&
           used_registers_ + cta_registers(k) <= cfg_.registers &&
           used_shared_ + k.shared_mem_bytes <= cfg_.shared_memory;
}

trace::CtaTrace& StreamingMultiprocessor::cta_buffer() {
    for (auto& c : ctas_)
        if (!c.used) return c.trace;
    throw SimError(name() + ": no free CTA slot for dispatch");
}

void StreamingMultiprocessor::launch_cta(AppRunner& app, const trace::KernelInfo& k) {
    uint32_t idx = 0;
    while (ctas_[idx].used) ++idx;
    CtaSlot& c = ctas_[idx];
    const uint32_t nwarps = static_cast<uint32_t>(c.trace.warps.size());
    if (nwarps == 0 || nwarps > k.warps_per_cta())
        throw trace::TraceError(app.describe() + ": kernel '" + k.name + "' CTA " + std::to_string(c.trace.cta_id) +
                                " has " + std::to_string(nwarps) + " warps; the launch shape gives " +
                                std::to_string(k.warps_per_cta()));
    c.used = true;
    c.app = &app;
    c.live = nwarps;
    c.at_barrier = 0;
    c.registers = cta_registers(k);
    c.shared = k.shared_mem_bytes;
    c.warps_reserved = k.warps_per_cta();
    if (storage_io_) storage_io_->cta_launched(idx);
    ++resident_ctas_;
    used_warps_ += c.warps_reserved;
    used_registers_ += c.registers;
    used_shared_ += c.shared;
    for (uint32_t i = 0; i < nwarps; ++i) {
        uint32_t slot = free_warps_.next(0);
        free_warps_.reset(slot);
        Warp& w = warps_[slot];
        w.cursor = trace::WarpCursor(c.trace.warps[i]);
        w.cta = idx;
        w.index = i;
        w.pending = 0;
        w.compute_left = 0;
        w.own_left = false;
        schedulers_[slot % cfg_.schedulers]->warp_started(slot, next_age_++);
        next_record(w, slot);
        make_ready(slot);
    }
}

// ---- issue ------------------------------------------------------------------------

void StreamingMultiprocessor::trace_error(const Warp& w, const std::string& what) const {
    const CtaSlot& c = ctas_[w.cta];
    throw trace::TraceError((c.app ? c.app->describe() : std::string("trace")) + ": CTA " +
                            std::to_string(c.trace.cta_id) + " warp " + std::to_string(w.index) + ": " + what);
}

void StreamingMultiprocessor::next_record(Warp& w, uint32_t slot) {
    do {
        if (w.cursor.done()) trace_error(w, "records end without an exit");
        try {
            w.cursor.next(w.rec);
        } catch (const trace::TraceError& e) {
            trace_error(w, e.what());
        }
        decoded_ += w.rec.instructions();
        w.compute_left = w.rec.compute;
        w.own_left = w.rec.kind != RecordKind::Compute;
    } while (w.compute_left == 0 && !w.own_left);
    w.nlines = 0;
    if (!w.rec.is_memory()) return;
    if (w.rec.space == MemSpace::Local && !local_.relocate(w.rec, slot))
        trace_error(w, "local access outside the " + std::to_string(local_.frame_bytes()) +
                           " B local frame of a warp slot (gpu.sm.local_frame)");
    if (w.rec.space == MemSpace::Global || w.rec.space == MemSpace::Local)
        w.nlines = coalescer_.coalesce(w.rec, w.lines.data());
}

void StreamingMultiprocessor::sleep(uint32_t slot, Cycle until) {
    warps_[slot].state = WarpState::Sleeping;
    sleepers_.add(until, slot);
}

void StreamingMultiprocessor::make_ready(uint32_t slot) {
    warps_[slot].state = WarpState::Ready;
    ready_[slot % cfg_.schedulers].set(slot);
    wake();
}

void StreamingMultiprocessor::wake() {
    Cycle c = edge_.edge_cycle(now());
    if (ticked_ && c <= last_cycle_) c = last_cycle_ + 1;  // this cycle's issue is over
    const Tick t = clock().cycle_to_tick(c);
    if (!tick_ev_.scheduled() || tick_ev_.when() > t) schedule_tick(c);
}

void StreamingMultiprocessor::schedule_tick(Cycle c) {
    tick_cycle_ = c;
    sim().schedule(tick_ev_, clock().cycle_to_tick(c));
}

void StreamingMultiprocessor::tick() {
    // The tick fires at the edge of the cycle it was scheduled for.
    const Cycle cycle = tick_cycle_;
    assert(clock().cycle_to_tick(cycle) == now());
    last_cycle_ = cycle;
    ticked_ = true;
    sleepers_.wake_due(cycle, [this](uint32_t slot) {
        warps_[slot].state = WarpState::Ready;
        ready_[slot % cfg_.schedulers].set(slot);
    });
    bool any_ready = false;
    for (uint32_t k = 0; k < cfg_.schedulers; ++k) {
        // A scheduler without a ready warp has nothing to pick or park (most ticks only
        // move the LD/ST queue on).
        if (!ready_[k].any()) continue;
        WarpScheduler& sched = *schedulers_[k];
        for (uint32_t n = 0; n < cfg_.issue_width; ++n) {
            WarpMask cand = issuable(k);
            uint32_t slot = WarpMask::kNone;
            while (cand.any()) {
                uint32_t s = sched.pick(cand);
                if (s == WarpMask::kNone) break;
                if (issue(s, cycle)) {
                    slot = s;
                    break;
                }
                cand.reset(s);
            }
            if (slot == WarpMask::kNone) break;
            sched.issued(slot);
        }
        any_ready = any_ready || ready_[k].any();
    }
    drain_ldst();
    unpark();
    for (uint32_t k = 0; k < cfg_.schedulers && !any_ready; ++k) any_ready = ready_[k].any();
    if (any_ready || (!ldst_.empty() && !ldst_blocked_)) {
        schedule_tick(cycle + 1);
    } else if (!sleepers_.empty()) {
        schedule_tick(sleepers_.earliest());
    }
}

const WarpMask& StreamingMultiprocessor::issuable(uint32_t k) {
    const size_t room = cfg_.ldst_queue - ldst_.size();
    WarpMask& ready = ready_[k];
    if (room >= Coalescer::kMaxLines) return ready;
    // Park the warps whose memory instruction does not fit in the LD/ST queue: they
    // leave the candidates until the queue has drained enough (see unpark), so a full
    // queue costs nothing per cycle.
    bool parked = false;
    for (uint32_t s = ready.next(0); s != WarpMask::kNone; s = ready.next(s + 1)) {
        const Warp& w = warps_[s];
        if (w.compute_left == 0 && w.nlines > room) {
            ready.reset(s);
            parked_.set(s);
            parked_min_lines_ = std::min(parked_min_lines_, w.nlines);
            parked = true;
        }
    }
    if (parked) ++ldst_full_;
    return ready;
}

void StreamingMultiprocessor::unpark() {
    if (!parked_.any() || cfg_.ldst_queue - ldst_.size() < parked_min_lines_) return;
    for (uint32_t s = parked_.next(0); s != WarpMask::kNone; s = parked_.next(s + 1))
        ready_[s % cfg_.schedulers].set(s);
    parked_ = WarpMask{};
    parked_min_lines_ = ~0u;
}

bool StreamingMultiprocessor::issue(uint32_t slot, Cycle cycle) {
    Warp& w = warps_[slot];
    CtaSlot& cta = ctas_[w.cta];
    const bool folded = w.compute_left > 0;
    if (!folded && w.rec.is_memory() && w.nlines > cfg_.ldst_queue - ldst_.size()) {
        ++ldst_full_;
        return false;
    }
    // Committed: the instruction issues this cycle.
    ready_[slot % cfg_.schedulers].reset(slot);
    ++instructions_;
    cta.app->count_instruction();
    if (observer_) observer_(id_, slot, w.rec.pc, cycle);

    if (folded) {
        // A folded compute instruction; the record's own instruction, if any, follows.
        if (--w.compute_left == 0 && !w.own_left) next_record(w, slot);
        sleep(slot, cycle + cfg_.compute_latency);
        return true;
    }
    w.own_left = false;
    switch (w.rec.kind) {
        case RecordKind::Load:
        case RecordKind::Store:
        case RecordKind::Atomic:
            if (w.rec.space == MemSpace::Shared || w.rec.space == MemSpace::Constant) {
                ++(w.rec.space == MemSpace::Shared ? shared_ : constant_);
                uint32_t lat = w.rec.space == MemSpace::Shared ? cfg_.shared_latency : cfg_.constant_latency;
                next_record(w, slot);
                sleep(slot, cycle + lat);
                return true;
            }
            issue_memory(w, slot);
            return true;
        case RecordKind::Barrier:
            ++barriers_;
            next_record(w, slot);
            w.state = WarpState::AtBarrier;
            ++cta.at_barrier;
            check_barrier(w.cta);
            return true;
        case RecordKind::Exit:
            warp_exit(slot);
            return true;
        case RecordKind::Phase:
            // Work given as a time: the warp stays resident and issues nothing until the
            // first edge at or after the phase's end.
        {
            const Tick end = clock().cycle_to_tick(cycle) + w.rec.duration_ps;
            next_record(w, slot);
            sleep(slot, clock().edge_cycle(end));
            return true;
        }
        case RecordKind::IoSubmit:
        case RecordKind::IoWait:
            if (storage_io_) return issue_storage_io(w, slot, cycle);
            trace_error(w, std::string(trace::to_string(w.rec.kind)) +
                               " record: GPU-issued storage I/O needs a platform with a storage path, and this "
                               "one has none");
        case RecordKind::Compute:
            break;
    }
    trace_error(w, "record of unknown kind");
}

void StreamingMultiprocessor::issue_memory(Warp& w, uint32_t slot) {
    const trace::WarpRecord& rec = w.rec;
    const MemOp op = rec.kind == RecordKind::Load    ? MemOp::Read
                     : rec.kind == RecordKind::Store ? MemOp::Write
                                                     : MemOp::Atomic;
    ++(op == MemOp::Read ? loads_ : op == MemOp::Write ? stores_ : atomics_);
    AppRunner* app = ctas_[w.cta].app;
    RequestPool& pool = sim().requests();
    for (uint32_t i = 0; i < w.nlines; ++i) {
        MemRequest* r = pool.get();
        r->app = app->id();
        r->sm = static_cast<uint16_t>(id_);
        r->warp = id_ * cfg_.max_warps + slot;
        r->pc = rec.pc;
        r->vaddr = w.lines[i].line;
        r->sector_mask = w.lines[i].sectors;
        r->size = coalescer_.bytes(w.lines[i].sectors);
        r->op = op;
        r->local = rec.space == MemSpace::Local;
        r->context = app;
        r->tag = slot;
        r->mark(Stage::Issue, now());
        bytes_requested_ += r->size;
        ++in_flight_;
        app->request_issued();
        ldst_.push_back(r);
    }
    const Cycle cycle = last_cycle_;
    if (op == MemOp::Write || w.nlines == 0) {
        next_record(w, slot);
        sleep(slot, cycle + 1);
        return;
    }
    w.pending = w.nlines;
    w.state = WarpState::WaitMem;
    next_record(w, slot);
}

void StreamingMultiprocessor::check_barrier(uint32_t idx) {
    CtaSlot& c = ctas_[idx];
    if (c.at_barrier == 0 || c.at_barrier < c.live) return;
    c.at_barrier = 0;
    const Cycle next = last_cycle_ + 1;
    for (uint32_t s = 0; s < cfg_.max_warps; ++s) {
        Warp& w = warps_[s];
        if (!free_warps_.test(s) && w.cta == idx && w.state == WarpState::AtBarrier) {
            sleep(s, next);
        }
    }
    wake();
}

void StreamingMultiprocessor::warp_exit(uint32_t slot) {
    Warp& w = warps_[slot];
    const uint32_t idx = w.cta;
    CtaSlot& c = ctas_[idx];
    w.state = WarpState::Free;
    free_warps_.set(slot);
    --c.live;
    if (c.live > 0) {
        check_barrier(idx);
        return;
    }
    // The CTA is done: free its resources, then let its application launch more.
    AppRunner* app = c.app;
    c.used = false;
    c.app = nullptr;
    --resident_ctas_;
    used_registers_ -= c.registers;
    used_shared_ -= c.shared;
    used_warps_ -= c.warps_reserved;
    app->cta_finished();
}

// ---- storage I/O (gpu_model/sm/warp_storage_io.hpp) ---------------------------------

void StreamingMultiprocessor::set_storage_io(StorageIoService* service) {
    if (!service) {
        storage_io_.reset();
        return;
    }
    storage_io_ = std::make_unique<WarpStorageIo>(
        sim(), *service, id_, cfg_.max_warps, cfg_.max_ctas, [this](uint32_t slot) {
            if (warps_[slot].state != WarpState::WaitIo)
                throw SimError(name() + ": storage I/O resumed warp slot " + std::to_string(slot) +
                               " that is not waiting");
            make_ready(slot);
        });
    storage_io_->register_stats(stats().sub("storage_io"));
}

// An io_submit goes on like a store once its requests are taken; an io_wait goes on at
// once when its group has nothing outstanding. Otherwise the warp blocks (WaitIo) until
// WarpStorageIo resumes it. A polling io_wait keeps the record and issues it again at
// the first edge one poll interval later (each issue is one poll instruction).
bool StreamingMultiprocessor::issue_storage_io(Warp& w, uint32_t slot, Cycle cycle) {
    using Wait = WarpStorageIo::Wait;
    const Wait r = w.rec.kind == RecordKind::IoSubmit
                       ? (storage_io_->submit(slot, w.cta, ctas_[w.cta].app->id(), id_ * cfg_.max_warps + slot, w.rec)
                              ? Wait::Go
                              : Wait::Blocked)
                       : storage_io_->wait(slot, w.cta, w.rec.io_tag);
    if (r == Wait::Poll) {
        // The loop's next poll: one more instruction than the trace's record holds.
        ++decoded_;
        w.own_left = true;
        sleep(slot, clock().edge_cycle(clock().cycle_to_tick(cycle) + storage_io_->poll_interval()));
        return true;
    }
    next_record(w, slot);
    if (r == Wait::Go)
        sleep(slot, cycle + 1);
    else
        w.state = WarpState::WaitIo;
    return true;
}

// ---- memory path ------------------------------------------------------------------

void StreamingMultiprocessor::drain_ldst() {
    for (uint32_t n = 0; n < cfg_.ldst_width && !ldst_.empty() && !ldst_blocked_; ++n) {
        MemRequest* r = ldst_.front();
        L1Tlb::Result res = tlb_.lookup(r);
        if (res == L1Tlb::Result::Stall) {
            ldst_blocked_ = true;
            break;
        }
        ldst_.pop_front();
        // In a tick, now is the edge of last_cycle_.
        if (res == L1Tlb::Result::Hit) tlb_pipe_.push(r, clock().cycle_to_tick(last_cycle_ + tlb_.latency()));
    }
}

void StreamingMultiprocessor::to_l1(MemRequest* r) {
    r->mark(Stage::TlbDone, now());
    if (l1_wait_.empty() && l1_.access(r)) return;
    l1_wait_.push_back(r);
}

void StreamingMultiprocessor::translated(MemRequest* r) { to_l1(r); }

void StreamingMultiprocessor::tlb_unblocked() {
    if (!ldst_blocked_) return;
    ldst_blocked_ = false;
    wake();
}

void StreamingMultiprocessor::l1_unblocked() {
    while (!l1_wait_.empty()) {
        // When the first is taken the second is offered, usually to be refused: its
        // address is read at once, and it has waited long enough to have left the host's
        // caches. Its load overlaps the first one's miss handling.
        if (l1_wait_.size() > 1) __builtin_prefetch(&l1_wait_[1]->paddr);
        if (!l1_.access(l1_wait_.front())) break;
        l1_wait_.pop_front();
    }
}

void StreamingMultiprocessor::l1_complete(MemRequest* r) {
    r->mark(Stage::Complete, now());
    latency_.record(*r);
    bytes_delivered_ += r->size;
    --in_flight_;
    auto* app = static_cast<AppRunner*>(r->context);
    if (r->op != MemOp::Write) {
        uint32_t slot = static_cast<uint32_t>(r->tag);
        Warp& w = warps_[slot];
        if (w.state != WarpState::WaitMem || w.pending == 0)
            throw SimError(name() + ": response for warp slot " + std::to_string(slot) + " that is not waiting");
        if (--w.pending == 0) make_ready(slot);
    }
    sim().requests().put(r);
    app->request_done();
}

}  // namespace zng::gpu
