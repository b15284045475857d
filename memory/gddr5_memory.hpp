// GDDR5 behind the L2 (the `ideal` platform and Hetero's GPU memory): N channels, each
// a memory controller with FR-FCFS scheduling over banks with open-row state (see
// DramChannel). Requests from any L2 bank reach any channel; the channel, bank, row and
// column come from the configurable address mapping.
#pragma once
#include <memory>
#include <vector>

#include "memory/dram_channel_backend.hpp"

namespace zng::memory {

class Gddr5Memory final : public DramChannelBackend {
public:
    static const ComponentSchema& schema();
    Gddr5Memory(const Params& p, Simulator& sim, const BackendContext& ctx);

    bool recv_request(MemRequest* r, ResponsePort& port) override;
    uint64_t medium_bytes_read() const override;
    uint64_t medium_bytes_written() const override;

    // Analytical peak: channels x bus width x data rate (bytes/s).
    double peak_bandwidth() const { return peak_; }

private:
    void txn_done(DramChannel& ch, const DramTxn& t) override;

    double peak_;
    std::vector<std::unique_ptr<DramChannel>> channels_;
};

}  // namespace zng::memory
