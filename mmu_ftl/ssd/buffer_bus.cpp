#include "mmu_ftl/ssd/buffer_bus.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"

namespace zng::ftl {

BufferArbitration parse_buffer_arbitration(const std::string& name, const std::string& key) {
    if (name == "fifo") return BufferArbitration::Fifo;
    if (name == "round_robin") return BufferArbitration::RoundRobin;
    throw SimError(key + ": unknown arbitration '" + name + "' (fifo or round_robin)");
}

BufferBus::BufferBus(Simulator& sim, double bytes_per_second, Tick latency, BufferArbitration arbitration,
                     Delivered delivered)
    : sim_(sim), arbitration_(arbitration), delivered_(std::move(delivered)), link_(bytes_per_second, latency) {}

Tick BufferBus::host_transfer(uint64_t bytes) {
    const Tick now = sim_.now();
    if (arbitration_ == BufferArbitration::Fifo) return link_.transfer(now, bytes);
    link_.transfer(now, bytes);  // counts bytes and busy time; the timeline below decides when
    const Tick work = link_.occupancy(bytes);
    advance_flash();
    const Tick start = std::max(now, host_free_);
    // The flash side's data still to move when this transfer starts: while there is some,
    // the two alternate bursts.
    const Tick flash_left = flash_busy_ ? remaining_ + queued_work_ : 0;
    const Tick flash_free = free_time(now, start);
    const Tick shared = std::min(work, flash_left > flash_free ? flash_left - flash_free : 0);
    Tick t = start;
    if (shared > 0) {
        host_.push_back({t, t + 2 * shared, true});
        t += 2 * shared;
    }
    if (work > shared) {
        host_.push_back({t, t + (work - shared), false});
        t += work - shared;
    }
    host_free_ = t;
    if (flash_busy_) sim_.schedule(flash_event_, finish_after(checkpoint_, remaining_));
    return host_free_ + link_.latency();
}

void BufferBus::flash_transfer(uint64_t bytes, uint32_t token) {
    if (arbitration_ == BufferArbitration::Fifo) {
        const Tick ready = link_.transfer(sim_.now(), bytes);
        if (token != kNoToken) delivered_(token, ready);
        return;
    }
    link_.transfer(sim_.now(), bytes);
    const Tick work = link_.occupancy(bytes);
    flash_queue_.push_back({work, token});
    if (flash_busy_) {
        queued_work_ += work;
        return;
    }
    start_next_flash();
}

Tick BufferBus::free_time(Tick from, Tick to) const {
    if (to <= from) return 0;
    Tick used = 0;
    for (size_t i = 0; i < host_.size(); ++i) {
        const HostSpan& s = host_[i];
        if (s.start >= to) break;
        const Tick a = std::max(s.start, from), b = std::min(s.end, to);
        if (b <= a) continue;
        used += s.half ? (b - a) / 2 : b - a;
    }
    return to - from - used;
}

Tick BufferBus::finish_after(Tick from, Tick work) const {
    Tick t = from;
    for (size_t i = 0; i < host_.size() && work > 0; ++i) {
        const HostSpan& s = host_[i];
        if (s.end <= t) continue;
        if (s.start > t) {
            if (work <= s.start - t) return t + work;
            work -= s.start - t;
            t = s.start;
        }
        if (s.half) {
            const Tick avail = (s.end - t) / 2;
            if (work <= avail) return t + 2 * work;
            work -= avail;
        }
        t = s.end;
    }
    return t + work;
}

void BufferBus::advance_flash() {
    const Tick now = sim_.now();
    if (flash_busy_) {
        const Tick done = free_time(checkpoint_, now);
        remaining_ = done >= remaining_ ? 0 : remaining_ - done;
        checkpoint_ = now;
    }
    while (!host_.empty() && host_.front().end <= now) host_.pop_front();
}

void BufferBus::start_next_flash() {
    advance_flash();
    flash_busy_ = true;
    checkpoint_ = sim_.now();
    remaining_ = flash_queue_.front().work;
    sim_.schedule(flash_event_, finish_after(checkpoint_, remaining_));
}

void BufferBus::flash_done() {
    const FlashTransfer done = flash_queue_.take_front();
    flash_busy_ = false;
    if (!flash_queue_.empty()) {
        queued_work_ -= flash_queue_.front().work;
        start_next_flash();
    }
    if (done.token != kNoToken) delivered_(done.token, sim_.now() + link_.latency());
}

}  // namespace zng::ftl
