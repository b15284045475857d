// A FIFO on a power-of-two ring buffer, shared by every model's hardware queues (LD/ST
// queues, crossbar outputs, cache miss queues, flash command and port queues, FTL
// dispatch queues). They push and pop millions of times; a ring that has reached its
// working size never allocates again, unlike std::deque's chunk churn.
// Capacity limits are the owner's business (it checks size() against its configured
// depth, and sizes the ring to that depth at construction so it never allocates again);
// the ring itself only grows, by doubling, when completely full.
#pragma once
#include <bit>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/memory_budget.hpp"

namespace zng {

template <class T>
class RingQueue {
public:
    // initial_capacity is rounded up to a power of two; 0 allocates on the first push.
    explicit RingQueue(size_t initial_capacity = 0) {
        if (initial_capacity > 0) buf_.resize(std::bit_ceil(initial_capacity));
    }
    // A ring built to a configured `depth`, charged to `budget` (run.memory_limit) first.
    static RingQueue charged(MemoryBudget& budget, size_t depth, std::string_view what) {
        return RingQueue(budget.reserve(depth > 0 ? std::bit_ceil(depth) : 0, sizeof(T), what));
    }

    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }
    // Elements it holds before it next grows.
    size_t capacity() const { return buf_.size(); }
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
    // Removes the front element and returns it.
    T take_front() {
        T v = std::move(buf_[head_]);
        pop_front();
        return v;
    }
    // Removes element i, keeping the order of the others (for schedulers that pick
    // from the middle of a queue).
    void erase_at(size_t i) {
        for (size_t k = i; k > 0; --k) (*this)[k] = std::move((*this)[k - 1]);
        pop_front();
    }
    void clear() { head_ = size_ = 0; }

private:
    // Out of line: a ring at its working size never grows, and push_back stays small
    // enough to be inlined into the hot paths.
    [[gnu::noinline]] void grow() {
        std::vector<T> bigger(buf_.empty() ? 8 : buf_.size() * 2);
        for (size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
        buf_.swap(bigger);
        head_ = 0;
    }
    std::vector<T> buf_;
    size_t head_ = 0;
    size_t size_ = 0;
};

}  // namespace zng
