// The set of line addresses the zng L2 policy still expects a first use of (lines a
// prefetch filled that no demand access has touched yet): a fixed-capacity hash set,
// so tracking never allocates on the hot path.
#pragma once
#include <cstdint>

#include "flash_model/fixed_hash_map.hpp"

namespace zng::gpu {

class LineAddressSet {
public:
    explicit LineAddressSet(uint64_t capacity) : map_(capacity) {}
    // False when already present. Throws std::length_error when full.
    bool insert(uint64_t line) {
        if (map_.contains(line)) return false;
        map_.put(line, 0);
        return true;
    }
    bool erase(uint64_t line) { return map_.erase(line); }
    bool contains(uint64_t line) const { return map_.contains(line); }
    uint64_t size() const { return map_.size(); }

private:
    FixedHashMap<uint8_t> map_;
};

}  // namespace zng::gpu
