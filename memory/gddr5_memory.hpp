// GDDR5 behind the L2 (the `ideal` platform and Hetero's GPU memory): N channels, each
// a memory controller with FR-FCFS scheduling over banks with open-row state (see
// DramChannel). Requests from any L2 bank reach any channel; the channel, bank, row and
// column come from the configurable address mapping.
#pragma once
#include <memory>
#include <vector>

#include "memory/dma_traffic_injector.hpp"
#include "memory/dram_channel_backend.hpp"
#include "sim/mem/dma_traffic_sink.hpp"

namespace zng::memory {

class Gddr5Memory final : public DramChannelBackend, public DmaTrafficSink {
public:
    static const ComponentSchema& schema();
    Gddr5Memory(const Params& p, Simulator& sim, const BackendContext& ctx);

    bool recv_request(MemRequest* r, ResponsePort& port) override;
    uint64_t medium_bytes_read() const override;
    uint64_t medium_bytes_written() const override;

    // Analytical peak: channels x bus width x data rate (bytes/s).
    double peak_bandwidth() const { return peak_; }

    // DmaTrafficSink: storage DMA enters the channels as line-sized transactions that
    // nobody waits for, beside the L2's requests.
    void attach_dma() override;
    void dma_access(uint64_t addr, uint64_t bytes, Tick first, Tick last, bool write) override;

protected:
    void* offered_interface(std::string_view name) override { return offer<DmaTrafficSink>(this, name); }

private:
    void txn_done(DramChannel& ch, const DramTxn& t) override;
    void room_freed(DramChannel& ch) override;
    bool try_dma(uint64_t addr, uint32_t bytes, bool write);

    double peak_;
    std::vector<std::unique_ptr<DramChannel>> channels_;
    Simulator& sim_;
    uint32_t line_size_;
    std::unique_ptr<DmaTrafficInjector> dma_;  // when a DMA port is attached
};

}  // namespace zng::memory
