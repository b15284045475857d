// A FIFO of fixed capacity: the queues of dispatchers, cores and links have a
// configured depth, so pushing beyond it (or popping an empty queue) is a model error.
// The storage is the shared ring (sim/core/ring_queue.hpp), sized once by reset(), so
// pushing and popping never allocate.
#pragma once
#include <cstddef>
#include <utility>

#include "sim/core/errors.hpp"
#include "sim/core/ring_queue.hpp"

namespace zng {

template <class T>
class FifoRing {
public:
    explicit FifoRing(size_t capacity = 0) { reset(capacity); }
    void reset(size_t capacity) {
        ring_ = RingQueue<T>(capacity);
        capacity_ = capacity;
    }
    size_t capacity() const { return capacity_; }
    size_t size() const { return ring_.size(); }
    bool empty() const { return ring_.empty(); }
    bool full() const { return ring_.size() == capacity_; }

    void push(const T& v) {
        if (full()) throw SimError("FifoRing: push into a full queue");
        ring_.push_back(v);
    }
    T& front() { return ring_.front(); }
    const T& front() const { return ring_.front(); }
    T pop() {
        if (empty()) throw SimError("FifoRing: pop from an empty queue");
        T v = std::move(ring_.front());
        ring_.pop_front();
        return v;
    }

private:
    RingQueue<T> ring_;
    size_t capacity_ = 0;
};

}  // namespace zng
