// The GPU side of storage DMA: data arriving over the GPU's PCIe link is written into
// GPU memory through this port, and data leaving for an SSD or the host is read out of
// it. It is one bandwidth server (bandwidth 0: not a limit) plus a write latency.
//
// Sharing with SM traffic: when the platform's GPU memory models its channels (GDDR5),
// the platform gives the port that memory as a DmaTrafficSink, and every byte the port
// moves also enters the memory's channels at the address it names, as it arrives, so
// that DMA takes banks, bus time and queue slots from the SMs' requests (and theirs
// delay it in the channels). The port's own timing stays its server's: PCIe writes are
// posted. Without a sink (the fixed-latency ideal memory, or tests) the port alone
// models the DMA engine.
#pragma once
#include <string>

#include "sim/config/params.hpp"
#include "sim/mem/dma_traffic_sink.hpp"
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

    // The GPU memory the port's bytes also go through (null: none).
    void set_sink(DmaTrafficSink* sink) {
        sink_ = sink;
        if (sink_) sink_->attach_dma();
    }
    // PCIe data arriving as `in` written into GPU memory at `addr`; returns when it is there.
    Flow write(Flow in, uint64_t bytes, uint64_t addr) {
        written_ += bytes;
        const Flow out = server_.pass(in, bytes);
        if (sink_) sink_->dma_access(addr, bytes, out.first, out.last, true);
        return out;
    }
    // Data for a transfer out of GPU memory at `addr`, read from `earliest` on.
    Flow read(Tick earliest, uint64_t bytes, uint64_t addr) {
        read_ += bytes;
        const Flow out = server_.pass(Flow::at(earliest), bytes);
        if (sink_) sink_->dma_access(addr, bytes, out.first, out.last, false);
        return out;
    }

    uint64_t bytes_written() const { return written_; }
    uint64_t bytes_read() const { return read_; }
    Tick busy_time() const { return server_.busy_time(); }
    const BandwidthServer& server() const { return server_; }

private:
    BandwidthServer server_;
    DmaTrafficSink* sink_ = nullptr;
    uint64_t written_ = 0, read_ = 0;
};

}  // namespace zng::storage
