// Memory back end `hetero_gpu_memory`: the Hetero platform's GPU memory. It wraps the
// memory that serves the accesses (the `dram:` section, GDDR5 by default, built through
// the memory slot) and reports every access it forwards to the hetero_host translator,
// whose LRU order must follow the GPU-memory traffic and whose pages turn dirty when
// written (so that eviction writes them back to the host SSD).
//
// Requests and responses pass through unchanged: one response port per L2 bank, each
// forwarding through a request port bound to the inner back end's port of the same
// index. A refusal of the inner back end is the wrapper's refusal (its retry is passed
// on), and in_flight, medium bytes and capacity are the inner back end's; its own stats
// sit under `memory.dram.*`. An access is reported once the inner back end accepted it.
#pragma once
#include <memory>
#include <vector>

#include "sim/mem/dma_traffic_sink.hpp"
#include "sim/mem/memory_backend.hpp"
#include "sim/mem/resident_page_tracker.hpp"

namespace zng::ftl {

class HeteroGpuMemory final : public MemoryBackend, public MemRequester {
public:
    static const ComponentSchema& schema();
    // Throws ConfigError unless the platform's translator is hetero_host and the inner
    // memory holds the translator's GPU memory.
    HeteroGpuMemory(Simulator& sim, const Params& p, const BackendContext& ctx);

    ResponsePort& port(uint32_t i) override { return *from_l2_.at(i); }
    uint32_t num_ports() const override { return static_cast<uint32_t>(from_l2_.size()); }
    uint64_t in_flight() const override { return inner_->in_flight(); }
    uint64_t medium_bytes_read() const override { return inner_->medium_bytes_read(); }
    uint64_t medium_bytes_written() const override { return inner_->medium_bytes_written(); }
    uint64_t capacity_bytes() const override { return inner_->capacity_bytes(); }

    bool recv_request(MemRequest* r, ResponsePort& port) override;
    void recv_response(MemRequest* r, RequestPort& port) override;
    void recv_retry(RequestPort& port) override;

    MemoryBackend& inner() { return *inner_; }
    uint64_t reported_reads() const { return reads_.get(); }
    uint64_t reported_writes() const { return writes_.get(); }

protected:
    // Storage DMA into GPU memory is the inner memory's (its channels).
    void* offered_interface(std::string_view name) override {
        return name == DmaTrafficSink::kInterfaceName ? inner_->find_interface<DmaTrafficSink>() : nullptr;
    }

private:
    ResidentPageTracker& host_;
    std::unique_ptr<MemoryBackend> inner_;
    std::vector<std::unique_ptr<ResponsePort>> from_l2_;
    std::vector<std::unique_ptr<RequestPort>> to_inner_;
    Counter& reads_;
    Counter& writes_;
};

}  // namespace zng::ftl
