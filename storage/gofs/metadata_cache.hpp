// GoFS's in-GPU-memory metadata cache: node blocks (inodes, direct and indirect nodes)
// and dentry blocks, each 4 KB, least recently used evicted when the cache is full.
// Seed 001: "Note that GoFS still maintains a filesystem metadata cache", kept by "a
// buddy allocator within GoFS daemon for managing the file metadata caching"; the
// cache is bounded by GPU memory, so a large namespace misses and re-reads from disk.
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>

namespace zng::storage::gofs {

class MetadataCache {
public:
    explicit MetadataCache(uint64_t capacity_blocks) : capacity_(capacity_blocks) {}

    // Whether `key` is cached; a hit becomes most recently used.
    bool lookup(uint64_t key) {
        auto it = where_.find(key);
        if (it == where_.end()) return false;
        order_.splice(order_.begin(), order_, it->second);
        ++hits_;
        return true;
    }
    // Caches `key` (after a miss read it), evicting the least recently used.
    void insert(uint64_t key) {
        ++misses_;
        if (capacity_ == 0 || where_.count(key)) return;
        if (where_.size() == capacity_) {
            where_.erase(order_.back());
            order_.pop_back();
        }
        order_.push_front(key);
        where_[key] = order_.begin();
    }
    // Lookup, inserting on a miss; true on a hit.
    bool touch(uint64_t key) {
        if (lookup(key)) return true;
        insert(key);
        return false;
    }
    uint64_t size() const { return where_.size(); }
    uint64_t hits() const { return hits_; }
    uint64_t misses() const { return misses_; }

private:
    uint64_t capacity_;
    std::list<uint64_t> order_;  // most recently used first
    std::unordered_map<uint64_t, std::list<uint64_t>::iterator> where_;
    uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace zng::storage::gofs
