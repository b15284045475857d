// GDDR5 behind the L2 (the `ideal` platform and Hetero's GPU memory): N channels, each
// a memory controller with FR-FCFS scheduling over banks with open-row state (see
// DramChannel). Requests from any L2 bank reach any channel; the channel, bank, row and
// column come from the configurable address mapping.
#pragma once
#include <memory>
#include <vector>

#include "memory/address_mapping.hpp"
#include "memory/backend_ports.hpp"
#include "memory/dram_channel.hpp"
#include "sim/mem/memory_backend.hpp"

namespace zng::memory {

class Gddr5Memory final : public MemoryBackend, private DramChannelClient {
public:
    static const ComponentSchema& schema();
    Gddr5Memory(const Params& p, Simulator& sim, const BackendContext& ctx);

    bool recv_request(MemRequest* r, ResponsePort& port) override;
    ResponsePort& port(uint32_t i) override { return ports_.port(i); }
    uint32_t num_ports() const override { return ports_.size(); }
    uint64_t in_flight() const override { return traffic_.in_flight(); }
    uint64_t medium_bytes_read() const override;
    uint64_t medium_bytes_written() const override;
    uint64_t capacity_bytes() const override { return capacity_; }

    // Analytical peak: channels x bus width x data rate (bytes/s).
    double peak_bandwidth() const { return peak_; }
    const AddressMapping& mapping() const { return mapping_; }

private:
    void txn_done(DramChannel& ch, const DramTxn& t) override;
    void room_freed(DramChannel& ch) override { ports_.room_freed(ch.index()); }

    std::string name_;
    Simulator& sim_;
    ClockDomain clock_;
    AddressMapping mapping_;
    uint64_t capacity_;
    double peak_;
    BackendPorts ports_;
    BackendTraffic traffic_;
    std::vector<std::unique_ptr<DramChannel>> channels_;
};

}  // namespace zng::memory
