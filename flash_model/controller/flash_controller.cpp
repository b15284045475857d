#include "flash_model/controller/flash_controller.hpp"

#include <fmt/format.h>

#include "flash_model/array/flash_package.hpp"
#include "sim/core/errors.hpp"
#include "sim/mem/port.hpp"

namespace zng::flash {

FlashController::FlashController(Simulator& sim, std::string name, const ClockDomain& clock, FlashShared& shared,
                                 uint32_t channel, std::unique_ptr<FlashScheduler> scheduler,
                                 const ControllerSettings& s)
    : Component(sim, std::move(name), clock),
      sh_(shared),
      channel_(channel),
      scheduler_(std::move(scheduler)),
      s_(s),
      planes_(sim.memory_budget().reserve(static_cast<size_t>(shared.spec.geometry.packages_per_channel()) *
                                              shared.spec.geometry.planes_per_package(),
                                          sizeof(PlaneQueue), "flash controllers' per-plane queues")),
      decode_(sim, [this](uint32_t& id) { decoded(id); }, "flash-controller"),
      reads_(stats().counter("reads", "demand reads answered", "requests")),
      writes_(stats().counter("writes", "demand writes answered", "requests")),
      refusals_(stats().counter("refusals", "requests refused because their queue was full", "requests")),
      write_refusals_(stats().counter("write_refusals", "writes refused because the write queue was full", "requests")),
      combined_writes_(stats().counter("combined_writes",
                                       "writes sent in the command sequence of an earlier write to their page", "requests")),
      first_parts_(stats().counter("first_parts",
                                   "reads whose waited-for part was answered ahead of the rest", "requests")),
      read_latency_(stats().average("read_latency", "demand read latency from arrival to answer", "ns")),
      write_latency_(stats().average("write_latency", "demand write latency from arrival to answer (posted)", "ns")) {
    // A full write queue refuses the L2 banks' stores, and a bank whose own memory queue
    // then fills stops taking requests, reads included: the time this queue spends full
    // is time the stores of every application hold up the GPU.
    stats().formula("write_queue_full_ps", "time the posted-write queue was full, refusing writes", "ps", [this] {
        const Tick open = write_occupancy_ >= s_.write_queue_depth ? now() - write_level_since_ : 0;
        return static_cast<double>(write_full_ps_ + open);
    });
    stats().formula("write_queue_occupancy", "time-weighted posted writes held, not yet absorbed by a register",
                    "writes", [this] {
                        const Tick t = now();
                        if (t == 0) return 0.0;
                        const double area = write_level_area_ + static_cast<double>(write_occupancy_) *
                                                                    static_cast<double>(t - write_level_since_);
                        return area / static_cast<double>(t);
                    });
}

void FlashController::set_write_occupancy(uint32_t level) {
    const Tick dt = now() - write_level_since_;
    write_level_area_ += static_cast<double>(write_occupancy_) * static_cast<double>(dt);
    if (write_occupancy_ >= s_.write_queue_depth) write_full_ps_ += dt;
    write_level_since_ = now();
    write_occupancy_ = level;
}

uint32_t FlashController::plane_of(const FlashAddress& a) const {
    return a.package * sh_.spec.geometry.planes_per_package() + sh_.spec.geometry.plane_in_package(a);
}

bool FlashController::accept(MemRequest* r, const FlashAddress& a) {
    if (a.channel != channel_)
        throw SimError(fmt::format("{}: request for {} reached the controller of channel {}", name(), a.to_string(),
                                   channel_));
    const bool write = is_write_op(r->op);
    // Paper V-B: "ZnG can buffer the small write requests in both the L2 cache and flash
    // registers": writes wait in a queue of their own, so a full one never refuses a read.
    if (write ? write_occupancy_ >= s_.write_queue_depth : occupancy_ >= s_.queue_depth) {
        ++refusals_;
        if (write) ++write_refusals_;
        refused_ = true;
        return false;
    }
    if (write) {
        set_write_occupancy(write_occupancy_ + 1);
    } else {
        ++occupancy_;
    }
    uint32_t id = sh_.txns.alloc();
    FlashTxn& t = sh_.txns[id];
    t.kind = write ? TxnKind::DemandWrite : TxnKind::DemandRead;
    t.addr = a;
    t.bytes = r->size;
    t.combined = 1;
    t.chunks = sh_.spec.chunk_mask(static_cast<uint32_t>(sh_.spec.geometry.page_offset(r->paddr)), r->size);
    t.req = r;
    t.app = r->app;
    t.accepted = now();
    if (!write) t.die_programming_at_accept = sh_.packages.at(sh_.spec.geometry.package_index(a))->die_programming(a);
    r->mark(Stage::MemArrive, now());
    decode_.push(id, clock().edge_after(now(), s_.latency));
    return true;
}

void FlashController::submit(FlashOp op) {
    sh_.spec.geometry.check(op.addr);
    if (op.addr.channel != channel_)
        throw SimError(fmt::format("{}: operation on {} reached the controller of channel {}", name(),
                                   op.addr.to_string(), channel_));
    ++firmware_live_;
    uint32_t id = sh_.txns.alloc();
    FlashTxn& t = sh_.txns[id];
    t.kind = op.kind == FlashOp::Read ? TxnKind::OpRead : op.kind == FlashOp::Program ? TxnKind::OpProgram
                                                                                        : TxnKind::OpErase;
    t.addr = op.addr;
    t.bytes = op.kind == FlashOp::Erase ? 0 : static_cast<uint32_t>(sh_.spec.geometry.page_size());
    t.chunks = sh_.spec.full_chunk_mask();
    t.app = op.app;
    t.done = std::move(op.done);
    t.accepted = now();
    decode_.push(id, clock().edge_after(now(), s_.latency));
}

void FlashController::decoded(uint32_t& id) {
    FlashTxn& t = sh_.txns[id];
    uint32_t p = plane_of(t.addr);
    if (t.kind == TxnKind::DemandWrite && t.req) {
        // Posted: the write is the controller's from here on; the L2 hears back now.
        MemRequest* r = t.req;
        t.req = nullptr;
        ++writes_;
        write_latency_.sample(static_cast<double>(now() - t.accepted) / kNanosecond);
        r->mark(Stage::MediumDone, now());
        send_response(r);
    }
    if (is_firmware(t.kind)) {
        planes_[p].firmware.push_back(id);
    } else {
        planes_[p].demand.push_back(id);
    }
    try_issue(p);
}

void FlashController::try_issue(uint32_t p) {
    PlaneQueue& q = planes_[p];
    for (;;) {
        const bool fw_ready = !q.firmware.empty() && q.firmware_issued < s_.plane_depth;
        const size_t pick = q.demand.empty() ? kNoPick : pick_demand(q);
        const bool demand_ready = pick != kNoPick;
        if (!fw_ready && !demand_ready) return;
        // Paper V-D: GC blocks the requests of the application it serves, not the others':
        // when both kinds are ready, they take turns.
        const bool take_fw = fw_ready && (!demand_ready || !q.firmware_last);
        uint32_t id;
        if (take_fw) {
            id = q.firmware.front();
            q.firmware.pop_front();
            ++q.firmware_issued;
        } else {
            id = q.demand[pick];
            q.demand.erase_at(pick);
            ++q.demand_issued;
            if (sh_.txns[id].kind == TxnKind::DemandWrite) {
                ++q.writes_issued;
                combine_writes(q, id);
            }
        }
        q.firmware_last = take_fw;
        const FlashTxn& t = sh_.txns[id];
        bool carries_data = t.kind == TxnKind::DemandWrite || t.kind == TxnKind::OpProgram;
        uint32_t pkg = channel_ * sh_.spec.geometry.packages_per_channel() + t.addr.package;
        sh_.network->send({channel_, sh_.package_endpoint(pkg), carries_data ? t.bytes : 0u, id,
                           static_cast<uint8_t>(MsgKind::Command)});
    }
}

size_t FlashController::pick_demand(const PlaneQueue& q) const {
    const size_t i = scheduler_->pick(q.demand, sh_.txns);
    if (!sh_.spec.reads_keep_pages) {
        // Reads and writes use different buffers of the plane (III-C: "GPU L2 cache and
        // Z-NAND internal registers as read and write buffers, respectively"; a read is
        // sensed into the page buffer), so each kind has its own plane_depth commands in
        // flight, and a kind without room lets the oldest command of the other go first.
        auto room = [&](TxnKind k) {
            const uint32_t writes = q.writes_issued, reads = q.demand_issued - q.writes_issued;
            return (k == TxnKind::DemandWrite ? writes : reads) < s_.plane_depth;
        };
        const TxnKind k = sh_.txns[q.demand[i]].kind;
        if (room(k)) return i;
        for (size_t j = 0; j < q.demand.size(); ++j) {
            const TxnKind other = sh_.txns[q.demand[j]].kind;
            if (other != k && room(other)) return j;
        }
        return kNoPick;
    }
    return q.demand_issued < s_.plane_depth ? i : kNoPick;
}

void FlashController::combine_writes(PlaneQueue& q, uint32_t leader) {
    // ONFI random data input (change write column): one command and address, then each
    // queued write's data into the page register, so every write to the page waiting
    // in this plane's queue goes in the leader's sequence.
    for (size_t i = 0; i < q.demand.size();) {
        const FlashTxn& w = sh_.txns[q.demand[i]];
        FlashTxn& l = sh_.txns[leader];
        if (w.kind != TxnKind::DemandWrite || !w.addr.same_page(l.addr) || l.combined == UINT16_MAX) {
            ++i;
            continue;
        }
        l.bytes += w.bytes;
        l.chunks |= w.chunks;
        l.combined = static_cast<uint16_t>(l.combined + w.combined);
        sh_.txns.release(q.demand[i]);
        q.demand.erase_at(i);
        ++combined_writes_;
    }
}

void FlashController::receive(const FlashMessage& m) {
    if (m.kind == static_cast<uint8_t>(MsgKind::Migrate)) {
        // SWnet: the page has reached this controller's buffer; send it back in.
        sh_.network->send({channel_, m.src, m.payload, m.tag, m.kind});
        return;
    }
    uint32_t id = m.tag;
    FlashTxn& t = sh_.txns[id];
    if (m.kind == static_cast<uint8_t>(MsgKind::DataFirst)) {
        // Critical word first: the waited-for part answers a copy of the request now;
        // the request itself is answered when the rest has arrived.
        MemRequest* piece = sim().requests().get();
        const uint64_t piece_id = piece->id;
        *piece = *t.req;
        piece->id = piece_id;
        piece->first_piece = true;
        piece->paddr += piece->first_offset;
        piece->size = piece->first_bytes;
        piece->mark(Stage::MediumDone, now());
        ++first_parts_;
        send_response(piece);
        return;
    }
    uint32_t p = plane_of(t.addr);
    if (is_firmware(t.kind)) {
        --planes_[p].firmware_issued;
        std::function<void()> done = std::move(t.done);
        sh_.txns.release(id);
        --firmware_live_;
        try_issue(p);
        if (done) done();
        return;
    }
    --planes_[p].demand_issued;
    if (t.kind == TxnKind::DemandWrite) {
        --planes_[p].writes_issued;
        // The register absorbed the sequence: its writes leave the write queue.
        set_write_occupancy(write_occupancy_ - t.combined);
        sh_.txns.release(id);
        try_issue(p);
        room_freed();
        return;
    }
    MemRequest* r = t.req;
    ++reads_;
    read_latency_.sample(static_cast<double>(now() - t.accepted) / kNanosecond);
    sh_.txns.release(id);
    --occupancy_;
    try_issue(p);
    r->mark(Stage::MediumDone, now());
    send_response(r);
    room_freed();
}

void FlashController::room_freed() {
    if (refused_) {
        refused_ = false;
        if (on_room_) on_room_();
    }
}

}  // namespace zng::flash
