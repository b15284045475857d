// Round-robin arbitration of freed room among refused requesters: when room frees, the
// requesters that wait for it are retried starting with the one after the requester
// that went first last time, so no requester keeps its precedence (a fixed order would
// let the first ports take every freed place while the last ones wait).
#pragma once
#include <cstdint>

namespace zng {

class RoundRobin {
public:
    explicit RoundRobin(uint32_t n = 0) : n_(n) {}
    void resize(uint32_t n) {
        n_ = n;
        if (next_ >= n_) next_ = 0;
    }
    // Calls visit(i) for i = next, next + 1, ..., n - 1, 0, ..., next - 1. visit returns
    // true when it retried requester i; the first one retried moves the turn past itself.
    template <class Visit>
    void pass(Visit&& visit) {
        const uint32_t first = next_;
        bool moved = false;
        for (uint32_t k = 0; k < n_; ++k) {
            uint32_t i = first + k;
            if (i >= n_) i -= n_;
            if (visit(i) && !moved) {
                next_ = i + 1 == n_ ? 0 : i + 1;
                moved = true;
            }
        }
    }
    uint32_t next() const { return next_; }

private:
    uint32_t n_;
    uint32_t next_ = 0;
};

}  // namespace zng
