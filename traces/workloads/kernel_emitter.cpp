#include "traces/workloads/kernel_emitter.hpp"

#include <algorithm>
#include <bit>
#include <exception>
#include <stdexcept>
#include <string>

namespace zng::workloads {

using trace::MemSpace;
using trace::RecordKind;

bool detect_stride(uint32_t mask, const LaneAddrs& lane_addr, uint64_t& base, int64_t& stride) {
    if (mask == 0) return false;
    const int first = std::countr_zero(mask);
    const uint32_t rest = mask & (mask - 1);
    stride = 0;
    if (rest != 0) {
        const int second = std::countr_zero(rest);
        // Unsigned difference reinterpreted as signed: exact for any two 64-bit addresses
        // whose distance fits in int64, which holds for any real device layout.
        const int64_t diff = static_cast<int64_t>(lane_addr[second] - lane_addr[first]);
        const int64_t gap = second - first;
        if (diff % gap != 0) return false;
        stride = diff / gap;
    }
    base = lane_addr[first] - static_cast<uint64_t>(static_cast<int64_t>(first) * stride);
    for (uint32_t m = rest; m != 0; m &= m - 1) {
        const int lane = std::countr_zero(m);
        if (lane_addr[lane] != base + static_cast<uint64_t>(static_cast<int64_t>(lane) * stride))
            return false;
    }
    return true;
}

namespace {
void check_size(uint8_t size, uint64_t pc) {
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
        throw std::invalid_argument("WarpEmitter: access size " + std::to_string(size) + " at pc " +
                                    std::to_string(pc) + " is not 1, 2, 4, 8 or 16 bytes");
}
}  // namespace

void WarpEmitter::reset(trace::TraceWriter* w, uint32_t index, uint32_t live) {
    writer_ = w;
    index_ = index;
    live_ = live;
    pending_compute_ = 0;
    instructions_ = 0;
}

void WarpEmitter::emit(RecordKind kind, uint64_t pc) {
    if (writer_ == nullptr) throw std::logic_error("WarpEmitter: used outside begin_cta/end_cta");
    rec_.kind = kind;
    rec_.pc = pc;
    rec_.compute = pending_compute_;
    pending_compute_ = 0;
    writer_->add(index_, rec_);
    instructions_ += rec_.instructions();
}

void WarpEmitter::memory(RecordKind kind, uint64_t pc, uint32_t mask, const LaneAddrs& lane_addr,
                         uint8_t size, MemSpace space) {
    if (mask == 0) return;
    check_size(size, pc);
    uint64_t base = 0;
    int64_t stride = 0;
    if (detect_stride(mask, lane_addr, base, stride)) {
        rec_.set_access(space, size, mask, true, base, stride);
    } else {
        rec_.set_access(space, size, mask, false, 0, 0);
        for (uint32_t m = mask; m != 0; m &= m - 1) {
            const int lane = std::countr_zero(m);
            rec_.addr[lane] = lane_addr[lane];
        }
    }
    emit(kind, pc);
}

void WarpEmitter::strided(RecordKind kind, uint64_t pc, uint32_t mask, uint64_t base, int64_t stride,
                          uint8_t size, MemSpace space) {
    if (mask == 0) return;
    check_size(size, pc);
    rec_.set_access(space, size, mask, true, base, stride);
    emit(kind, pc);
}

void WarpEmitter::barrier(uint64_t pc, uint32_t mask) {
    rec_.set_access(MemSpace::Global, 0, mask, false, 0, 0);
    emit(RecordKind::Barrier, pc);
}

void WarpEmitter::io_submit_strided(uint64_t pc, uint32_t mask, bool write, uint32_t bytes, uint32_t tag,
                                    uint64_t base, int64_t stride, uint64_t dest, int64_t dest_stride) {
    if (mask == 0) return;
    rec_.set_access(MemSpace::Global, 0, mask, true, base, stride);
    rec_.io_write = write;
    rec_.io_bytes = bytes;
    rec_.io_tag = tag;
    rec_.io_dest = dest;
    rec_.io_dest_stride = dest_stride;
    emit(RecordKind::IoSubmit, pc);
}

void WarpEmitter::io_submit(uint64_t pc, uint32_t mask, bool write, uint32_t bytes, uint32_t tag,
                            const LaneAddrs& offsets, uint64_t dest, int64_t dest_stride) {
    if (mask == 0) return;
    uint64_t base = 0;
    int64_t stride = 0;
    if (detect_stride(mask, offsets, base, stride)) {
        io_submit_strided(pc, mask, write, bytes, tag, base, stride, dest, dest_stride);
        return;
    }
    rec_.set_access(MemSpace::Global, 0, mask, false, 0, 0);
    for (uint32_t m = mask; m != 0; m &= m - 1) rec_.addr[std::countr_zero(m)] = offsets[std::countr_zero(m)];
    rec_.io_write = write;
    rec_.io_bytes = bytes;
    rec_.io_tag = tag;
    rec_.io_dest = dest;
    rec_.io_dest_stride = dest_stride;
    emit(RecordKind::IoSubmit, pc);
}

void WarpEmitter::io_wait(uint64_t pc, uint32_t tag) {
    rec_.set_access(MemSpace::Global, 0, live_, false, 0, 0);
    rec_.io_tag = tag;
    emit(RecordKind::IoWait, pc);
}

void WarpEmitter::phase(uint64_t pc, uint64_t duration_ps) {
    rec_.set_access(MemSpace::Global, 0, live_, false, 0, 0);
    rec_.duration_ps = duration_ps;
    emit(RecordKind::Phase, pc);
}

void WarpEmitter::finish() {
    // Trailing compute rides on the Exit record rather than a separate Compute record;
    // without it, the writer appends the Exit itself.
    if (pending_compute_ != 0) {
        rec_.set_access(MemSpace::Global, 0, live_, false, 0, 0);
        emit(RecordKind::Exit, 0);
    }
    writer_ = nullptr;
}

KernelEmitter::KernelEmitter(trace::TraceWriter& w, const trace::KernelInfo& k)
    : writer_(w), info_(k), warps_(k.warps_per_cta()), uncaught_at_start_(std::uncaught_exceptions()) {
    if (k.grid.count() == 0 || k.block.count() == 0)
        throw std::invalid_argument("KernelEmitter: kernel '" + k.name + "' has an empty grid or block");
    writer_.begin_kernel(info_);
}

KernelEmitter::~KernelEmitter() noexcept(false) {
    // While an exception unwinds, the trace is abandoned anyway; throwing again would
    // terminate the program.
    if (ended_ || std::uncaught_exceptions() > uncaught_at_start_) return;
    end();
}

void KernelEmitter::end() {
    if (ended_) throw std::logic_error("KernelEmitter: '" + info_.name + "' ended twice");
    if (in_cta_) end_cta();
    ended_ = true;
    writer_.end_kernel();
}

void KernelEmitter::begin_cta(uint64_t cta_id) {
    if (ended_) throw std::logic_error("KernelEmitter: begin_cta after '" + info_.name + "' ended");
    if (in_cta_) throw std::logic_error("KernelEmitter: begin_cta while CTA is open in '" + info_.name + "'");
    if (cta_id >= info_.grid.count())
        throw std::out_of_range("KernelEmitter: CTA " + std::to_string(cta_id) + " outside the grid of '" +
                                info_.name + "'");
    writer_.begin_cta(cta_id);
    const uint64_t threads = info_.block.count();
    for (uint32_t i = 0; i < warps_.size(); ++i) {
        const uint64_t first = uint64_t(i) * trace::kWarpSize;
        warps_[i].reset(&writer_, i, lanes_below(static_cast<int>(std::min<uint64_t>(threads - first, 32))));
    }
    in_cta_ = true;
}

WarpEmitter& KernelEmitter::warp(uint32_t w) {
    if (!in_cta_) throw std::logic_error("KernelEmitter: warp() outside a CTA of '" + info_.name + "'");
    if (w >= warps_.size())
        throw std::out_of_range("KernelEmitter: warp " + std::to_string(w) + " of " +
                                std::to_string(warps_.size()) + " in '" + info_.name + "'");
    return warps_[w];
}

void KernelEmitter::end_cta() {
    if (!in_cta_) throw std::logic_error("KernelEmitter: end_cta without begin_cta in '" + info_.name + "'");
    for (auto& w : warps_) w.finish();
    writer_.end_cta();
    in_cta_ = false;
}

}  // namespace zng::workloads
