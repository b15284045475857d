// A FIFO on a growable ring buffer: push/pop allocate nothing once the buffer has grown
// to the model's working size (std::deque allocates and frees chunks as it moves).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace zng::flash {

template <class T>
class RingQueue {
public:
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }
    T& front() { return buf_[head_]; }
    const T& front() const { return buf_[head_]; }
    T& operator[](size_t i) { return buf_[(head_ + i) & (buf_.size() - 1)]; }
    const T& operator[](size_t i) const { return buf_[(head_ + i) & (buf_.size() - 1)]; }

    void push_back(T v) {
        if (size_ == buf_.size()) grow();
        buf_[(head_ + size_) & (buf_.size() - 1)] = std::move(v);
        ++size_;
    }
    void pop_front() {
        head_ = (head_ + 1) & (buf_.size() - 1);
        --size_;
    }
    // Removes element i, keeping the order of the others (for schedulers that pick
    // from the middle of a queue).
    void erase_at(size_t i) {
        for (size_t k = i; k > 0; --k) (*this)[k] = std::move((*this)[k - 1]);
        pop_front();
    }

private:
    void grow() {
        std::vector<T> n(buf_.empty() ? 8 : buf_.size() * 2);  // power of two: index by mask
        for (size_t i = 0; i < size_; ++i) n[i] = std::move((*this)[i]);
        buf_ = std::move(n);
        head_ = 0;
    }
    std::vector<T> buf_;
    size_t head_ = 0;
    size_t size_ = 0;
};

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
