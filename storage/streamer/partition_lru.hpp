// Host DRAM holding cached partitions (Spark's MemoryStore) as a least-recently-used
// list by bytes: inserting or touching a partition makes it the most recent; an insert
// that overflows the capacity evicts the least recent ones, which the caller spills to
// the SSDs (memory-and-disk) or drops (memory-only). No allocation per access beyond
// the list node of a partition entering.
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

namespace zng::storage::streamer {

class PartitionLru {
public:
    explicit PartitionLru(uint64_t capacity) : capacity_(capacity) {}

    bool contains(uint64_t id) const { return where_.count(id) != 0; }
    // Makes a resident partition the most recent; false when it is not resident.
    bool touch(uint64_t id) {
        const auto it = where_.find(id);
        if (it == where_.end()) return false;
        order_.splice(order_.end(), order_, it->second);
        return true;
    }
    // Inserts (or touches) `id` of `bytes` and appends to `evicted` the (id, bytes) of the
    // partitions that left to make room, least recent first. A partition larger than the
    // whole capacity does not enter: it is reported as evicted itself.
    void insert(uint64_t id, uint64_t bytes, std::vector<std::pair<uint64_t, uint64_t>>& evicted) {
        if (touch(id)) return;
        if (bytes > capacity_) {
            evicted.emplace_back(id, bytes);
            return;
        }
        while (used_ + bytes > capacity_) {
            const auto [vid, vbytes] = order_.front();
            order_.pop_front();
            where_.erase(vid);
            used_ -= vbytes;
            evicted.emplace_back(vid, vbytes);
        }
        order_.emplace_back(id, bytes);
        where_[id] = std::prev(order_.end());
        used_ += bytes;
    }
    // Forgets a partition (its data was replaced); false when it was not resident.
    bool erase(uint64_t id) {
        const auto it = where_.find(id);
        if (it == where_.end()) return false;
        used_ -= it->second->second;
        order_.erase(it->second);
        where_.erase(it);
        return true;
    }
    uint64_t used() const { return used_; }
    uint64_t capacity() const { return capacity_; }

private:
    uint64_t capacity_;
    uint64_t used_ = 0;
    std::list<std::pair<uint64_t, uint64_t>> order_;  // least recent first
    std::unordered_map<uint64_t, std::list<std::pair<uint64_t, uint64_t>>::iterator> where_;
};

}  // namespace zng::storage::streamer
