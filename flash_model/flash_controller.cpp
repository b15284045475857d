#include "flash_model/flash_controller.hpp"

#include <fmt/format.h>

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
      planes_(static_cast<size_t>(shared.spec.geometry.packages_per_channel()) *
              shared.spec.geometry.planes_per_package()),
      decode_(sim, [this](uint32_t& id) { decoded(id); }, "flash-controller"),
      reads_(stats().counter("reads", "demand reads answered")),
      writes_(stats().counter("writes", "demand writes answered")),
      refusals_(stats().counter("refusals", "requests refused because the queue was full")),
      read_latency_(stats().average("read_latency", "demand read latency from arrival to answer", "ns")),
      write_latency_(stats().average("write_latency", "demand write latency from arrival to answer", "ns")) {}

uint32_t FlashController::plane_of(const FlashAddress& a) const {
    return a.package * sh_.spec.geometry.planes_per_package() + sh_.spec.geometry.plane_in_package(a);
}

bool FlashController::accept(MemRequest* r, const FlashAddress& a) {
    if (a.channel != channel_)
        throw SimError(fmt::format("{}: request for {} reached the controller of channel {}", name(), a.to_string(),
                                   channel_));
    if (occupancy_ >= s_.queue_depth) {
        ++refusals_;
        refused_ = true;
        return false;
    }
    ++occupancy_;
    uint32_t id = sh_.txns.alloc();
    FlashTxn& t = sh_.txns[id];
    t.kind = is_write_op(r->op) ? TxnKind::DemandWrite : TxnKind::DemandRead;
    t.addr = a;
    t.bytes = r->size;
    t.req = r;
    t.app = r->app;
    t.accepted = now();
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
    t.app = op.app;
    t.done = std::move(op.done);
    t.accepted = now();
    decode_.push(id, clock().edge_after(now(), s_.latency));
}

void FlashController::decoded(uint32_t& id) {
    const FlashTxn& t = sh_.txns[id];
    uint32_t p = plane_of(t.addr);
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
        uint32_t id;
        if (!q.firmware.empty() && q.firmware_issued < s_.plane_depth) {
            id = q.firmware.front();
            q.firmware.pop_front();
            ++q.firmware_issued;
        } else if (!q.demand.empty() && q.demand_issued < s_.plane_depth) {
            size_t i = scheduler_->pick(q.demand, sh_.txns);
            id = q.demand[i];
            q.demand.erase_at(i);
            ++q.demand_issued;
        } else {
            return;
        }
        const FlashTxn& t = sh_.txns[id];
        bool carries_data = t.kind == TxnKind::DemandWrite || t.kind == TxnKind::OpProgram;
        uint32_t pkg = channel_ * sh_.spec.geometry.packages_per_channel() + t.addr.package;
        sh_.network->send({channel_, sh_.package_endpoint(pkg), carries_data ? t.bytes : 0u, id,
                           static_cast<uint8_t>(MsgKind::Command)});
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
    MemRequest* r = t.req;
    double ns = static_cast<double>(now() - t.accepted) / kNanosecond;
    if (t.kind == TxnKind::DemandRead) {
        ++reads_;
        read_latency_.sample(ns);
    } else {
        ++writes_;
        write_latency_.sample(ns);
    }
    sh_.txns.release(id);
    --occupancy_;
    try_issue(p);
    r->mark(Stage::MediumDone, now());
    send_response(r);
    if (refused_) {
        refused_ = false;
        if (on_room_) on_room_();
    }
}

}  // namespace zng::flash
