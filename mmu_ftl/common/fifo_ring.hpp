// A FIFO of fixed capacity on one preallocated buffer: the queues of dispatchers,
// cores and links have a configured depth, so pushing and popping never allocate.
#pragma once
#include <cstddef>
#include <vector>

#include "sim/core/errors.hpp"

namespace zng {

template <class T>
class FifoRing {
public:
    explicit FifoRing(size_t capacity = 0) { reset(capacity); }
    void reset(size_t capacity) {
        buf_.assign(capacity, T{});
        head_ = size_ = 0;
    }
    size_t capacity() const { return buf_.size(); }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    bool full() const { return size_ == buf_.size(); }

    void push(const T& v) {
        if (full()) throw SimError("FifoRing: push into a full queue");
        buf_[(head_ + size_) % buf_.size()] = v;
        ++size_;
    }
    T& front() { return buf_[head_]; }
    const T& front() const { return buf_[head_]; }
    T pop() {
        if (empty()) throw SimError("FifoRing: pop from an empty queue");
        T v = buf_[head_];
        head_ = (head_ + 1) % buf_.size();
        --size_;
        return v;
    }

private:
    std::vector<T> buf_;
    size_t head_ = 0, size_ = 0;
};

}  // namespace zng
