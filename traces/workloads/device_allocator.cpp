#include "traces/workloads/device_allocator.hpp"

#include <limits>
#include <stdexcept>

namespace zng::workloads {

uint64_t DeviceAllocator::alloc(const std::string& name, uint64_t bytes) {
    if (frozen_)
        throw std::logic_error("DeviceAllocator: cannot allocate '" + name +
                               "' after the trace header was written");
    if (name.empty()) throw std::invalid_argument("DeviceAllocator: array name is empty");
    for (const auto& a : arrays_)
        if (a.name == name)
            throw std::invalid_argument("DeviceAllocator: array '" + name + "' allocated twice");
    const uint64_t base = next_;
    const uint64_t limit = std::numeric_limits<uint64_t>::max() - kDeviceAlignment;
    if (bytes > limit - base)
        throw std::length_error("DeviceAllocator: array '" + name + "' of " + std::to_string(bytes) +
                                " bytes overflows the device address space");
    arrays_.push_back(trace::ArrayInfo{name, base, bytes});
    // A zero-byte array still gets its own slot so that every base is distinct.
    const uint64_t span = bytes == 0 ? 1 : bytes;
    next_ = (base + span + kDeviceAlignment - 1) & ~(kDeviceAlignment - 1);
    return base;
}

}  // namespace zng::workloads
