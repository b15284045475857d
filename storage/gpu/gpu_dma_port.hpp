// The GPU side of storage DMA: data arriving over the GPU's PCIe link is written into
// GPU memory through this port, and data leaving for an SSD or the host is read out of
// it. It is one bandwidth server (bandwidth 0: not a limit) plus a write latency.
//
// Sharing with SM traffic: GPU memory bandwidth is one resource. A memory back end
// that serves the SMs can take the same server with reserve(earliest, bytes), which
// returns when its bytes have been moved; DMA and SM traffic then delay each other in
// call order, and busy_time() is the occupancy of both. Until a back end does so, the
// port alone models the DMA engine's write path.
#pragma once
#include <string>

#include "sim/config/params.hpp"
#include "storage/bandwidth_server.hpp"

namespace zng::storage {

struct GpuDmaPortSettings {
    double bandwidth = 0.0;  // bytes/s into GPU memory; 0: not a limit
    Tick latency = 0;

    static const ComponentSchema& schema();
    static GpuDmaPortSettings read(const Params& p);
};

class GpuDmaPort {
public:
    explicit GpuDmaPort(const GpuDmaPortSettings& s) : server_(s.bandwidth, s.latency) {}

    // PCIe data arriving as `in` written into GPU memory; returns when it is there.
    Flow write(Flow in, uint64_t bytes) {
        written_ += bytes;
        return server_.pass(in, bytes);
    }
    // Data for a transfer out of GPU memory, read from `earliest` on.
    Flow read(Tick earliest, uint64_t bytes) {
        read_ += bytes;
        return server_.pass(Flow::at(earliest), bytes);
    }
    // Another user of GPU memory bandwidth (SM traffic) takes the port for `bytes`.
    Tick reserve(Tick earliest, uint64_t bytes) { return server_.transfer(earliest, bytes); }

    uint64_t bytes_written() const { return written_; }
    uint64_t bytes_read() const { return read_; }
    Tick busy_time() const { return server_.busy_time(); }
    const BandwidthServer& server() const { return server_; }

private:
    BandwidthServer server_;
    uint64_t written_ = 0, read_ = 0;
};

}  // namespace zng::storage
