// The node-local cache's space, reserved per file, and which file's cache is dropped
// when a reservation does not fit. Seed 004 III-C: "We manage the cache replacement in
// granularity of a file. Specifically, when a file is created or opened, Cache VOL will
// attempt to reserve a portion of NLS space according to the size of the dataset. If
// there is not enough space available, it will attempt to remove caches from other
// files to free up space according to the specified cache replacement policy, based on
// the history of cache accesses recorded. We support LRU (least recently used), LFU
// (least frequently used), and FIFO (first in first out)." A reservation grows as the
// file's data is staged or cached; a file whose data awaits migration is pinned (its
// cache is the only copy) and is never a victim.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>

namespace zng::storage::cache_vol {

enum class EvictionPolicy : uint8_t { Lru, Lfu, Fifo };

class CacheSpace {
public:
    CacheSpace(uint64_t capacity, EvictionPolicy policy) : capacity_(capacity), policy_(policy) {}

    // Grows `file`'s reservation by `bytes`, first dropping other files' caches by the
    // policy while it does not fit. False (nothing reserved or dropped) when it cannot
    // fit even with every unpinned other file dropped: the file's I/O then goes to the
    // parallel file system ("After a cache is removed, the next I/O requests associated
    // to that file will be directed to the PFS").
    bool reserve(uint64_t file, uint64_t bytes);
    // An access to `file`'s cache: the history LRU and LFU choose by.
    void touch(uint64_t file);
    // "Caches will also automatically be removed once the file or the dataset is closed."
    void release(uint64_t file);
    void pin(uint64_t file) { ++files_.at(file).pins; }
    void unpin(uint64_t file) { --files_.at(file).pins; }

    bool holds(uint64_t file) const { return files_.count(file) != 0; }
    uint64_t reserved(uint64_t file) const;
    uint64_t used() const { return used_; }
    uint64_t capacity() const { return capacity_; }
    uint64_t evictions() const { return evictions_; }
    // The file the policy drops next, other than `except`; none when every other file is pinned.
    std::optional<uint64_t> victim(uint64_t except) const;

    // Called with each file whose cache a reservation dropped.
    std::function<void(uint64_t file)> on_evict;

private:
    struct Entry {
        uint64_t bytes = 0;
        uint64_t inserted = 0;  // FIFO: order of the file's first reservation
        uint64_t last_use = 0;  // LRU: order of its last access
        uint64_t uses = 0;      // LFU: accesses
        uint32_t pins = 0;
    };
    uint64_t capacity_;
    EvictionPolicy policy_;
    std::map<uint64_t, Entry> files_;  // ordered: victim ties go to the lowest file number
    uint64_t used_ = 0;
    uint64_t clock_ = 0;  // counts reservations and accesses (orders, not times)
    uint64_t evictions_ = 0;
};

}  // namespace zng::storage::cache_vol
