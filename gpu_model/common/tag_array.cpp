#include "gpu_model/common/tag_array.hpp"

#include "sim/core/errors.hpp"

namespace zng::gpu {

TagArray::TagArray(uint32_t sets, uint32_t ways) : sets_(sets), ways_(ways) {
    if (sets == 0 || ways == 0 || ways > 64)
        throw SimError("tag array needs at least one set and 1..64 ways (got " + std::to_string(sets) + " x " +
                       std::to_string(ways) + ")");
    lines_.resize(static_cast<size_t>(sets) * ways);
}

uint32_t TagArray::victim(uint32_t set, uint64_t allowed) const {
    const TagLine* s = &lines_[static_cast<size_t>(set) * ways_];
    uint32_t best = ways_;
    for (uint32_t w = 0; w < ways_; ++w) {
        if (!(allowed >> w & 1ull)) continue;
        if (!s[w].valid) return w;
        if (best == ways_ || s[w].last_use < s[best].last_use) best = w;
    }
    if (best == ways_) throw SimError("tag array: no way allowed for replacement");
    return best;
}

TagLine& TagArray::install(uint32_t set, uint32_t way, uint64_t tag) {
    TagLine& l = at(set, way);
    l = TagLine{};
    l.tag = tag;
    l.valid = true;
    l.last_use = ++clock_;
    return l;
}

uint64_t TagArray::valid_lines() const {
    uint64_t n = 0;
    for (const auto& l : lines_) n += l.valid;
    return n;
}

}  // namespace zng::gpu
