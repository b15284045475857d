// Replaces the global allocation functions of the test binary. Kept in its own file:
// nothing here may be inlined into code that also sees malloc/free directly.
#include "tests/traces/allocation_probe.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<size_t> g_largest{0};
std::atomic<size_t> g_live{0};
std::atomic<size_t> g_peak{0};

void raise(std::atomic<size_t>& a, size_t v) {
    size_t cur = a.load(std::memory_order_relaxed);
    while (v > cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
    }
}

void release(void* p) noexcept {
    if (p == nullptr) return;
    g_live.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
    std::free(p);
}
}  // namespace

namespace zng::trace::testing {
void reset_largest_allocation() { g_largest.store(0, std::memory_order_relaxed); }
size_t largest_allocation() { return g_largest.load(std::memory_order_relaxed); }
void reset_peak_live() { g_peak.store(g_live.load(std::memory_order_relaxed), std::memory_order_relaxed); }
size_t live_bytes() { return g_live.load(std::memory_order_relaxed); }
size_t peak_live_bytes() { return g_peak.load(std::memory_order_relaxed); }
}  // namespace zng::trace::testing

void* operator new(size_t n) {
    raise(g_largest, n);
    void* p = std::malloc(n == 0 ? 1 : n);
    if (p == nullptr) throw std::bad_alloc();
    // Usable size, not n: delete only knows the former.
    raise(g_peak, g_live.fetch_add(malloc_usable_size(p), std::memory_order_relaxed) + malloc_usable_size(p));
    return p;
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { release(p); }
void operator delete(void* p, size_t) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete[](void* p, size_t) noexcept { release(p); }
