#include "sim/mem/port.hpp"

namespace zng {

const char* to_string(MemOp op) {
    switch (op) {
        case MemOp::Read: return "read";
        case MemOp::Write: return "write";
        case MemOp::Atomic: return "atomic";
        case MemOp::Writeback: return "writeback";
        case MemOp::Prefetch: return "prefetch";
    }
    return "?";
}

const char* to_string(Stage s) {
    switch (s) {
        case Stage::Issue: return "issue";
        case Stage::TlbDone: return "tlb";
        case Stage::L1Done: return "l1";
        case Stage::L2Arrive: return "xbar";
        case Stage::L2Done: return "l2";
        case Stage::MemArrive: return "to_mem";
        case Stage::MediumStart: return "mem_queue";
        case Stage::MediumDone: return "medium";
        case Stage::Complete: return "return";
        case Stage::kCount: break;
    }
    return "?";
}

void RequestPort::bind(ResponsePort& peer) {
    if (peer_ || peer.peer_) throw SimError("port '" + name_ + "' or '" + peer.name_ + "' is already bound");
    peer_ = &peer;
    peer.peer_ = this;
}

bool RequestPort::send(MemRequest* r) {
    if (!peer_) throw SimError("port '" + name_ + "' sends but is not connected");
    r->push_route(peer_);
    if (peer_->owner_->recv_request(r, *peer_)) {
        waiting_ = false;
        return true;
    }
    r->pop_route();
    waiting_ = true;
    return false;
}

void ResponsePort::retry() {
    if (peer_ && peer_->waiting_) {
        peer_->waiting_ = false;
        peer_->owner_->recv_retry(*peer_);
    }
}

void send_response(MemRequest* r) {
    ResponsePort* p = r->pop_route();
    p->peer_->owner_->recv_response(r, *p->peer_);
}

}  // namespace zng
