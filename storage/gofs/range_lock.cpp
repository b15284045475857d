#include "storage/gofs/range_lock.hpp"

#include "sim/core/errors.hpp"

namespace zng::storage::gofs {

bool RangeLock::blocked(size_t i) const {
    for (size_t k = 0; k < i; ++k)
        if (slots_[k].begin < slots_[i].end && slots_[i].begin < slots_[k].end) return true;
    return false;
}

bool RangeLock::acquire(uint64_t id, uint64_t offset, uint64_t bytes) {
    slots_.push_back({id, offset, offset + bytes, false});
    slots_.back().granted = !blocked(slots_.size() - 1);
    return slots_.back().granted;
}

void RangeLock::release(uint64_t id, std::vector<uint64_t>& granted) {
    size_t i = 0;
    while (i < slots_.size() && slots_[i].id != id) ++i;
    if (i == slots_.size() || !slots_[i].granted) throw SimError("range lock released by a request not holding it");
    slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(i));
    for (size_t k = 0; k < slots_.size(); ++k)
        if (!slots_[k].granted && !blocked(k)) {
            slots_[k].granted = true;
            granted.push_back(slots_[k].id);
        }
}

}  // namespace zng::storage::gofs
