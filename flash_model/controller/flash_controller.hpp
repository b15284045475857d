// A flash controller (paper III-B): attached to the GPU interconnect, it takes memory
// requests of its channel, decodes their flash address (controller_latency cycles),
// keeps them in per-plane queues, and sends each plane's commands to the package when
// the plane has room (plane_depth commands in flight per plane), in the order the
// scheduler picks. Read data and acknowledgements come back through the flash network;
// the controller answers the request. Firmware operations (FlashOp) have their own
// per-plane queues and in-flight budget; a plane's firmware and demand commands take
// turns when both are ready, so that GC does not starve other applications' requests.
// The controller also serves as the buffer SWnet copies pages through.
//
// Reads and writes have separate budgets: a demand write is posted (acknowledged once
// decoded into the write queue, the controller keeping its address, size and chunks),
// and a full write queue refuses writes only. When a plane's write is issued, every
// write to the same page queued behind it goes with it as one command sequence. When
// reads do not take registers (flash.reads_keep_pages false: the registers are the write
// buffer, reads use the page buffer), a plane also has plane_depth reads and plane_depth
// writes in flight, so writes waiting for a register do not hold its reads back.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "flash_model/controller/flash_scheduler.hpp"
#include "flash_model/flash_transaction.hpp"
#include "sim/core/component.hpp"
#include "sim/core/timed_queue.hpp"

namespace zng::flash {

struct ControllerSettings {
    uint32_t queue_depth = 64;        // demand reads accepted and not yet answered
    uint32_t write_queue_depth = 64;  // posted demand writes not yet absorbed by a register
    uint32_t plane_depth = 2;   // commands in flight per plane
    Cycle latency = 4;          // decode + queueing logic, controller cycles
};

class FlashController final : public Component, public FlashEndpoint {
public:
    FlashController(Simulator& sim, std::string name, const ClockDomain& clock, FlashShared& shared, uint32_t channel,
                    std::unique_ptr<FlashScheduler> scheduler, const ControllerSettings& s);

    // A demand request for data page `a` (of this channel). False: full, try later.
    bool accept(MemRequest* r, const FlashAddress& a);
    void submit(FlashOp op);
    void receive(const FlashMessage& m) override;
    // Called whenever a demand slot frees after a refusal.
    void set_room_callback(std::function<void()> f) { on_room_ = std::move(f); }
    // Requests and firmware operations not yet answered. Posted writes are answered: like
    // dirty registers, they are data the flash side still holds (write_occupancy()).
    uint64_t in_flight() const { return occupancy_ + firmware_live_; }
    uint32_t occupancy() const { return occupancy_; }
    uint32_t write_occupancy() const { return write_occupancy_; }

private:
    // Demand and firmware commands have separate in-flight budgets (plane_depth each):
    // demand commands can wait in the package for a register whose dirty page is parked
    // until a merge ends, and the merge's own operations must still reach the plane.
    struct PlaneQueue {
        RingQueue<uint32_t> demand;
        RingQueue<uint32_t> firmware;
        uint32_t demand_issued = 0;
        uint32_t writes_issued = 0;  // of demand_issued
        uint32_t firmware_issued = 0;
        bool firmware_last = false;  // the last command issued was a firmware one
    };
    void decoded(uint32_t& id);
    void enqueue(uint32_t id);
    void try_issue(uint32_t plane);
    static constexpr size_t kNoPick = SIZE_MAX;
    // The waiting demand command to send next, or kNoPick when none may go now.
    size_t pick_demand(const PlaneQueue& q) const;
    void combine_writes(PlaneQueue& q, uint32_t leader);
    void room_freed();
    uint32_t plane_of(const FlashAddress& a) const;
    // write_occupancy_ becomes `level`: the queue's time-weighted statistics first
    // account for the time since its last change.
    void set_write_occupancy(uint32_t level);

    FlashShared& sh_;
    uint32_t channel_;
    std::unique_ptr<FlashScheduler> scheduler_;
    ControllerSettings s_;
    std::vector<PlaneQueue> planes_;
    TimedQueue<uint32_t> decode_;
    uint32_t occupancy_ = 0;        // demand reads
    uint32_t write_occupancy_ = 0;  // posted writes
    // Since write_level_since_: the write queue's occupancy integrated over time, and
    // the time it was full (each closed at the last change; the open part is added
    // when the statistics are read).
    Tick write_level_since_ = 0;
    double write_level_area_ = 0;  // writes x ps
    Tick write_full_ps_ = 0;
    uint64_t firmware_live_ = 0;
    bool refused_ = false;
    std::function<void()> on_room_;
    Counter& reads_;
    Counter& writes_;
    Counter& refusals_;
    Counter& write_refusals_;
    Counter& combined_writes_;
    Counter& first_parts_;
    Average& read_latency_;
    Average& write_latency_;
};

}  // namespace zng::flash
