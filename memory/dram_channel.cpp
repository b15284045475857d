#include "memory/dram_channel.hpp"

#include <algorithm>
#include <bit>

namespace zng::memory {

namespace {
bool uses_bank(DramTxnKind k) {
    return k == DramTxnKind::Read || k == DramTxnKind::Write || k == DramTxnKind::MediaWrite;
}
bool is_host_bank_access(DramTxnKind k) { return k == DramTxnKind::Read || k == DramTxnKind::Write; }
}  // namespace

DramChannel::DramChannel(Simulator& sim, std::string name, const ClockDomain& clock, const DramChannelConfig& cfg,
                         DramChannelClient& client, uint32_t index)
    : Component(sim, std::move(name), clock),
      cfg_(cfg),
      client_(client),
      index_(index),
      banks_(sim.memory_budget().reserve(cfg.banks, sizeof(Bank), "DRAM channels' bank states")),
      done_(sim, [this](DramTxn& t) { finish(t); }, "dram-data-done"),
      reads_(stats().counter("reads", "read transactions served (column reads)", "transactions")),
      writes_(stats().counter("writes", "write transactions served (column writes)", "transactions")),
      row_hits_(stats().counter("row_hits", "bank accesses whose row was already open", "accesses")),
      row_misses_(stats().counter("row_misses", "bank accesses to a bank with no open row", "accesses")),
      row_conflicts_(stats().counter("row_conflicts", "bank accesses that had to close another row first", "accesses")),
      activations_(stats().counter("activations", "ACT commands (rows opened)", "commands")),
      precharges_(stats().counter("precharges", "PRE commands, explicit or automatic", "commands")),
      refreshes_(stats().counter("refreshes", "all-bank REF commands", "commands")),
      read_bursts_(stats().counter("read_bursts", "bursts of read data", "bursts")),
      write_bursts_(stats().counter("write_bursts", "bursts of write data", "bursts")),
      programs_(stats().counter("media_programs", "buffered lines programmed into the media", "lines")),
      write_drains_(stats().counter("write_drains", "switches of the scheduler from reads to writes", "switches")),
      read_q_occ_(stats().average("read_queue_occupancy", "time-weighted read queue occupancy", "requests")),
      write_q_occ_(stats().average("write_queue_occupancy", "time-weighted write queue occupancy", "requests")) {
    if (cfg_.banks == 0) throw ConfigError(this->name() + ": a channel needs at least one bank");
    MemoryBudget& budget = sim.memory_budget();
    read_q_.reserve(budget.reserve(cfg_.read_queue, sizeof(DramTxn), "DRAM channels' transaction queues"));
    write_q_.reserve(budget.reserve(cfg_.write_queue, sizeof(DramTxn), "DRAM channels' transaction queues"));
    internal_q_.reserve(budget.reserve(cfg_.internal_queue, sizeof(DramTxn), "DRAM channels' transaction queues"));
    weigh_.assign((std::max(read_q_.capacity(), write_q_.capacity()) + 63) / 64, 0);  // positions stay below capacity
    next_refresh_ = cfg_.timing.tREFI;
}

bool DramChannel::has_room(DramTxnKind k) const {
    switch (k) {
        case DramTxnKind::Read:
        case DramTxnKind::BufferRead: return read_q_.size() < cfg_.read_queue;
        case DramTxnKind::Write:
        case DramTxnKind::BufferWrite: return write_q_.size() + reserved_writes_ < cfg_.write_queue;
        case DramTxnKind::MediaWrite: return internal_q_.size() < cfg_.internal_queue;
    }
    return false;
}

void DramChannel::enqueue(DramTxn t, bool uses_reservation) {
    if (uses_reservation) {
        if (reserved_writes_ == 0) throw SimError(name() + ": a reserved write arrived without a reservation");
        --reserved_writes_;
    }
    std::vector<DramTxn>& q = t.kind == DramTxnKind::MediaWrite                                    ? internal_q_
                              : (t.kind == DramTxnKind::Read || t.kind == DramTxnKind::BufferRead) ? read_q_
                                                                                                    : write_q_;
    if (q.size() == q.capacity()) throw SimError(name() + ": transaction queued into a full controller queue");
    const Cycle now = clock().tick_to_cycle(clock().next_edge(this->now()));
    if (idle()) catch_up_refresh(now);
    note_occupancy();
    t.seq = next_seq_++;
    t.ready = now + cfg_.timing.frontend;
    t.started = false;
    q.push_back(t);
    count_queued(t, queue_slot(q), +1);
    if (&q != &internal_q_) note_class(q.back(), queue_slot(q), static_cast<uint32_t>(q.size() - 1));
    wake(t.ready);
}

void DramChannel::count_queued(const DramTxn& t, size_t slot, int delta) {
    const auto d = static_cast<uint32_t>(delta);
    if (uses_bank(t.kind)) {
        Bank& b = banks_[t.bank];
        b.queued[slot] += d;
        if (b.open_row == t.row) b.queued_for_open_row[slot] += d;
    } else if (t.kind == DramTxnKind::BufferRead) {
        buffer_reads_[slot] += d;
    } else {
        buffer_writes_[slot] += d;
    }
}

void DramChannel::kick() {
    if (!idle()) wake(clock().tick_to_cycle(clock().next_edge(now())));
}

void DramChannel::wake(Cycle c) { sim().events().schedule_at_most(pass_ev_, std::max(at(c), now())); }

void DramChannel::note_occupancy() {
    const Tick t = now();
    if (t > occ_since_) {
        read_q_occ_.sample(static_cast<double>(read_q_.size()), t - occ_since_);
        write_q_occ_.sample(static_cast<double>(write_q_.size()), t - occ_since_);
    }
    occ_since_ = t;
}

// Refreshes that fell due while the channel was idle happened on time: every open row
// was closed and all banks were refreshed. Only the last one can still block the banks.
void DramChannel::catch_up_refresh(Cycle now) {
    const DramTiming& tm = cfg_.timing;
    if (tm.tREFI == 0 || now < next_refresh_) return;
    const Cycle due = next_refresh_;
    const Cycle later = (now - due) / tm.tREFI;  // refreshes after the first overdue one
    Cycle first = due;
    for (Bank& b : banks_) {
        first = std::max(first, b.act_ok);
        if (b.open_row != kNoRow) {
            first = std::max(first, std::max(due, b.pre_ok) + tm.tRP);
            ++precharges_;
        }
    }
    const Cycle last = later == 0 ? first : std::max(due + later * tm.tREFI, first + tm.tRFC);
    for (Bank& b : banks_) {
        close_row(b);
        b.hits = 0;
        b.act_ok = std::max(b.act_ok, last + tm.tRFC);
    }
    refreshes_ += later + 1;
    next_refresh_ = due + (later + 1) * tm.tREFI;
}

// One step of a refresh that is due: close the open banks one PRE at a time, then REF.
// True if a command issued; otherwise wake_at says when to try again.
bool DramChannel::refresh_step(Cycle now, Cycle& wake_at) {
    const DramTiming& tm = cfg_.timing;
    bool any_open = false;
    for (Bank& b : banks_) {
        if (b.open_row == kNoRow) continue;
        any_open = true;
        if (b.pre_ok <= now) {
            close_row(b);
            b.act_ok = std::max(b.act_ok, now + tm.tRP);
            ++precharges_;
            return true;
        }
        wake_at = std::min(wake_at, b.pre_ok);
    }
    if (any_open) return false;
    Cycle ready = 0;
    for (const Bank& b : banks_) ready = std::max(ready, b.act_ok);
    if (ready > now) {
        wake_at = std::min(wake_at, ready);
        return false;
    }
    for (Bank& b : banks_) {
        b.act_ok = now + tm.tRFC;
        b.hits = 0;
    }
    next_refresh_ += tm.tREFI;
    ++refreshes_;
    return true;
}

void DramChannel::update_mode() {
    if (write_mode_) {
        if (write_q_.empty() || (write_q_.size() <= cfg_.write_low && !read_q_.empty())) write_mode_ = false;
    } else if (!write_q_.empty() && (write_q_.size() >= cfg_.write_high || read_q_.empty())) {
        write_mode_ = true;
        ++write_drains_;
    }
}

Cycle DramChannel::read_bus_ok() const {
    const DramTiming& tm = cfg_.timing;
    Cycle c = bus_free_ > tm.tCL ? bus_free_ - tm.tCL : 0;
    if (bus_last_write_) c = std::max(c, write_data_end_ + tm.tWTR);
    return c;
}

Cycle DramChannel::write_bus_ok() const {
    const DramTiming& tm = cfg_.timing;
    if (bus_free_ == 0) return 0;
    const Cycle need = bus_free_ + (bus_last_write_ ? 0 : tm.tRTW);
    return need > tm.tCWL ? need - tm.tCWL : 0;
}

// The next command transaction t needs and the first cycle it is legal (kNever: blocked
// until something else changes). `hit` marks a column command to an open row, which
// FR-FCFS serves before anything else.
// Queued requests (among those this pass serves) for bank b's open row.
uint32_t DramChannel::pending_hits(const Bank& b) const {
    return b.queued_for_open_row[queue_slot(*candidates_[0])] + b.queued_for_open_row[queue_slot(*candidates_[1])];
}

void DramChannel::open_row(Bank& b, uint64_t row) {
    b.open_row = row;
    const auto bank = static_cast<uint32_t>(&b - banks_.data());
    for (const std::vector<DramTxn>* q : {&read_q_, &write_q_, &internal_q_}) {
        const size_t slot = queue_slot(*q);
        uint32_t n = 0;
        uint32_t first_open = kNoIndex, first_other = kNoIndex;
        for (size_t i = 0; i < q->size(); ++i) {
            const DramTxn& t = (*q)[i];
            if (!uses_bank(t.kind) || t.bank != bank) continue;
            if (t.row == row) {
                ++n;
                if (first_open == kNoIndex) first_open = static_cast<uint32_t>(i);
            } else if (first_other == kNoIndex) {
                first_other = static_cast<uint32_t>(i);
            }
        }
        b.queued_for_open_row[slot] = n;
        if (slot < b.first_open.size()) {
            b.first_open[slot] = first_open;
            b.first_other[slot] = first_other;
        }
    }
}

// Every request for the bank now asks for another row than the open one.
void DramChannel::close_row(Bank& b) {
    b.open_row = kNoRow;
    b.queued_for_open_row = {};
    for (size_t slot = 0; slot < b.first_open.size(); ++slot) {
        b.first_other[slot] = std::min(b.first_other[slot], b.first_open[slot]);
        b.first_open[slot] = kNoIndex;
    }
}

Cycle DramChannel::earliest(const DramTxn& t, Cmd& cmd, bool& hit) {
    const DramTiming& tm = cfg_.timing;
    hit = false;
    if (t.kind == DramTxnKind::BufferRead) {
        cmd = Cmd::ColRead;
        hit = true;
        return std::max({t.ready, col_ok_, read_bus_ok()});
    }
    if (t.kind == DramTxnKind::BufferWrite) {
        if (!client_.may_issue(*this, t)) return kNever;
        cmd = Cmd::ColWrite;
        hit = true;
        return std::max({t.ready, col_ok_, write_bus_ok()});
    }
    Bank& b = banks_[t.bank];
    const bool capped = cfg_.row_hit_cap != 0 && b.hits >= cfg_.row_hit_cap;
    if (b.open_row == t.row) {
        if (t.kind == DramTxnKind::MediaWrite) {
            cmd = Cmd::Program;
            return std::max({t.ready, b.col_ok, b.pre_ok});
        }
        const bool rd = t.kind == DramTxnKind::Read;
        cmd = rd ? Cmd::ColRead : Cmd::ColWrite;
        hit = !capped;
        return std::max({t.ready, b.col_ok, col_ok_, rd ? read_bus_ok() : write_bus_ok()});
    }
    // Closing the open row would rob queued hits of it: wait for them (FR-FCFS), unless
    // the row has had its share.
    if (b.open_row != kNoRow && !capped && pending_hits(b) != 0) return kNever;
    if (t.kind == DramTxnKind::MediaWrite && !t.activate_first) {
        cmd = Cmd::Program;  // a whole line needs no read of the old contents
        return std::max({t.ready, b.pre_ok, b.act_ok});
    }
    if (b.open_row != kNoRow && tm.tRP != 0) {
        cmd = Cmd::Pre;
        return std::max(t.ready, b.pre_ok);
    }
    cmd = Cmd::Act;
    Cycle e = std::max({t.ready, b.act_ok, rrd_ok_});
    if (b.open_row != kNoRow) e = std::max(e, b.pre_ok);
    if (tm.tFAW != 0 && activations_.get() >= faw_.size()) e = std::max(e, faw_[faw_pos_] + tm.tFAW);
    return e;
}

// Within one queue, a request is dominated when an earlier request of the same class was
// already weighed in this pass, and then it can neither be picked nor wake the channel
// sooner. The classes: a bank's requests to its open row, a bank's requests to any other
// row, and bus-only buffer reads. Requests of one class differ in earliest() only by their
// `ready` cycle (a row miss waits for the same PRE or ACT whatever its row), and a queue
// holds them in arrival order, so the first has the smallest `ready` and `seq`: if it is
// not ready, none of the others is sooner; if it is, it is the oldest of its class. Host
// writes and reads never share a queue, so a class has one kind. Buffer writes (the
// client decides each) and the internal queue's media writes (each may or may not read
// the old line first) are always weighed.
// Inlined into the scan of pass(), which calls it for every queued request it passes.
[[gnu::always_inline]] inline bool DramChannel::dominated(const DramTxn& t) {
    if (t.kind == DramTxnKind::BufferRead) {
        if (buffer_read_weighed_in_ == pass_id_) return true;
        buffer_read_weighed_in_ = pass_id_;
        return false;
    }
    if (!is_host_bank_access(t.kind)) return false;
    Bank& b = banks_[t.bank];
    uint64_t& weighed = b.open_row == t.row ? b.open_row_weighed_in : b.other_row_weighed_in;
    if (weighed == pass_id_) return true;
    weighed = pass_id_;
    return false;
}

uint32_t* DramChannel::class_first(const DramTxn& t, size_t slot) {
    if (t.kind == DramTxnKind::BufferRead) return &first_buffer_read_[slot];
    if (!is_host_bank_access(t.kind)) return nullptr;
    Bank& b = banks_[t.bank];
    return b.open_row == t.row ? &b.first_open[slot] : &b.first_other[slot];
}

void DramChannel::note_class(const DramTxn& t, size_t slot, uint32_t index) {
    uint32_t* first = class_first(t, slot);
    if (first && *first == kNoIndex) *first = index;
}

// The requests behind `index` move up one place; if `leaving` was the first of its class,
// the next request of that class (if any) becomes the first.
void DramChannel::erased(const std::vector<DramTxn>& q, const DramTxn& leaving, uint32_t index) {
    const size_t slot = queue_slot(q);
    uint32_t* first = class_first(leaving, slot);
    const bool was_first = first && *first == index;
    auto shift = [index](uint32_t& f) {
        if (f != kNoIndex && f > index) --f;
    };
    for (Bank& b : banks_) {
        shift(b.first_open[slot]);
        shift(b.first_other[slot]);
    }
    shift(first_buffer_read_[slot]);
    if (!was_first) return;
    *first = kNoIndex;
    for (size_t i = index; i < q.size(); ++i)
        if (class_first(q[i], slot) == first) {
            *first = static_cast<uint32_t>(i);
            return;
        }
}

bool DramChannel::classes_of(const std::vector<DramTxn>& q) {
    const size_t slot = queue_slot(q);
    if (buffer_writes_[slot] != 0) return false;
    std::fill(weigh_.begin(), weigh_.end(), 0);
    auto mark = [this](uint32_t i) {
        if (i != kNoIndex) weigh_[i / 64] |= uint64_t{1} << (i % 64);
    };
    mark(first_buffer_read_[slot]);
    for (const Bank& b : banks_) {
        mark(b.first_open[slot]);
        mark(b.first_other[slot]);
    }
    return true;
}

uint32_t DramChannel::undominated(const std::vector<DramTxn>& q) const {
    const size_t slot = queue_slot(q);
    uint32_t n = (buffer_reads_[slot] != 0 ? 1u : 0u) + buffer_writes_[slot];
    for (const Bank& b : banks_) {
        const uint32_t open = b.open_row == kNoRow ? 0 : b.queued_for_open_row[slot];
        n += (open != 0 ? 1u : 0u) + (b.queued[slot] != open ? 1u : 0u);
    }
    return n;
}

void DramChannel::pass() {
    const Cycle now = now_cycle();
    if (now < cmd_ok_) {
        wake(cmd_ok_);
        return;
    }
    const DramTiming& tm = cfg_.timing;
    Cycle wake_at = kNever;
    if (tm.tREFI != 0 && now >= next_refresh_) {
        if (refresh_step(now, wake_at)) {
            cmd_ok_ = now + 1;
            if (!idle()) wake(now + 1);
        } else if (wake_at != kNever && !idle()) {
            wake(wake_at);
        }
        return;
    }
    if (idle()) return;
    if (tm.tREFI != 0) wake_at = next_refresh_;
    update_mode();

    candidates_ = {write_mode_ ? &write_q_ : &read_q_, &internal_q_};
    ++pass_id_;

    // Queues are in arrival order, so the first ready hit found is the oldest one, and it
    // beats every non-hit: the scan can stop there. Only when nothing issues does the
    // pass need the full scan (for the next wake-up). Of a host queue it weighs only the
    // first request of each class (the rest are dominated), at the positions kept for them;
    // a queue holding buffer writes is scanned, and its scan ends once it has weighed every
    // request that is not dominated.
    Pick first_hit, oldest;
    auto weigh = [&](std::vector<DramTxn>* q, size_t i) {
        const DramTxn& t = (*q)[i];
        Cmd cmd = Cmd::None;
        bool hit = false;
        const Cycle e = earliest(t, cmd, hit);
        if (e == kNever) return;
        if (e > now) {
            wake_at = std::min(wake_at, e);
            return;
        }
        if (hit) first_hit = Pick{q, i, t.seq, cmd};
        else if (t.seq < oldest.seq) oldest = Pick{q, i, t.seq, cmd};
    };
    for (auto* q : candidates_) {
        const bool host = q != &internal_q_;
        if (host && classes_of(*q)) {
            for (size_t w = 0; w < weigh_.size() && !first_hit.queue; ++w)
                for (uint64_t bits = weigh_[w]; bits != 0 && !first_hit.queue; bits &= bits - 1)
                    weigh(q, w * 64 + static_cast<size_t>(std::countr_zero(bits)));
            continue;
        }
        uint32_t to_weigh = host ? undominated(*q) : 0;
        for (size_t i = 0; i < q->size() && !first_hit.queue; ++i) {
            if (host) {
                if (to_weigh == 0) break;  // the rest are dominated
                if (dominated((*q)[i])) continue;
                --to_weigh;
            }
            weigh(q, i);
        }
    }
    const Pick& p = first_hit.queue ? first_hit : oldest;
    if (!p.queue) {
        if (wake_at != kNever) wake(wake_at);
        return;
    }
    DramTxn& t = (*p.queue)[p.index];
    issue(t, p.cmd, now);
    cmd_ok_ = now + 1;
    if (p.cmd == Cmd::ColRead || p.cmd == Cmd::ColWrite || p.cmd == Cmd::Program) {
        note_occupancy();
        const DramTxn leaving = t;
        count_queued(leaving, queue_slot(*p.queue), -1);
        p.queue->erase(p.queue->begin() + static_cast<std::ptrdiff_t>(p.index));
        if (p.queue != &internal_q_) erased(*p.queue, leaving, static_cast<uint32_t>(p.index));
        if (!idle()) wake(now + 1);
        if (leaving.kind == DramTxnKind::BufferWrite) client_.issued(*this, leaving);
        if (leaving.kind != DramTxnKind::MediaWrite) client_.room_freed(*this);
        return;
    }
    wake(now + 1);
}

void DramChannel::issue(DramTxn& t, Cmd cmd, Cycle now) {
    const DramTiming& tm = cfg_.timing;
    Bank* b = uses_bank(t.kind) ? &banks_[t.bank] : nullptr;
    if (!t.started) {
        t.started = true;
        if (t.req) t.req->mark(Stage::MediumStart, at(now));
        if (is_host_bank_access(t.kind)) {
            if (cmd == Cmd::ColRead || cmd == Cmd::ColWrite) ++row_hits_;
            else if (b->open_row == kNoRow) ++row_misses_;
            else ++row_conflicts_;
        }
    }
    switch (cmd) {
        case Cmd::Pre:
            close_row(*b);
            b->act_ok = std::max(b->act_ok, now + tm.tRP);
            ++precharges_;
            return;
        case Cmd::Act:
            open_row(*b, t.row);
            b->col_ok = now + tm.tRCD;
            b->pre_ok = std::max(b->pre_ok, now + tm.tRAS);
            b->hits = 0;
            rrd_ok_ = now + tm.tRRD;
            faw_[faw_pos_] = now;
            faw_pos_ = (faw_pos_ + 1) % faw_.size();
            ++activations_;
            return;
        case Cmd::ColRead:
        case Cmd::ColWrite: {
            const bool rd = cmd == Cmd::ColRead;
            const Cycle data_end = now + (rd ? tm.tCL : tm.tCWL) + t.bursts * tm.burst;
            col_ok_ = now + t.bursts * tm.tCCD;
            bus_free_ = data_end;
            bus_last_write_ = !rd;
            if (!rd) write_data_end_ = data_end;
            if (rd) {
                ++reads_;
                read_bursts_ += t.bursts;
            } else {
                ++writes_;
                write_bursts_ += t.bursts;
            }
            if (b) {
                ++b->hits;
                b->pre_ok = std::max(b->pre_ok, rd ? now + (t.bursts - 1) * tm.tCCD + tm.tRTP : data_end + tm.tWR);
                // Close-page policy: auto-precharge unless another queued request wants the row.
                if (cfg_.close_page && pending_hits(*b) <= 1) {
                    close_row(*b);
                    b->act_ok = std::max(b->act_ok, b->pre_ok + tm.tRP);
                    ++precharges_;
                }
            }
            done_.push(t, at(data_end));
            return;
        }
        case Cmd::Program: {
            const Cycle end = now + tm.tPROG;
            open_row(*b, t.row);
            b->hits = 0;
            b->pre_ok = std::max(b->pre_ok, end);
            b->act_ok = std::max(b->act_ok, end);
            ++programs_;
            done_.push(t, at(end));
            return;
        }
        case Cmd::None: break;
    }
    throw SimError(name() + ": scheduler picked no command");
}

void DramChannel::finish(DramTxn& t) { client_.txn_done(*this, t); }

}  // namespace zng::memory
