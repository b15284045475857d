// Optane DC PMM behind the L2 (the `optane` platform): one memory controller per DIMM
// over a DDR-T channel. On each DIMM, reads fetch whole 256 B media lines into a media
// partition's line buffer (tRCD, the media read; a 64/128 B read still costs 256 B of
// media) and are then read out over the bus (tCL + burst); writes go over the bus into
// the write-combining buffer, which merges writes to the same line and programs lines
// into the media when it needs room (tRP: closing a line that holds written data means
// programming it; reads are non-destructive, so a clean line closes for free). A line
// written only in part is read from the media first (read-modify-write).
#pragma once
#include <memory>
#include <vector>

#include "memory/dram_channel_backend.hpp"
#include "memory/write_combining_buffer.hpp"

namespace zng::memory {

class OptaneMemory final : public DramChannelBackend {
public:
    static const ComponentSchema& schema();
    OptaneMemory(const Params& p, Simulator& sim, const BackendContext& ctx);

    bool recv_request(MemRequest* r, ResponsePort& port) override;
    uint64_t medium_bytes_read() const override;
    uint64_t medium_bytes_written() const override;

    // Analytical read bound: per DIMM the lesser of the bus peak and
    // partitions x media line / tRCD, times the DIMMs (bytes/s).
    double peak_read_bandwidth() const { return peak_read_; }
    // Write bound: partitions x media line / tRP per DIMM, times the DIMMs (bytes/s).
    double peak_write_bandwidth() const { return peak_write_; }
    uint64_t media_line() const { return line_; }

private:
    struct Dimm {
        std::unique_ptr<DramChannel> channel;
        std::unique_ptr<WriteCombiningBuffer> buffer;
        Counter* buffer_read_hits;
        Counter* write_combines;
        Counter* rmw_writebacks;
        Counter* full_writebacks;
    };
    uint64_t sector_mask(const MemRequest& r) const;
    DramTxn media_txn(uint64_t addr) const;
    void txn_done(DramChannel& ch, const DramTxn& t) override;
    bool may_issue(DramChannel& ch, const DramTxn& t) override;
    void issued(DramChannel& ch, const DramTxn& t) override;

    uint64_t line_;
    double peak_read_ = 0, peak_write_ = 0;
    std::vector<Dimm> dimms_;
};

}  // namespace zng::memory
