// Replaces the global allocation functions of the test binary. Kept in its own file:
// nothing here may be inlined into code that also sees malloc/free directly.
#include "tests/traces/allocation_probe.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<size_t> g_largest{0};
}

namespace zng::trace::testing {
void reset_largest_allocation() { g_largest.store(0, std::memory_order_relaxed); }
size_t largest_allocation() { return g_largest.load(std::memory_order_relaxed); }
}  // namespace zng::trace::testing

void* operator new(size_t n) {
    size_t cur = g_largest.load(std::memory_order_relaxed);
    while (n > cur && !g_largest.compare_exchange_weak(cur, n, std::memory_order_relaxed)) {
    }
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
