#include "flash_model/array/register_file.hpp"

#include "sim/core/errors.hpp"

namespace zng::flash {

FlashRegisterFile::FlashRegisterFile(uint32_t planes, uint32_t per_plane, RegisterGrouping grouping,
                                     std::unique_ptr<RegisterReplacementPolicy> policy)
    : per_plane_(per_plane),
      grouping_(grouping),
      policy_(std::move(policy)),
      regs_(planes * per_plane),
      busy_(regs_.size(), 0),
      state_(regs_.size(), 0),
      idle_in_plane_(planes, per_plane),
      idle_(static_cast<uint32_t>(regs_.size())),
      clean_idle_(static_cast<uint32_t>(regs_.size())),
      empty_idle_(static_cast<uint32_t>(regs_.size())),
      unflushed_in_plane_(planes, 0),
      last_written_in_plane_(planes, UINT32_MAX),
      index_(regs_.size()) {
    for (uint32_t i = 0; i < regs_.size(); ++i) regs_[i].home_plane = i / per_plane;
    policy_->resize(regs_.size());
    candidates_.reserve(regs_.size());
    dirty_candidates_.reserve(regs_.size());
    waiting_candidates_.reserve(regs_.size());
}

uint64_t FlashRegisterFile::upfront_bytes(uint64_t planes, uint64_t per_plane) {
    const uint64_t regs = planes * per_plane;
    constexpr uint64_t kReplacementBytes = sizeof(uint64_t) + 2 * sizeof(uint32_t);
    return regs * (sizeof(FlashRegister) + 2 * sizeof(uint8_t) + 3 * sizeof(uint32_t) + kReplacementBytes) +
           planes * 3 * sizeof(uint32_t) + FixedHashMap<uint32_t>::table_bytes(regs);
}

void FlashRegisterFile::set_busy(uint32_t r, bool b) {
    if (busy_[r] == static_cast<uint8_t>(b)) return;
    busy_[r] = b;
    set_state(r, kBusy, b);
    if (!regs_[r].valid) empty_idle_ += b ? UINT32_MAX : 1u;
    uint32_t& plane_idle = idle_in_plane_[regs_[r].home_plane];
    const uint32_t step = b ? UINT32_MAX : 1u;  // -1 or +1
    plane_idle += step;
    idle_ += step;
    if (!regs_[r].dirty) clean_idle_ += step;
}

int FlashRegisterFile::victim(uint32_t plane, bool clean_only, bool programmable_only) {
    if (grouping_ == RegisterGrouping::Package ? idle_ == 0 : idle_in_plane_[plane] == 0) return -1;
    uint32_t own = plane * per_plane_;
    for (uint32_t r = own; r < own + per_plane_; ++r)
        if (!regs_[r].valid && !busy_[r]) return static_cast<int>(r);
    if (grouping_ == RegisterGrouping::Package && policy_->keeps_order())
        return victim_in_order(clean_only, programmable_only);
    // A clean victim costs nothing to give up; a dirty one costs a program (tPROG), and
    // one whose program is held by a merge keeps the register until the merge ends.
    // One scan sorts the idle registers of the group into clean and dirty (in register
    // order); whether a dirty one's program is held is asked only when no clean one
    // exists, once per register.
    candidates_.clear();
    dirty_candidates_.clear();
    for (uint32_t r = group_first(plane), end = group_end(plane); r < end; ++r) {
        if (busy_[r]) continue;
        if (!regs_[r].valid) return static_cast<int>(r);
        (regs_[r].dirty ? dirty_candidates_ : candidates_).push_back(r);
    }
    if (candidates_.empty() && clean_only) return -1;
    if (candidates_.empty()) {
        // Those whose program can start now first (kept in candidates_), then the others
        // not held, then the held ones.
        size_t held = 0;
        waiting_candidates_.clear();
        for (uint32_t r : dirty_candidates_) {
            if (program_held(r))
                dirty_candidates_[held++] = r;
            else
                (page_plane_free(r) ? candidates_ : waiting_candidates_).push_back(r);
        }
        dirty_candidates_.resize(held);
        if (candidates_.empty()) candidates_.swap(waiting_candidates_);
        if (candidates_.empty() && !programmable_only) candidates_.swap(dirty_candidates_);
    }
    if (candidates_.empty()) return -1;
    return static_cast<int>(candidates_[policy_->choose(candidates_.data(), candidates_.size())]);
}

int FlashRegisterFile::victim_in_order(bool clean_only, bool programmable_only) {
    // The same choice as the search below, found by walking the policy's order: the
    // first empty idle register, else the policy's first clean idle one, else its first
    // dirty idle one whose program can start now, else its first one not held, else
    // (unless programmable_only) its first dirty idle one.
    if (empty_idle_ > 0)
        for (uint32_t r = 0; r < regs_.size(); ++r)
            if (!regs_[r].valid && !busy_[r]) return static_cast<int>(r);
    const bool clean = clean_idle_ > 0;  // no empty idle register is left: these are clean
    if (!clean && clean_only) return -1;
    const uint8_t want = clean ? kValid : kValid | kDirty;
    const uint32_t* next = policy_->next_in_order();
    int first_held = -1, first_waiting = -1;
    for (uint32_t r = policy_->first_in_order(); r != RegisterReplacementPolicy::kEndOfOrder; r = next[r]) {
        if ((state_[r] & (kValid | kDirty | kBusy)) != want) continue;
        if (clean) return static_cast<int>(r);
        const bool plane_free = page_plane_free(r);
        if (!plane_free && first_waiting >= 0) continue;  // only a free plane's register can still win
        if (program_held(r)) {
            if (first_held < 0) first_held = static_cast<int>(r);
            continue;
        }
        if (plane_free) return static_cast<int>(r);
        first_waiting = static_cast<int>(r);
    }
    if (first_waiting >= 0) return first_waiting;
    return programmable_only ? -1 : first_held;
}

bool FlashRegisterFile::program_held(uint32_t r) const { return program_held_ && program_held_(regs_[r].tag); }

void FlashRegisterFile::note_written(uint32_t r) {
    last_written_in_plane_[regs_[r].home_plane] = r;
    last_written_ = r;
}

int FlashRegisterFile::dirty_victim(uint32_t plane) {
    // Paper V-B: "ZnG can buffer the small write requests in both the L2 cache and flash
    // registers": the register taking the current stores keeps buffering them.
    if (grouping_ == RegisterGrouping::Package && policy_->keeps_order()) {
        // The policy's first candidate whose program can start: the same choice as the
        // search below, asking the FTL only about the candidates before it.
        const uint32_t* next = policy_->next_in_order();
        for (uint32_t r = policy_->first_in_order(); r != RegisterReplacementPolicy::kEndOfOrder; r = next[r])
            if (background_programmable(r)) return static_cast<int>(r);
        return -1;
    }
    candidates_.clear();
    for (uint32_t r = group_first(plane), end = group_end(plane); r < end; ++r)
        if (background_programmable(r)) candidates_.push_back(r);
    if (candidates_.empty()) return -1;
    return static_cast<int>(candidates_[policy_->choose(candidates_.data(), candidates_.size())]);
}

bool FlashRegisterFile::background_programmable(uint32_t r, bool open_too) const {
    return (state_[r] & (kValid | kDirty | kBusy | kProgramming)) == (kValid | kDirty) &&
           (open_too || r != open_register(regs_[r].home_plane)) && !program_held(r);
}

void FlashRegisterFile::fill(uint32_t r, uint64_t tag) {
    FlashRegister& g = regs_[r];
    if (g.dirty) throw SimError("flash register file: a dirty register was refilled before its program");
    if (g.valid) index_.erase(g.tag);
    if (index_.contains(tag)) throw SimError("flash register file: a page may sit in one register only");
    if (!g.valid && !busy_[r]) --empty_idle_;
    g.tag = tag;
    g.stored = false;
    g.valid = true;
    set_state(r, kValid, true);
    g.chunks = 0;
    index_.put(tag, r);
    policy_->on_fill(r);
}

void FlashRegisterFile::count(uint32_t r, int sign) {
    const FlashRegister& g = regs_[r];
    const uint32_t home = g.home_plane;
    if (g.dirty && !g.programming) {
        unflushed_in_plane_[home] += sign;
        unflushed_ += sign;
    }
    if (g.programming) programming_ += sign;
}

void FlashRegisterFile::set_dirty(uint32_t r, bool d) {
    count(r, -1);
    if (!busy_[r] && regs_[r].dirty != d) clean_idle_ += d ? UINT32_MAX : 1u;  // -1 or +1
    regs_[r].dirty = d;
    set_state(r, kDirty, d);
    count(r, +1);
}

void FlashRegisterFile::set_programming(uint32_t r, bool p) {
    count(r, -1);
    regs_[r].programming = p;
    set_state(r, kProgramming, p);
    count(r, +1);
}

void FlashRegisterFile::drop(uint32_t r) {
    index_.erase(regs_[r].tag);
    regs_[r].valid = false;
    set_state(r, kValid, false);
    if (!busy_[r]) ++empty_idle_;
}

void FlashRegisterFile::invalidate_block(uint32_t plane, uint32_t block) {
    for (uint32_t r = 0; r < regs_.size(); ++r) {
        FlashRegister& g = regs_[r];
        if (g.valid && !g.dirty && !busy_[r] && tag_plane(g.tag) == plane && tag_block(g.tag) == block) drop(r);
    }
}

void FlashRegisterFile::move_block(uint32_t plane, uint32_t from, uint32_t to) {
    for (uint32_t r = 0; r < regs_.size(); ++r) {
        FlashRegister& g = regs_[r];
        if (!g.valid || tag_plane(g.tag) != plane || tag_block(g.tag) != from) continue;
        index_.erase(g.tag);
        g.tag = make_tag(plane, to, tag_page(g.tag));
        g.stored = false;
        index_.put(g.tag, r);
    }
}

uint32_t FlashRegisterFile::dirty_count() const { return unflushed_ + programming_; }

}  // namespace zng::flash
