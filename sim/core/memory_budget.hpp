// Host memory that a platform allocates up front: arrays sized by the configuration, not
// by what a run touches (queues preallocated to their depth, history rings, a file
// system's segment table). run.memory_limit caps their sum, so that sizes which multiply
// past the host (1,024 L2 banks of 65,536-entry queues; a 16 TiB GoFS log) are refused
// naming the array, before it is allocated, instead of ending in std::bad_alloc or a
// swapping host. The cache tag arrays, MSHR tables and TLBs are estimated from the config
// before anything is built (sim/app/memory_estimate.hpp) and charged here as one sum;
// components charge the arrays only they can size, as they build them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace zng {

class MemoryBudget {
public:
    // `limit` bytes in all (0: no limit); `where` names the setting, for the error.
    void set_limit(uint64_t limit, std::string where);
    // Charges `count` elements of `bytes_each` bytes for `what` and returns `count`, so
    // that a member's initializer can charge the array it is about to allocate. Throws
    // SimError (the platform reports it as a configuration error at the section being
    // built) when the charge would pass the limit.
    size_t reserve(size_t count, size_t bytes_each, std::string_view what);
    uint64_t charged() const { return charged_; }

private:
    uint64_t limit_ = 0;
    uint64_t charged_ = 0;
    std::string where_;
    std::map<std::string, uint64_t, std::less<>> by_what_;  // charged so far, for the error
};

}  // namespace zng
