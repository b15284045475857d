#include "flash_model/register_file.hpp"

namespace zng::flash {

FlashRegisterFile::FlashRegisterFile(uint32_t planes, uint32_t per_plane, RegisterGrouping grouping,
                                     std::unique_ptr<RegisterReplacementPolicy> policy)
    : per_plane_(per_plane), grouping_(grouping), policy_(std::move(policy)), regs_(planes * per_plane) {
    for (uint32_t i = 0; i < regs_.size(); ++i) regs_[i].home_plane = i / per_plane;
    policy_->resize(regs_.size());
    candidates_.reserve(regs_.size());
}

int FlashRegisterFile::find(uint64_t tag) const {
    uint32_t plane = tag_plane(tag);
    uint32_t lo = 0, hi = static_cast<uint32_t>(regs_.size());
    if (grouping_ == RegisterGrouping::Plane) {
        lo = plane * per_plane_;
        hi = lo + per_plane_;
    }
    for (uint32_t r = lo; r < hi; ++r)
        if (regs_[r].valid && regs_[r].tag == tag) return static_cast<int>(r);
    return -1;
}

int FlashRegisterFile::victim(uint32_t plane) {
    uint32_t own = plane * per_plane_;
    for (uint32_t r = own; r < own + per_plane_; ++r)
        if (!regs_[r].valid && !regs_[r].busy) return static_cast<int>(r);
    candidates_.clear();
    for (uint32_t r = 0; r < regs_.size(); ++r) {
        if (!in_group(r, plane) || regs_[r].busy) continue;
        if (!regs_[r].valid) return static_cast<int>(r);
        candidates_.push_back(r);
    }
    if (candidates_.empty()) return -1;
    return static_cast<int>(candidates_[policy_->choose(candidates_.data(), candidates_.size())]);
}

void FlashRegisterFile::fill(uint32_t r, uint64_t tag) {
    regs_[r].tag = tag;
    regs_[r].valid = true;
    regs_[r].dirty = false;
    policy_->on_fill(r);
}

void FlashRegisterFile::invalidate_block(uint32_t plane, uint32_t block) {
    for (auto& g : regs_)
        if (g.valid && !g.dirty && !g.busy && tag_plane(g.tag) == plane && tag_block(g.tag) == block) g.valid = false;
}

void FlashRegisterFile::move_block(uint32_t plane, uint32_t from, uint32_t to) {
    for (auto& g : regs_)
        if (g.valid && tag_plane(g.tag) == plane && tag_block(g.tag) == from) g.tag = make_tag(plane, to, tag_page(g.tag));
}

uint32_t FlashRegisterFile::dirty_count() const {
    uint32_t n = 0;
    for (const auto& g : regs_) n += g.valid && g.dirty;
    return n;
}

}  // namespace zng::flash
