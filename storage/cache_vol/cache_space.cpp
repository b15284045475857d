#include "storage/cache_vol/cache_space.hpp"

namespace zng::storage::cache_vol {

uint64_t CacheSpace::reserved(uint64_t file) const {
    const auto it = files_.find(file);
    return it == files_.end() ? 0 : it->second.bytes;
}

std::optional<uint64_t> CacheSpace::victim(uint64_t except) const {
    std::optional<uint64_t> best;
    const Entry* b = nullptr;
    for (const auto& [file, e] : files_) {
        if (file == except || e.pins != 0) continue;
        bool better = b == nullptr;
        if (!better) {
            switch (policy_) {
                case EvictionPolicy::Lru: better = e.last_use < b->last_use; break;
                case EvictionPolicy::Fifo: better = e.inserted < b->inserted; break;
                case EvictionPolicy::Lfu:  // fewest accesses; among equals, the least recently used
                    better = e.uses < b->uses || (e.uses == b->uses && e.last_use < b->last_use);
                    break;
            }
        }
        if (better) {
            best = file;
            b = &e;
        }
    }
    return best;
}

bool CacheSpace::reserve(uint64_t file, uint64_t bytes) {
    // What could be freed: every unpinned file but this one.
    uint64_t freeable = capacity_ - used_;
    for (const auto& [f, e] : files_)
        if (f != file && e.pins == 0) freeable += e.bytes;
    if (bytes > freeable) return false;
    while (capacity_ - used_ < bytes) {
        const uint64_t v = *victim(file);
        used_ -= files_.at(v).bytes;
        files_.erase(v);
        ++evictions_;
        if (on_evict) on_evict(v);
    }
    auto [it, fresh] = files_.try_emplace(file);
    if (fresh) it->second.inserted = it->second.last_use = ++clock_;
    it->second.bytes += bytes;
    used_ += bytes;
    return true;
}

void CacheSpace::touch(uint64_t file) {
    const auto it = files_.find(file);
    if (it == files_.end()) return;
    it->second.last_use = ++clock_;
    ++it->second.uses;
}

void CacheSpace::release(uint64_t file) {
    const auto it = files_.find(file);
    if (it == files_.end() || it->second.pins != 0) return;
    used_ -= it->second.bytes;
    files_.erase(it);
}

}  // namespace zng::storage::cache_vol
