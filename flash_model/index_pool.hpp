// Flash-side transactions, packets and messages live in pools addressed by index.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace zng::flash {

// Objects addressed by a 32-bit index and recycled through a free list, so that
// transactions and packets in flight cost no heap allocation in steady state.
template <class T>
class IndexPool {
public:
    uint32_t alloc() {
        uint32_t id;
        if (free_.empty()) {
            id = static_cast<uint32_t>(items_.size());
            items_.emplace_back();
            in_use_.push_back(1);
        } else {
            id = free_.back();
            free_.pop_back();
            items_[id] = T{};
            in_use_[id] = 1;
        }
        ++live_;
        return id;
    }
    void release(uint32_t id) {
        in_use_[id] = 0;
        free_.push_back(id);
        --live_;
    }
    T& operator[](uint32_t id) { return items_[id]; }
    const T& operator[](uint32_t id) const { return items_[id]; }
    size_t live() const { return live_; }
    // Visits every allocated object (rare bookkeeping such as re-addressing the
    // operations in flight when the FTL moves a block; not for hot paths).
    template <class F>
    void for_each_live(F&& f) {
        for (size_t i = 0; i < items_.size(); ++i)
            if (in_use_[i]) f(items_[i]);
    }

private:
    std::vector<T> items_;
    std::vector<uint8_t> in_use_;
    std::vector<uint32_t> free_;
    size_t live_ = 0;
};

}  // namespace zng::flash
