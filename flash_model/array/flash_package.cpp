#include "flash_model/array/flash_package.hpp"

#include <fmt/format.h>

#include <bit>
#include <utility>

#include "sim/core/errors.hpp"

namespace zng::flash {

namespace {
uint64_t park_key(uint32_t plane, uint32_t block) { return (static_cast<uint64_t>(plane) << 32) | block; }
}  // namespace

FlashPackage::FlashPackage(Simulator& sim, std::string name, const ClockDomain& iface, FlashShared& shared,
                           uint32_t channel, uint32_t package_in_channel)
    : Component(sim, std::move(name), iface),
      sh_(shared),
      iface_(iface),
      channel_(channel),
      package_(package_in_channel),
      endpoint_(shared.package_endpoint(channel * shared.spec.geometry.packages_per_channel() + package_in_channel)),
      port_is_network_(shared.network->carries_package_io()),
      planes_(charged_planes(sim.memory_budget(), shared.spec)),
      dies_(shared.spec.geometry.planes_per_package() / shared.spec.geometry.planes_per_die()),
      sense_busy_(stats().counter("sense_busy_ps", "plane time sensing (tR, with the decoder search), summed over planes",
                                  "ps")),
      program_busy_(stats().counter("program_busy_ps", "plane time programming (tPROG), summed over planes", "ps")),
      erase_busy_(stats().counter("erase_busy_ps", "plane time erasing (tBERS), summed over planes", "ps")),
      read_wait_(stats().average("read_wait",
                                 "time from a demand read's acceptance by its controller to the start of its "
                                 "service here (its sense, or a register or page-buffer hit)",
                                 "ns")),
      read_wait_programming_(stats().counter(
          "read_wait_programming_ps",
          "of read_wait, summed over reads: the time the read's die spent programming or erasing meanwhile (a die "
          "senses nothing while it programs)",
          "ps")),
      demand_waiting_((shared.spec.geometry.planes_per_package() + 63) / 64),
      decoders_(shared.spec.geometry.planes_per_package(),
                ProgrammableRowDecoder(shared.spec.geometry.pages_per_block())),
      regs_(shared.spec.geometry.planes_per_package(), shared.spec.registers_per_plane, shared.spec.grouping,
            register_replacement_slot().create(shared.spec.register_replacement, shared.spec.register_replacement_path,
                                               "lru")),
      interconnect_(register_interconnect_slot().create(shared.spec.register_interconnect,
                                                        shared.spec.register_interconnect_path, "nif", sim,
                                                        shared.spec.geometry.planes_per_package())),
      thrash_(shared.spec.thrashing, static_cast<uint32_t>(regs_.size()), sim.memory_budget()),
      free_ports_(shared.spec.io_ports_per_package),
      staged_generation_(regs_.size(), 0),
      staged_program_(shared.spec.program_pipeline
                          ? shared.spec.geometry.planes_per_package()
                          : shared.spec.geometry.planes_per_package() / shared.spec.geometry.planes_per_die(),
                      kNoStagedProgram),
      lane_entries_(staged_program_.size(), 0),
      events_(sim, [this](Ev& e) { on_event(e); }, "flash-package") {
    const uint32_t index = endpoint_ - sh_.controllers;  // endpoint_ = package_endpoint(index)
    if (sh_.packages.size() <= index) sh_.packages.resize(index + 1, nullptr);
    sh_.packages[index] = this;
    // A dirty page whose log group is being merged, or whose log block is full, cannot
    // be programmed until a merge ends (the log block is about to be erased, or has no
    // free page): the register keeps it, still serving hits, and background programs
    // and victim choice take other registers first.
    regs_.set_program_held([this](uint64_t tag) {
        if (!sh_.log_map) return false;
        const uint32_t plane = FlashRegisterFile::tag_plane(tag);
        const FlashAddress a = page_address(plane, FlashRegisterFile::tag_block(tag), FlashRegisterFile::tag_page(tag));
        if (sh_.log_map->merge_pending(a)) return true;
        const uint32_t log = sh_.log_map->open_log_block(a);
        return log != LogBlockMap::kNoLogBlock && decoders_[plane].log_full(log);
    });
    // A program starts at once on a plane with no array operation running or queued whose
    // die may program now and has no other program on its way; a victim elsewhere keeps
    // its miss waiting up to tPROG.
    regs_.set_plane_free([this](uint32_t plane) {
        const Plane& pl = planes_[plane];
        return !pl.busy && !pl.buffer_holding && pl.array.empty() && pl.firmware_array.empty() &&
               die_allows(plane, ArrayOp::Program) && dies_[die_of(plane)].programs_coming == 0;
    });
}

uint32_t FlashPackage::charged_planes(MemoryBudget& budget, const FlashSpec& spec) {
    const uint32_t planes = spec.geometry.planes_per_package();
    budget.reserve(1, sizeof(FlashPackage), "flash packages");
    // A plane's queues, row decoder, staging lane and lane count; each register's staging
    // generation.
    budget.reserve(planes, sizeof(Plane) + sizeof(ProgrammableRowDecoder) + 2 * sizeof(uint32_t),
                   "flash planes' queues and row decoders");
    budget.reserve(1,
                   FlashRegisterFile::upfront_bytes(planes, spec.registers_per_plane) +
                       uint64_t{planes} * spec.registers_per_plane * sizeof(uint32_t),
                   "flash registers' state");
    return planes;
}

void FlashPackage::fail(const std::string& what) const {
    throw SimError(fmt::format("{} at {} ps: {}", name(), now(), what));
}

FlashAddress FlashPackage::page_address(uint32_t plane, uint32_t block, uint32_t page) const {
    FlashAddress a;
    a.channel = channel_;
    a.package = package_;
    a = sh_.spec.geometry.with_plane_in_package(a, plane);
    a.block = block;
    a.page = page;
    return a;
}

uint64_t FlashPackage::busy_planes() const {
    uint64_t n = 0;
    for (const auto& p : planes_) n += p.busy || !p.array.empty() || !p.firmware_array.empty() || !p.demand.empty();
    return n;
}

void FlashPackage::receive(const FlashMessage& m) {
    if (m.kind == static_cast<uint8_t>(MsgKind::Migrate)) {
        // The page is back from the controller's buffer: move it into the register.
        sh_.txns[m.tag].migrate_phase = 2;
        port_transfer(m.tag, static_cast<uint32_t>(sh_.spec.geometry.page_size()));
        return;
    }
    FlashTxn& t = sh_.txns[m.tag];
    t.plane = sh_.spec.geometry.plane_in_package(t.addr);
    switch (t.kind) {
        case TxnKind::DemandRead:
        case TxnKind::DemandWrite:
            planes_[t.plane].demand.push_back(m.tag);
            set_demand_waiting(t.plane, true);
            process_plane(t.plane);
            break;
        case TxnKind::OpRead:
            t.target = t.addr;
            planes_[t.plane].firmware_array.push_back(m.tag);
            start_array(t.plane);
            break;
        case TxnKind::OpProgram:
            t.target = t.addr;
            port_transfer(m.tag, t.bytes);  // data into the page buffer, then the array
            break;
        case TxnKind::OpErase:
            t.target = t.addr;
            port_transfer(m.tag, 0);  // the command cycles only
            break;
        case TxnKind::Evict: fail("an eviction arrived from the network");
    }
}

void FlashPackage::process_plane(uint32_t p) {
    auto& q = planes_[p].demand;
    while (!q.empty() && admit(q.front())) q.pop_front();
    if (!sh_.spec.reads_keep_pages) {
        // III-C: the registers are the write buffer and a read is sensed into the page
        // buffer, so a read need not wait behind a write waiting for a register: it goes
        // first unless an earlier write to its page is still waiting (it must see it).
        for (size_t i = 1; i < q.size();) {
            const FlashTxn& t = sh_.txns[q[i]];
            bool after_write = false;
            for (size_t j = 0; j < i && !after_write; ++j) {
                const FlashTxn& w = sh_.txns[q[j]];
                after_write = w.kind == TxnKind::DemandWrite && w.addr.same_page(t.addr);
            }
            if (t.kind == TxnKind::DemandRead && !after_write && admit(q[i])) {
                q.erase_at(i);
            } else {
                ++i;
            }
        }
    }
    if (q.empty()) set_demand_waiting(p, false);
    start_array(p);
}

void FlashPackage::kick_waiting() {
    // Planes in index order, each once, as a pass over every plane would take them: a
    // plane whose queue fills while a later one is processed waits for the next kick.
    for (uint32_t w = 0; w < demand_waiting_.size(); ++w) {
        uint64_t visited = 0;
        while (const uint64_t left = demand_waiting_[w] & ~visited) {
            const uint32_t b = static_cast<uint32_t>(std::countr_zero(left));
            visited |= b == 63 ? ~uint64_t{0} : (uint64_t{2} << b) - 1;
            const uint32_t p = w * 64 + b;
            if (planes_[p].demand.empty()) {
                set_demand_waiting(p, false);
            } else {
                process_plane(p);
            }
        }
    }
}

bool FlashPackage::admit(uint32_t id) {
    FlashTxn& t = sh_.txns[id];
    uint64_t tag = FlashRegisterFile::make_tag(t.plane, t.addr.block, t.addr.page);
    int r = regs_.find(tag);
    if (r >= 0) {
        if (regs_.busy(static_cast<uint32_t>(r))) return false;  // its data is moving; retried when it settles
        regs_.set_busy(static_cast<uint32_t>(r), true);
        regs_.touch(static_cast<uint32_t>(r));
        t.reg = r;
        if (t.req) t.req->mark(Stage::MediumStart, now());
        if (t.kind == TxnKind::DemandRead && (t.chunks & ~regs_[static_cast<uint32_t>(r)].chunks) != 0 &&
            holds_data(t.plane, t.addr.block, t.addr.page)) {
            // The register holds only written parts of the page and the read wants
            // others: the page is sensed and merged under the written data.
            ++*sh_.c.register_misses;
            planes_[t.plane].array.push_back(id);
            return true;
        }
        if (t.kind == TxnKind::DemandRead) {
            ++*sh_.c.register_read_hits;
            read_service_starts(t);
        } else {
            ++*sh_.c.register_write_hits;
        }
        port_transfer(id, t.bytes);
        return true;
    }
    if (t.evicting >= 0) {
        // Retried while the register emptied for it is still being programmed: waiting is
        // all it may do, else every retry would evict one more dirty page. Unless that
        // program waits for a merge (the log block ran out between the choice and the
        // program, or every register held such a page): the demand then takes only a
        // register whose program can run, rather than wait for the merge, which may be
        // another application's (paper V-D: GC "does not block other applications such
        // as betw"). The held program goes on without it.
        const auto e = static_cast<uint32_t>(t.evicting);
        if (regs_.busy(e) && !regs_.program_held(e)) return false;
        // Programmed: it takes that register or, if another miss did, a new one.
        t.evicting = regs_.busy(e) ? FlashTxn::kVictimHeld : -1;
    }
    const bool clean_only = t.kind == TxnKind::DemandRead && !sh_.spec.reads_take_dirty_registers;
    const bool page_buffer_only = t.kind == TxnKind::DemandRead && !sh_.spec.reads_keep_pages;
    const int v = page_buffer_only ? -1 : regs_.victim(t.plane, clean_only, t.evicting == FlashTxn::kVictimHeld);
    if ((clean_only || page_buffer_only) && v < 0) {
        // Paper III-C: "ZnG assigns GPU L2 cache and Z-NAND internal registers as read
        // and write buffers, respectively": a read is no reason to program buffered
        // writes. It is sensed into its plane's page buffer (ONFI READ PAGE: array to
        // page register, data out from there) and not kept in a register.
        return admit_to_page_buffer(id, tag);
    }
    if (v < 0) return false;  // every usable register is busy (or waits for a merge)
    if (regs_[v].dirty) {
        // No clean register: this miss programs a dirty one of its own, whatever other
        // programs are under way. Each die has its own ready/busy state and runs its
        // program while the others run theirs (ONFI: LUNs of a target operate
        // independently), so misses of different planes waiting for registers are not
        // served one 100 us program after another for the whole package.
        t.evicting = v;  // before start_evict: allocating its transaction may move `t`
        start_evict(static_cast<uint32_t>(v));
        return false;  // retried once the victim is clean
    }
    ++*sh_.c.register_misses;
    if (t.kind == TxnKind::DemandWrite) note_write_miss(tag);
    regs_.fill(static_cast<uint32_t>(v), tag);
    regs_.set_busy(static_cast<uint32_t>(v), true);
    t.reg = v;
    // A write miss takes the register with no chunk valid: the old page is sensed only
    // if the register is programmed partly written (start_evict), unless
    // write_miss_sense asks for the sense at the miss.
    if (t.kind == TxnKind::DemandRead || sh_.spec.write_miss_sense) {
        planes_[t.plane].array.push_back(id);
    } else {
        if (t.req) t.req->mark(Stage::MediumStart, now());
        port_transfer(id, t.bytes);
    }
    return true;
}

bool FlashPackage::admit_to_page_buffer(uint32_t id, uint64_t tag) {
    FlashTxn& t = sh_.txns[id];
    Plane& pl = planes_[t.plane];
    if (pl.buffer_reserved) return false;  // another read's page is on its way out; retried when it has left
    pl.buffer_reserved = true;
    t.reg = -1;
    if (pl.buffer_valid && pl.buffer_tag == tag) {
        ++*sh_.c.page_buffer_hits;
        read_service_starts(t);
        pl.buffer_holding = true;
        if (t.req) t.req->mark(Stage::MediumStart, now());
        port_transfer(id, t.bytes);
        return true;
    }
    ++*sh_.c.page_buffer_reads;
    pl.array.push_back(id);
    return true;
}

bool FlashPackage::holds_data(uint32_t plane, uint32_t block, uint32_t page) const {
    ProgrammableRowDecoder::Row row = decoders_[plane].resolve(block, page);
    return sh_.blocks.page_programmed(page_address(plane, row.block, row.page));
}

void FlashPackage::maybe_flush(uint32_t plane) {
    flush_above_watermark(plane);
    if (sh_.spec.stages_writes()) drain_staged();
}

void FlashPackage::resume_held() {
    for (uint32_t p = 0; p < planes_.size(); ++p) flush_above_watermark(p);
    if (sh_.spec.stages_writes()) drain_staged();
    kick_waiting();
}

void FlashPackage::flush_above_watermark(uint32_t plane) {
    // Dirty registers above the watermark are programmed in the background, so that a
    // miss finds a clean register instead of waiting for a program.
    const auto limit = static_cast<uint32_t>(sh_.spec.dirty_watermark * regs_.group_size());
    while (regs_.unflushed(plane) > limit) {
        int r = regs_.dirty_victim(plane);
        if (r < 0) return;
        ++*sh_.c.background_programs;
        start_evict(static_cast<uint32_t>(r));
    }
}

void FlashPackage::stage(uint32_t reg) {
    // Seed 004 III-A: "for each write request, the application writes the data to the NLS
    // and adds a data migration task to the pool; the library then executes the data
    // migration tasks from the pool one by one": the store is acknowledged from the
    // register, and its page waits here for a program in the background.
    const uint32_t lane = staging_lane(FlashRegisterFile::tag_plane(regs_[reg].tag));
    staged_.push_back({reg, ++staged_generation_[reg], lane});
    change_lane(lane, [&] { ++lane_entries_[lane]; });
}

void FlashPackage::unstage_at(size_t i) {
    const uint32_t lane = staged_[i].lane;
    staged_.erase_at(i);
    change_lane(lane, [&] { --lane_entries_[lane]; });
}

void FlashPackage::drain_staged() {
    // A program started here may end at once (a retired block) and come back here.
    if (draining_) {
        drain_again_ = true;
        return;
    }
    draining_ = true;
    do {
        drain_again_ = false;
        for (size_t i = 0; i < staged_.size() && ready_lanes_ != 0;) {
            const StagedPage s = staged_[i];
            // One queued page in programming per staging lane (die, or plane in a
            // pipeline), so that the pages after it stay readable in their registers
            // until their turn; a page that may not be programmed now (the register
            // taking the stores, unless in a pipeline; held by a merge; or busy) keeps
            // its place and the next one goes. The entries of a busy lane wait unread.
            if (staged_program_[s.lane] != kNoStagedProgram) {
                ++i;
                continue;
            }
            if (s.generation != staged_generation_[s.reg] || !regs_[s.reg].dirty) {
                unstage_at(i);  // programmed already (evicted by a miss): nothing left to migrate
                continue;
            }
            if (!regs_.background_programmable(s.reg, sh_.spec.program_pipeline)) {
                ++i;
                continue;
            }
            unstage_at(i);
            ++*sh_.c.background_programs;
            start_evict(s.reg, true);
        }
    } while (drain_again_);
    draining_ = false;
}

void FlashPackage::start_evict(uint32_t reg, bool staged) {
    FlashRegister& g = regs_[reg];
    regs_.set_busy(reg, true);
    regs_.set_programming(reg, true);
    ++*sh_.c.evictions;
    if (sh_.spec.thrashing.enabled) thrash_.on_evict(g.tag);
    uint32_t id = sh_.txns.alloc();
    FlashTxn& e = sh_.txns[id];
    e.kind = TxnKind::Evict;
    e.plane = FlashRegisterFile::tag_plane(g.tag);
    if (staged) {
        const uint32_t lane = staging_lane(e.plane);
        change_lane(lane, [&] { staged_program_[lane] = id; });
    }
    e.addr = page_address(e.plane, FlashRegisterFile::tag_block(g.tag), FlashRegisterFile::tag_page(g.tag));
    e.reg = static_cast<int32_t>(reg);
    e.bytes = static_cast<uint32_t>(sh_.spec.geometry.page_size());
    e.program_coming = 1;
    ++dies_[die_of(e.plane)].programs_coming;
    // A program writes a whole page: a partly written register over a page that holds
    // data first senses the old page (tR) and merges it under the written chunks.
    if (g.chunks != sh_.spec.full_chunk_mask() && holds_data(e.plane, e.addr.block, e.addr.page)) {
        e.merge_sense = 1;
        planes_[e.plane].array.push_back(id);
        start_array(e.plane);
        return;
    }
    continue_evict(id);
}

void FlashPackage::continue_evict(uint32_t id) {
    FlashTxn& e = sh_.txns[id];
    const uint32_t home = regs_[static_cast<uint32_t>(e.reg)].home_plane;
    if (home != e.plane) {
        ++*sh_.c.migrations;
        interconnect_->migrate(*this, home, e.plane, e.bytes, id);
    } else {
        program_log(id);
    }
}

void FlashPackage::migration_done(uint32_t id) {
    FlashTxn& t = sh_.txns[id];
    if (t.kind == TxnKind::Evict) {
        program_log(id);
    } else {
        after_sense(id);
    }
}

void FlashPackage::migration_done_at(uint32_t id, Tick when) { events_.push({EvKind::Migrated, id, 0}, when); }

void FlashPackage::migrate_through_controller(uint32_t id) {
    sh_.txns[id].migrate_phase = 1;
    port_transfer(id, static_cast<uint32_t>(sh_.spec.geometry.page_size()));
}

void FlashPackage::program_log(uint32_t id) {
    FlashTxn& e = sh_.txns[id];
    if (e.program_coming) {  // the page has reached its plane (a held program comes back here)
        e.program_coming = 0;
        --dies_[die_of(e.plane)].programs_coming;
    }
    if (!sh_.log_map) fail("a dirty register must be programmed but no log-block map is installed");
    if (sh_.log_map->wait_for_merge(e.addr, [this, id] { program_log(id); })) {
        ++*sh_.c.evictions_held_for_merge;
        kick_waiting();  // a miss waiting for this program now takes another register
        return;
    }
    uint32_t log = sh_.log_map->log_block_for(e.addr);
    if (log == LogBlockMap::kRetiredBlock) {
        finish_evict(id);  // a late write-back to a retired data block: nothing to keep
        return;
    }
    if (log >= sh_.spec.geometry.blocks_per_plane())
        fail(fmt::format("the log-block map returned block {} for {} (the plane has {} blocks)", log,
                         e.addr.to_string(), sh_.spec.geometry.blocks_per_plane()));
    ProgrammableRowDecoder& d = decoders_[e.plane];
    if (d.log_full(log)) {
        auto [it, first] = parked_.try_emplace(park_key(e.plane, log));
        it->second.push_back(id);
        if (first) {
            ++*sh_.c.merges_requested;
            uint32_t plane = e.plane;
            sh_.log_map->log_block_full(page_address(plane, log, 0), [this, plane, log] { merge_done(plane, log); });
        }
        kick_waiting();  // as above
        return;
    }
    uint32_t log_page = d.program_log(log, e.addr.block, e.addr.page);
    e.target = page_address(e.plane, log, log_page);
    planes_[e.plane].array.push_back(id);
    // The merge is requested as soon as the log block is used up (paper III-B), not by
    // the next program that finds it full: dirty pages bound for a full log block stay
    // in their registers (program_held), so that program may never be tried while they
    // fill the registers of every application. The program just queued goes first: a
    // merge reads a page's newest copy only once the plane's queued programs are done.
    const FlashAddress data_page = e.addr;
    const uint32_t plane = e.plane;
    if (d.log_full(log)) {
        if (parked_.try_emplace(park_key(plane, log)).second) {
            ++*sh_.c.merges_requested;
            sh_.log_map->log_block_full(page_address(plane, log, 0), [this, plane, log] { merge_done(plane, log); });
        }
    } else {
        sh_.log_map->log_page_taken(data_page, [this] { resume_held(); });
    }
    start_array(plane);
}

void FlashPackage::merge_done(uint32_t plane, uint32_t log) {
    auto it = parked_.find(park_key(plane, log));
    if (it == parked_.end()) fail(fmt::format("merge of log block {} of plane {} finished twice", log, plane));
    std::vector<uint32_t> waiting = std::move(it->second);
    parked_.erase(it);
    for (uint32_t id : waiting) program_log(id);
    resume_held();
}

FlashPackage::ArrayOp FlashPackage::array_op(const FlashTxn& t) {
    switch (t.kind) {
        case TxnKind::Evict: return t.merge_sense ? ArrayOp::Sense : ArrayOp::Program;
        case TxnKind::OpProgram: return ArrayOp::Program;
        case TxnKind::OpErase: return ArrayOp::Erase;
        default: return ArrayOp::Sense;
    }
}

Tick FlashPackage::die_programming(const FlashAddress& a) const {
    const Die& d = dies_[die_of(sh_.spec.geometry.plane_in_package(a))];
    return d.busy_planes > 0 && d.running != ArrayOp::Sense ? d.program_time + (now() - d.program_since)
                                                            : d.program_time;
}

void FlashPackage::read_service_starts(const FlashTxn& t) {
    read_wait_.sample(static_cast<double>(now() - t.accepted) / kNanosecond);
    read_wait_programming_ += die_programming(t.addr) - t.die_programming_at_accept;
}

bool FlashPackage::die_allows(uint32_t p, ArrayOp op) const {
    const Die& d = dies_[die_of(p)];
    if (d.busy_planes == 0) return !d.turn_over || op != d.running;
    // ONFI multi-plane operations (READ 00h-32h, PROGRAM 80h-11h, BLOCK ERASE 60h-D1h): the
    // planes of a die run operations of one kind together, erases included, one block per plane.
    if (!sh_.spec.multi_plane || d.running != op) return false;
    // A multi-plane operation is issued as one command sequence: planes join it when it
    // starts. Joining later is allowed (it approximates the controller's next batch of the
    // same kind) only while no other plane of the die waits for the die to change kind;
    // otherwise a stream of programs would keep a die busy forever while a read waits.
    const uint64_t own = uint64_t{1} << (p - die_of(p) * sh_.spec.geometry.planes_per_die());
    return (d.held & ~own) == 0 || d.batch_since == now();
}

void FlashPackage::start_array(uint32_t p) {
    Plane& pl = planes_[p];
    if (pl.busy || pl.buffer_holding) return;
    // Paper V-D: GC blocks the requests of the application it serves, not the others':
    // the plane alternates between firmware (GC) and demand operations when both wait.
    // An operation the die cannot overlap now is started when the die's operations end.
    RingQueue<uint32_t>* order[2] = {&pl.array, &pl.firmware_array};
    if (!pl.firmware_last) std::swap(order[0], order[1]);
    RingQueue<uint32_t>* q = nullptr;
    bool held = false;
    for (RingQueue<uint32_t>* c : order) {
        if (c->empty()) continue;
        if (!die_allows(p, array_op(sh_.txns[c->front()]))) {
            held = true;
            continue;
        }
        // A merge reads the newest copy of each page, which may be a log page an eviction
        // has reserved (the row decoder maps it) but whose program still waits in this
        // plane's demand queue: the programs go first, or the merge would read an erased page.
        const FlashTxn& f = sh_.txns[c->front()];
        if (c == &pl.firmware_array && f.kind == TxnKind::OpRead && !pl.array.empty() &&
            !sh_.blocks.page_programmed(f.target))
            continue;
        q = c;
        break;
    }
    const uint32_t d = die_of(p);
    Die& die = dies_[d];
    const uint64_t bit = uint64_t{1} << (p - d * sh_.spec.geometry.planes_per_die());
    die.held = held && !q ? die.held | bit : die.held & ~bit;
    if (!q) return;
    uint32_t id = q->front();
    FlashTxn& t = sh_.txns[id];
    q->pop_front();
    pl.firmware_last = q == &pl.firmware_array;
    const FlashTiming& tm = sh_.spec.timing;
    Tick dur = 0;
    try {
        switch (t.kind) {
            case TxnKind::DemandRead:
            case TxnKind::DemandWrite: {
                ProgrammableRowDecoder::Row row = decoders_[p].resolve(t.addr.block, t.addr.page);
                if (row.log_hit) ++*sh_.c.log_hits;
                t.target = page_address(p, row.block, row.page);
                if (!sh_.blocks.page_programmed(t.target)) ++*sh_.c.reads_of_erased_pages;
                dur = tm.decoder_search + tm.t_read;
                if (t.kind == TxnKind::DemandRead) {
                    note_read_sense(t);
                    read_service_starts(t);
                }
                ++*sh_.c.senses;
                *sh_.c.bytes_sensed += sh_.spec.geometry.page_size();
                if (t.req) t.req->mark(Stage::MediumStart, now());
                break;
            }
            case TxnKind::OpRead:
                if (!sh_.blocks.page_programmed(t.target)) ++*sh_.c.reads_of_erased_pages;
                dur = tm.t_read;
                ++*sh_.c.senses;
                *sh_.c.bytes_sensed += sh_.spec.geometry.page_size();
                break;
            case TxnKind::Evict:
                if (t.merge_sense) {
                    ProgrammableRowDecoder::Row row = decoders_[p].resolve(t.addr.block, t.addr.page);
                    if (row.log_hit) ++*sh_.c.log_hits;
                    dur = tm.decoder_search + tm.t_read;
                    ++*sh_.c.senses;
                    ++*sh_.c.merge_senses;
                    *sh_.c.bytes_sensed += sh_.spec.geometry.page_size();
                    break;
                }
                [[fallthrough]];
            case TxnKind::OpProgram:
                sh_.blocks.program(t.target);
                dur = tm.t_prog;
                ++*sh_.c.programs;
                *sh_.c.bytes_programmed += sh_.spec.geometry.page_size();
                if (t.kind == TxnKind::Evict) {
                    ++sh_.register_programs;
                    sh_.pages_programmed.insert(sh_.spec.geometry.encode(t.addr), 1);
                }
                break;
            case TxnKind::OpErase:
                sh_.blocks.erase(t.target);
                dur = tm.t_erase;
                ++*sh_.c.erases;
                break;
        }
    } catch (const SimError& e) {
        fail(e.what());
    }
    pl.busy = true;
    if (die.busy_planes++ == 0) {
        die.running = array_op(t);
        die.batch_since = now();
        if (die.running != ArrayOp::Sense) die.program_since = now();
    }
    switch (die.running) {
        case ArrayOp::Sense: sense_busy_ += dur; break;
        case ArrayOp::Program: program_busy_ += dur; break;
        case ArrayOp::Erase: erase_busy_ += dur; break;
    }
    pl.buffer_valid = false;  // the operation goes through the page buffer
    events_.push({EvKind::ArrayDone, id, p}, now() + dur);
    // ONFI PROGRAM PAGE CACHE (80h-15h): the register's data is copied into the plane's
    // page buffer and the array programs from there, so the register takes new data
    // while tPROG runs. Released from an event: this may run inside a scan of planes.
    if (t.kind == TxnKind::Evict && die.running == ArrayOp::Program && sh_.spec.cache_program)
        events_.push({EvKind::ProgramStarted, id, p}, now());
}

void FlashPackage::array_done(uint32_t id, uint32_t p) {
    planes_[p].busy = false;
    const uint32_t d = die_of(p);
    // The die's last operation ended: what it held back may start (below). Otherwise the
    // die goes on running the kind it held them for, and would hold them again.
    const bool die_freed = --dies_[d].busy_planes == 0;
    if (die_freed && dies_[d].running != ArrayOp::Sense) dies_[d].program_time += now() - dies_[d].program_since;
    FlashTxn& t = sh_.txns[id];
    switch (t.kind) {
        case TxnKind::DemandRead:
        case TxnKind::DemandWrite: {
            if (t.reg < 0) {  // sensed into the page buffer: it leaves from there
                Plane& pl = planes_[p];
                pl.buffer_holding = pl.buffer_valid = true;
                pl.buffer_tag = FlashRegisterFile::make_tag(p, t.addr.block, t.addr.page);
                after_sense(id);
                break;
            }
            // The sensed page fills every chunk the writes did not.
            regs_[static_cast<uint32_t>(t.reg)].chunks = sh_.spec.full_chunk_mask();
            uint32_t home = regs_[static_cast<uint32_t>(t.reg)].home_plane;
            if (home != p) {
                ++*sh_.c.migrations;
                interconnect_->migrate(*this, p, home, static_cast<uint32_t>(sh_.spec.geometry.page_size()), id);
            } else {
                after_sense(id);
            }
            break;
        }
        case TxnKind::OpRead: port_transfer(id, t.bytes); break;
        case TxnKind::Evict:
            if (t.merge_sense) {
                t.merge_sense = 0;
                regs_[static_cast<uint32_t>(t.reg)].chunks = sh_.spec.full_chunk_mask();
                continue_evict(id);
            } else {
                finish_evict(id);
            }
            break;
        case TxnKind::OpProgram: reply(id, MsgKind::Ack, 0); break;
        case TxnKind::OpErase:
            decoders_[p].erase_block(t.target.block);
            regs_.invalidate_block(p, t.target.block);
            reply(id, MsgKind::Ack, 0);
            break;
    }
    // This plane's next operation and, if the die was freed, those of other planes it
    // held back (a kind it could not overlap). (Operations started since, above, may run
    // by now: then some of these are held again.)
    const uint32_t first = d * sh_.spec.geometry.planes_per_die();
    const auto retry = [&](uint64_t planes) {
        while (planes) {
            const uint32_t i = static_cast<uint32_t>(std::countr_zero(planes));
            planes &= planes - 1;
            start_array(first + i);
        }
    };
    // The planes that waited for the die to change kind go first (Die::turn_over), so a
    // plane with a stream of the kind that just ran cannot restart it ahead of them every
    // time; then, in plane order, the rest, which join the new batch if of its kind.
    if (die_freed && dies_[d].held) {
        dies_[d].turn_over = true;
        retry(dies_[d].held);
        dies_[d].turn_over = false;
        retry(dies_[d].held | uint64_t{1} << (p - first));
    } else {
        retry(uint64_t{1} << (p - first));
    }
}

void FlashPackage::after_sense(uint32_t id) { port_transfer(id, sh_.txns[id].bytes); }

void FlashPackage::finish_evict(uint32_t id) {
    const int32_t reg = sh_.txns[id].reg;
    const uint32_t lane = staging_lane(sh_.txns[id].plane);
    const bool staged_done = staged_program_[lane] == id;
    if (staged_done) change_lane(lane, [&] { staged_program_[lane] = kNoStagedProgram; });
    sh_.txns.release(id);
    if (reg >= 0) {
        release_register(static_cast<uint32_t>(reg));  // drains the queue too
    } else if (staged_done) {
        drain_staged();  // the die's next queued page
    }
}

void FlashPackage::program_started(uint32_t id) {
    FlashTxn& e = sh_.txns[id];
    const uint32_t reg = static_cast<uint32_t>(e.reg);
    e.reg = -1;  // the page is in the plane's page buffer now
    release_register(reg);
}

void FlashPackage::release_register(uint32_t reg) {
    regs_.set_dirty(reg, false);
    regs_.set_programming(reg, false);
    regs_.set_busy(reg, false);
    maybe_flush(regs_[reg].home_plane);
    kick_waiting();
}

void FlashPackage::port_transfer(uint32_t id, uint32_t bytes) {
    if (port_is_network_) {
        // The bus transfer is the network message itself: no port time. Deferred to an
        // event so that callers iterating a plane's queue are not re-entered.
        events_.push({EvKind::PortDone, id, 0}, now());
        return;
    }
    port_wait_.push_back({id, bytes});
    try_ports();
}

void FlashPackage::try_ports() {
    const FlashTiming& tm = sh_.spec.timing;
    while (free_ports_ > 0 && !port_wait_.empty()) {
        PortJob j = port_wait_.front();
        port_wait_.pop_front();
        --free_ports_;
        Cycle cycles = tm.command_cycles + (j.bytes + tm.io_port_width - 1) / tm.io_port_width;
        if (const uint32_t first = first_part(j.txn); first != 0) {
            // Critical word first: data output starts at the waited-for column (the
            // read's column address), then a CHANGE READ COLUMN (05h, 2 column cycles,
            // E0h: 4 cycles) returns to the start of the unit for the rest (ONFI).
            const Cycle first_cycles = tm.command_cycles + (first + tm.io_port_width - 1) / tm.io_port_width;
            events_.push({EvKind::FirstPartOut, j.txn, 0}, iface_.edge_after(now(), first_cycles));
            cycles += kChangeReadColumnCycles;
        }
        events_.push({EvKind::PortDone, j.txn, 1}, iface_.edge_after(now(), cycles));
    }
}

void FlashPackage::port_done(uint32_t id) {
    FlashTxn& t = sh_.txns[id];
    uint32_t page = static_cast<uint32_t>(sh_.spec.geometry.page_size());
    if (t.migrate_phase == 1) {
        sh_.network->send({endpoint_, channel_, page, id, static_cast<uint8_t>(MsgKind::Migrate)});
        return;
    }
    if (t.migrate_phase == 2) {
        t.migrate_phase = 0;
        migration_done(id);
        return;
    }
    switch (t.kind) {
        case TxnKind::DemandRead: {
            uint32_t bytes = t.bytes;
            if (const uint32_t first = first_part(id); first != 0) {
                // With no port of its own (the network is the I/O bus) the first part
                // leaves now, just ahead of the rest.
                if (port_is_network_) reply(id, MsgKind::DataFirst, first);
                bytes -= first;
            }
            if (t.reg >= 0) {
                regs_.set_busy(static_cast<uint32_t>(t.reg), false);
            } else {
                Plane& pl = planes_[t.plane];
                pl.buffer_reserved = pl.buffer_holding = false;
                start_array(t.plane);
            }
            reply(id, MsgKind::Data, bytes);
            kick_waiting();
            break;
        }
        case TxnKind::DemandWrite: {
            const uint32_t reg = static_cast<uint32_t>(t.reg);
            const bool first_store = !regs_[reg].dirty;
            regs_[reg].chunks |= t.chunks;
            regs_.set_dirty(reg, true);
            regs_.note_written(reg);
            if (first_store && sh_.spec.stages_writes()) stage(reg);
            regs_.set_busy(reg, false);
            if (!regs_[reg].stored) {  // the first store to this page since the register took it
                sh_.pages_written.insert(sh_.spec.geometry.encode(t.addr), 0);
                regs_[reg].stored = true;
            }
            const uint32_t plane = t.plane;
            reply(id, MsgKind::Ack, 0);
            maybe_flush(plane);
            kick_waiting();
            break;
        }
        case TxnKind::OpRead: reply(id, MsgKind::Data, t.bytes); break;
        case TxnKind::OpProgram:
        case TxnKind::OpErase:
            planes_[t.plane].firmware_array.push_back(id);
            start_array(t.plane);
            break;
        case TxnKind::Evict: fail("an eviction used an I/O port");
    }
}

uint32_t FlashPackage::first_part(uint32_t id) const {
    const FlashTxn& t = sh_.txns[id];
    if (t.kind != TxnKind::DemandRead || !t.req || t.req->first_bytes == 0 || t.req->first_bytes >= t.bytes) return 0;
    // A page moving between registers through the controller (SWnet) crosses the port
    // twice before it is read out: the waited-for part leaves once, with the read-out.
    if (t.migrate_phase != 0) return 0;
    return t.req->first_bytes;
}

void FlashPackage::reply(uint32_t id, MsgKind kind, uint32_t payload) {
    sh_.network->send({endpoint_, channel_, payload, id, static_cast<uint8_t>(kind)});
}

void FlashPackage::note_write_miss(uint64_t tag) {
    if (!sh_.spec.thrashing.enabled) return;
    const uint64_t before = thrash_.rewrites();
    switch (thrash_.on_write_miss(tag)) {
        case ThrashingChecker::Change::On:
            ++sh_.thrashing_packages;
            ++*sh_.c.thrashing_episodes;
            break;
        case ThrashingChecker::Change::Off: --sh_.thrashing_packages; break;
        case ThrashingChecker::Change::None: break;
    }
    *sh_.c.thrashing_rewrites += thrash_.rewrites() - before;
}

void FlashPackage::note_read_sense(const FlashTxn& t) {
    // Fig. 5b: "each Z-NAND page ... repeatedly read": demand reads that had to sense
    // their page, keyed by the data page wherever its newest copy lives (senses for
    // writes and for merges before a program are not reads of the page).
    ++*sh_.c.demand_senses;
    if (sh_.senses_per_page.get_or_insert(sh_.spec.geometry.encode(t.addr))++ > 0) ++*sh_.c.read_reaccesses;
}

void FlashPackage::on_event(Ev& e) {
    switch (e.kind) {
        case EvKind::ArrayDone: array_done(e.txn, e.plane); break;
        case EvKind::PortDone:
            if (e.plane) ++free_ports_;  // plane field: 1 when a port was held
            port_done(e.txn);
            try_ports();
            break;
        case EvKind::Migrated: migration_done(e.txn); break;
        case EvKind::ProgramStarted: program_started(e.txn); break;
        case EvKind::FirstPartOut: reply(e.txn, MsgKind::DataFirst, first_part(e.txn)); break;
    }
}

void FlashPackage::block_erased_externally(uint32_t plane, uint32_t block) {
    planes_[plane].buffer_valid = false;
    decoders_[plane].erase_block(block);
    regs_.invalidate_block(plane, block);
}

void FlashPackage::block_moved(uint32_t plane, uint32_t from, uint32_t to) {
    planes_[plane].buffer_valid = false;
    decoders_[plane].drop_data_block(from);
    regs_.move_block(plane, from, to);
}

}  // namespace zng::flash
