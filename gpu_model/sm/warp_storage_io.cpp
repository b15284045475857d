#include "gpu_model/sm/warp_storage_io.hpp"

#include <string>

#include "sim/core/errors.hpp"

namespace zng::gpu {
namespace {
// A request's token: its number in the group (40 bits), the group's index in its CTA
// (8), the CTA slot (8) and the low 8 bits of the CTA's serial.
constexpr uint32_t kMaxGroups = 256;
constexpr uint32_t kMaxCtaSlots = 256;
constexpr uint64_t kSeqMask = (uint64_t{1} << 40) - 1;
uint64_t make_token(uint32_t serial, uint32_t cta, uint32_t group, uint64_t seq) {
    return (uint64_t{serial & 0xffu} << 56) | (uint64_t{cta} << 48) | (uint64_t{group} << 40) | (seq & kSeqMask);
}
}  // namespace

WarpStorageIo::WarpStorageIo(const Simulator& sim, StorageIoService& service, uint32_t sm, uint32_t max_warps,
                             uint32_t max_ctas, Resume resume)
    : sim_(sim),
      service_(service),
      poll_interval_(service.poll_interval()),
      sm_(sm),
      resume_(std::move(resume)),
      ctas_(max_ctas),
      pending_(max_warps),
      waits_(max_warps) {
    if (max_ctas > kMaxCtaSlots)
        throw SimError("storage I/O: at most " + std::to_string(kMaxCtaSlots) + " CTA slots per SM");
}

void WarpStorageIo::cta_launched(uint32_t cta) {
    Cta& c = ctas_.at(cta);
    ++c.serial;
    c.groups.clear();
}

uint32_t WarpStorageIo::group_of(Cta& c, uint32_t tag) {
    for (uint32_t g = 0; g < c.groups.size(); ++g)
        if (c.groups[g].tag == tag) return g;
    if (c.groups.size() >= kMaxGroups)
        throw SimError("storage I/O: a CTA uses more than " + std::to_string(kMaxGroups) + " I/O tags");
    c.groups.emplace_back();
    c.groups.back().tag = tag;
    return static_cast<uint32_t>(c.groups.size() - 1);
}

bool WarpStorageIo::submit(uint32_t slot, uint32_t cta, uint16_t app, uint32_t warp, const trace::WarpRecord& rec) {
    Cta& c = ctas_.at(cta);
    const uint32_t g = group_of(c, rec.io_tag);
    Group& grp = c.groups[g];
    PendingBatch& b = pending_.at(slot);
    b.slot = slot;
    b.app = app;
    b.warp = warp;
    b.count = 0;
    for (int lane = 0; lane < trace::kWarpSize; ++lane) {
        if (!(rec.active_mask >> lane & 1u)) continue;
        StorageIo& io = b.ios[b.count++];
        io.offset = rec.lane_addr(lane);
        io.dest = rec.io_dest_of(lane);
        io.bytes = rec.io_bytes;
        io.write = rec.io_write;
        io.token = make_token(c.serial, cta, g, grp.next++);
        grp.done.push_back(0);
    }
    submitted_ += b.count;
    if (b.count == 0) return true;
    if (refused_.empty() && try_send(b)) return true;
    refused_.push_back(slot);
    return false;
}

bool WarpStorageIo::try_send(const PendingBatch& b) {
    if (!service_.can_submit(b.count, *this)) return false;
    StorageIoBatch batch;
    batch.app = b.app;
    batch.sm = static_cast<uint16_t>(sm_);
    batch.warp = b.warp;
    batch.ios = b.ios.data();
    batch.count = b.count;
    service_.submit(batch, *this);
    return true;
}

void WarpStorageIo::io_room() {
    while (!refused_.empty()) {
        const uint32_t slot = refused_.front();
        if (!try_send(pending_[slot])) return;
        refused_.pop_front();
        resume_(slot);
    }
}

WarpStorageIo::Wait WarpStorageIo::wait(uint32_t slot, uint32_t cta, uint32_t tag) {
    Cta& c = ctas_.at(cta);
    SlotWait& sw = waits_.at(slot);
    if (sw.mode == Wait::Poll) {
        // The next poll of a wait in progress: it reads the completion state again.
        ++polls_;
        if (c.groups[sw.group].low < sw.until) return Wait::Poll;
        end_wait(slot);
        return Wait::Go;
    }
    const uint32_t g = group_of(c, tag);
    Group& grp = c.groups[g];
    if (poll_interval_ > 0) ++polls_;  // the first read of the completion entry
    if (grp.low >= grp.next) return Wait::Go;
    sw.group = g;
    sw.until = grp.next;
    sw.since = sim_.now();
    if (poll_interval_ > 0) {
        sw.mode = Wait::Poll;
        ++waits_polled_;
        if (polling_warps_++ == 0) polling_sm_since_ = sim_.now();
        return Wait::Poll;
    }
    sw.mode = Wait::Blocked;
    grp.waiters.push_back({slot, grp.next});
    ++waits_blocked_;
    return Wait::Blocked;
}

void WarpStorageIo::end_wait(uint32_t slot) {
    SlotWait& sw = waits_[slot];
    const Tick spent = sim_.now() - sw.since;
    if (sw.mode == Wait::Poll) {
        polling_time_ += spent;
        if (--polling_warps_ == 0) polling_sm_time_ += sim_.now() - polling_sm_since_;
    } else {
        blocked_time_ += spent;
    }
    sw.mode = Wait::Go;
}

Tick WarpStorageIo::polling_sm_time() const {
    return polling_sm_time_ + (polling_warps_ > 0 ? sim_.now() - polling_sm_since_ : 0);
}

void WarpStorageIo::register_stats(StatGroup g) const {
    g.formula("waits_blocked", "io_waits that blocked their warp until told of the completion", "waits",
              [this] { return double(waits_blocked_); });
    g.formula("waits_polled", "io_waits whose warp polled for the completion", "waits",
              [this] { return double(waits_polled_); });
    g.formula("polls", "poll instructions issued by waiting warps", "instructions", [this] { return double(polls_); });
    g.formula("blocked_warp_time", "warp-slot time spent blocked in io_wait", "ns",
              [this] { return double(blocked_time_) / double(kNanosecond); });
    g.formula("polling_warp_time", "warp-slot time spent polling in io_wait", "ns",
              [this] { return double(polling_time_) / double(kNanosecond); });
    g.formula("polling_sm_time", "time the SM held at least one polling warp", "ns",
              [this] { return double(polling_sm_time()) / double(kNanosecond); });
}

void WarpStorageIo::io_done(uint64_t token) {
    ++completed_;
    const uint32_t cta = static_cast<uint32_t>(token >> 48 & 0xffu);
    const uint32_t g = static_cast<uint32_t>(token >> 40 & 0xffu);
    const uint64_t seq = token & kSeqMask;
    Cta& c = ctas_.at(cta);
    // A request of a CTA that has left the slot: its data has arrived, nobody waits.
    if ((c.serial & 0xffu) != (token >> 56) || g >= c.groups.size()) return;
    Group& grp = c.groups[g];
    if (seq < grp.low || seq - grp.low >= grp.done.size() || grp.done[seq - grp.low])
        throw SimError("storage I/O: completion of request " + std::to_string(seq) + " of tag " +
                       std::to_string(grp.tag) + " that is not outstanding");
    grp.done[seq - grp.low] = 1;
    while (!grp.done.empty() && grp.done.front()) {
        grp.done.pop_front();
        ++grp.low;
    }
    // Release the waiters now satisfied, keeping the others in order.
    size_t kept = 0;
    for (size_t i = 0; i < grp.waiters.size(); ++i) {
        const Waiter w = grp.waiters[i];
        if (w.until <= grp.low) {
            end_wait(w.slot);
            resume_(w.slot);
        } else
            grp.waiters[kept++] = w;
    }
    grp.waiters.resize(kept);
}

}  // namespace zng::gpu
