// Implemented by a translator that keeps GPU memory as a cache of host pages (Hetero's
// host translator): the memory back end in front of that GPU memory reports every
// access it serves, so the translator's LRU order follows the traffic and written pages
// turn dirty. The translator offers it by name (see interface_provider.hpp); the memory
// back end finds it through BackendContext::translator.
#pragma once
#include <cstdint>
#include <string_view>

namespace zng {

class ResidentPageTracker {
public:
    static constexpr std::string_view kInterfaceName = "resident_page_tracker";
    virtual ~ResidentPageTracker() = default;
    // An access reached GPU memory at `paddr` (a write marks the page dirty).
    virtual void note_access(uint64_t paddr, bool write) = 0;
    // Bytes of GPU memory the translator maps pages into.
    virtual uint64_t gpu_memory_bytes() const = 0;
};

}  // namespace zng
