// GPU memory as storage DMA sees it: data arriving over the GPU's PCIe link is written
// into GPU memory, and data leaving for an SSD or the host is read out of it, through
// the same memory controllers the SMs use. A memory back end that models its channels
// offers this interface; the platform hands it to the storage path's GPU DMA port, so
// that DMA and SM traffic take banks, bus time and queue slots from each other.
// The accesses are posted: the DMA's own timing is its PCIe path's (PCIe memory writes
// are posted transactions, and a completion entry written after them is ordered behind
// them), and the back end carries them into its channels as they arrive.
#pragma once
#include <cstdint>
#include <string_view>

#include "sim/core/tick.hpp"

namespace zng {

class DmaTrafficSink {
public:
    static constexpr std::string_view kInterfaceName = "dma_traffic_sink";
    virtual ~DmaTrafficSink() = default;
    // A DMA port will send accesses (the back end sets up their path and statistics;
    // a platform without storage DMA has neither).
    virtual void attach_dma() = 0;
    // `bytes` at GPU memory address `addr`, arriving evenly from `first` to `last`
    // (written when `write`, else read).
    virtual void dma_access(uint64_t addr, uint64_t bytes, Tick first, Tick last, bool write) = 0;
};

// A part with a storage DMA path of its own (Hetero's translator and its host SSD):
// the platform hands it the GPU memory's sink as it does the storage section's port.
class DmaTrafficSource {
public:
    static constexpr std::string_view kInterfaceName = "dma_traffic_source";
    virtual ~DmaTrafficSource() = default;
    virtual void set_dma_sink(DmaTrafficSink* sink) = 0;
};

}  // namespace zng
