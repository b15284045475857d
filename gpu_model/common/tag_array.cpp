#include "gpu_model/common/tag_array.hpp"

#include <algorithm>
#include <bit>

#include "sim/core/errors.hpp"

namespace zng::gpu {

TagArray::TagArray(uint32_t sets, uint32_t ways)
    : sets_(sets),
      ways_(ways),
      set_mask_(sets > 1 && std::has_single_bit(sets) ? sets - 1 : 0),
      all_ways_(ways >= 64 ? ~0ull : (1ull << ways) - 1) {
    if (sets == 0 || ways == 0 || ways > 64)
        throw SimError("tag array needs at least one set and 1..64 ways (got " + std::to_string(sets) + " x " +
                       std::to_string(ways) + ")");
    stride_ = stride_words(ways);
    const size_t words = stride_ * sets;
    index_.reset(static_cast<uint64_t*>(::operator new[](words * sizeof(uint64_t), std::align_val_t{kHostLine})));
    for (uint32_t s = 0; s < sets; ++s) {
        std::fill_n(keys(s), ways, kNoKey);
        std::fill_n(stamps(s), stride_ - ways, uint64_t{0});
    }
    lines_.resize(static_cast<size_t>(sets) * ways);
}

uint32_t TagArray::victim(uint32_t set, uint64_t allowed) const {
    // The first smallest stamp: the lowest invalid way if any (stamp 0), else the least
    // recently used (valid stamps are distinct).
    const uint64_t* stamp = stamps(set);
    if ((allowed & all_ways_) == all_ways_) {
        // Every way allowed (all but pinning L2 sets): no per-way mask test.
        uint32_t best = 0;
        uint64_t oldest = stamp[0];
        for (uint32_t w = 1; w < ways_; ++w)
            if (stamp[w] < oldest) {
                oldest = stamp[w];
                best = w;
            }
        return best;
    }
    uint32_t best = ways_;
    uint64_t oldest = ~uint64_t{0};
    for (uint32_t w = 0; w < ways_; ++w)
        if ((allowed >> w & 1ull) && (best == ways_ || stamp[w] < oldest)) {
            oldest = stamp[w];
            best = w;
        }
    if (best == ways_) throw SimError("tag array: no way allowed for replacement");
    return best;
}

TagLine& TagArray::install(uint32_t set, uint32_t way, uint64_t tag) {
    if (tag == kNoKey) throw SimError("tag array: tag " + std::to_string(tag) + " is reserved for invalid ways");
    keys(set)[way] = tag;
    stamps(set)[way] = ++clock_;
    TagLine& l = at(set, way);
    l = TagLine{};
    l.tag = tag;
    l.valid = true;
    return l;
}

uint64_t TagArray::valid_lines() const {
    uint64_t n = 0;
    for (uint32_t s = 0; s < sets_; ++s) n += static_cast<uint64_t>(std::count_if(
                                             keys(s), keys(s) + ways_, [](uint64_t k) { return k != kNoKey; }));
    return n;
}

}  // namespace zng::gpu
