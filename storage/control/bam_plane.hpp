// BaM (seed 000 II-B, Table I): GPU threads drive the NVMe queues themselves. The
// submission and completion queues live in GPU memory; a thread writes its 64 B
// submission entry there, rings the SSD's doorbell with an MMIO write over PCIe (the
// NVMe doorbell cost of the SSD's settings), and polls its completion entry, which the
// SSD writes into GPU memory (the SSD's completion cost, with a poll). Data moves
// peer-to-peer into GPU memory. A thread's queue pair is chosen by its warp, so the
// queue pairs per SSD and their depth limit what is in flight; a thread whose queue is
// full waits (the plane's FIFO of that queue) until an entry completes.
//
// One 4 KiB read: sqe_write_latency + doorbell + command fetch + device + DMA over the
// SSD link, fabric and GPU link + completion entry write + poll; the waiting warp
// notices it at its next poll (poll_interval() apart), each poll an issued instruction.
#pragma once
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/control_plane.hpp"

namespace zng::storage {

struct BamSettings {
    uint32_t max_in_flight = 65536;
    Tick sqe_write_latency = 0;  // a GPU thread claiming a slot and writing its entry in GPU memory
    Tick poll_interval = 0;      // between a waiting thread's polls of its completion entry

    static const ComponentSchema& schema();
    static BamSettings read(const Params& p);
};

class BamPlane final : public ControlPlane {
public:
    BamPlane(const StoragePath& path, const BamSettings& s);
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;
    // BaM's threads poll their completion entries: a waiting warp keeps issuing polls.
    Tick poll_interval() const override { return s_.poll_interval; }

private:
    // A request from its entry write to its completion; slots are reused, so that a
    // command's callback captures only the slot number (no allocation per request).
    struct Pending {
        StorageIo io;
        StorageIoClient* client = nullptr;
        Tick taken = 0;
        uint32_t queue = 0;
    };
    void ring(uint32_t slot);
    void done(uint32_t slot);

    BamSettings s_;
    std::vector<Pending> slots_;
    std::vector<uint32_t> free_slots_;
    TimedQueue<uint32_t> written_;  // entries written, doorbell about to be rung
};

}  // namespace zng::storage
