// cudaMalloc-like placement of a workload's arrays in the device address space.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/trace.hpp"

namespace zng::workloads {

// Base of the first allocation: a high, canonical user-space address, like the
// addresses the CUDA driver hands out, so traces look like real ones.
constexpr uint64_t kDeviceBase = 0x7f0000000000ull;
// The SM's local-memory frames sit below the first allocation.
static_assert(trace::kLocalRegionBase + trace::kLocalRegionBytes <= kDeviceBase);
// cudaMalloc returns 256 B aligned pointers; consecutive allocations are packed.
constexpr uint64_t kDeviceAlignment = 256;

class DeviceAllocator {
public:
    // Places `bytes` at the next 256 B boundary, in allocation order; returns the base.
    // Throws std::invalid_argument for an empty or duplicate name, std::length_error
    // if the address space would overflow, std::logic_error once frozen.
    uint64_t alloc(const std::string& name, uint64_t bytes);

    const std::vector<trace::ArrayInfo>& arrays() const { return arrays_; }
    // Bytes spanned from kDeviceBase to the end of the last array (the footprint,
    // alignment padding included).
    uint64_t footprint() const { return next_ - kDeviceBase; }

    // The trace header lists the arrays, so nothing may be placed after it is written.
    void freeze() { frozen_ = true; }
    bool frozen() const { return frozen_; }

private:
    std::vector<trace::ArrayInfo> arrays_;
    uint64_t next_ = kDeviceBase;
    bool frozen_ = false;
};

}  // namespace zng::workloads
