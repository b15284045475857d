// The storage I/O of one SM's warps: io_submit records handed to the platform's
// StorageIoService, and io_wait records blocking their warp until the requests of
// their CTA's group have completed. The SM keeps a blocked warp resident and issuing
// nothing (it holds no MMU walker or LD/ST slot); this class calls resume(slot) when
// the warp may go on.
//
// Groups. Each request a CTA submits to group `tag` gets the next sequence number of
// that group. A wait issued when the group had handed out n numbers waits for requests
// 0..n-1 to complete, whatever finished out of order (the group keeps its lowest
// incomplete number and a flag per number above it), so requests other warps of the
// CTA submit after the wait do not hold it, and another CTA's never do.
//
// Back-pressure. A batch the service refuses waits here whole, in issue order, with its
// warp blocked; io_room() retries the queue head first.
//
// Waiting. Under a service that tells its waiters (poll_interval() 0: CAM, SPDK, ...) a
// waiting warp is blocked and issues nothing until io_done releases it. Under one whose
// threads poll (BaM: the thread reads its completion entry in GPU memory until it is
// there) the warp stays in a polling loop: the SM reissues its io_wait every
// poll_interval(), each issue a poll instruction taking an issue slot, and wait()
// answers Poll until a poll finds the group complete. Statistics: warp-slot time spent
// blocked and spent polling, polls, and the time the SM held at least one polling warp.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/mem/storage_io_service.hpp"
#include "sim/stats/stats.hpp"
#include "traces/trace.hpp"

namespace zng::gpu {

class WarpStorageIo final : public StorageIoClient {
public:
    using Resume = std::function<void(uint32_t slot)>;
    WarpStorageIo(const Simulator& sim, StorageIoService& service, uint32_t sm, uint32_t max_warps,
                  uint32_t max_ctas, Resume resume);

    // What a warp's io_wait does: go on, stay blocked until resume(slot), or stay in its
    // polling loop (the SM reissues the io_wait after poll_interval()).
    enum class Wait : uint8_t { Go, Blocked, Poll };

    // CTA slot `cta` starts a new CTA: its groups start empty; completions of the
    // previous CTA's requests in that slot are still counted but wake nobody.
    void cta_launched(uint32_t cta);
    // Warp slot `slot` (GPU-wide number `warp`) of CTA slot `cta` issues io_submit
    // `rec`. True: every request was taken and the warp goes on; false: the warp is
    // blocked until resume(slot).
    bool submit(uint32_t slot, uint32_t cta, uint16_t app, uint32_t warp, const trace::WarpRecord& rec);
    // The warp issues io_wait on group `tag` (under a polling service: the first poll,
    // or, reissued, the next poll of the same wait).
    Wait wait(uint32_t slot, uint32_t cta, uint32_t tag);
    Tick poll_interval() const { return poll_interval_; }
    uint32_t warp_slots() const { return static_cast<uint32_t>(waits_.size()); }

    // StorageIoClient
    void io_done(uint64_t token) override;
    void io_room() override;

    uint64_t submitted() const { return submitted_; }
    uint64_t completed() const { return completed_; }
    uint64_t waits_blocked() const { return waits_blocked_; }
    uint64_t waits_polled() const { return waits_polled_; }
    uint64_t polls() const { return polls_; }
    // Warp-slot time (ps) spent blocked in io_wait / in a polling loop, closed waits only.
    Tick blocked_time() const { return blocked_time_; }
    Tick polling_time() const { return polling_time_; }
    // Time (ps) this SM held at least one polling warp, up to now.
    Tick polling_sm_time() const;
    // `<g>.{waits_blocked,waits_polled,polls,blocked_warp_time,polling_warp_time,polling_sm_time}`.
    void register_stats(StatGroup g) const;

private:
    struct Waiter {
        uint32_t slot;
        uint64_t until;  // released once every number below it has completed
    };
    struct Group {
        uint32_t tag = 0;
        uint64_t next = 0;          // numbers handed out
        uint64_t low = 0;           // lowest incomplete number
        std::deque<uint8_t> done;   // done[i]: number low + i has completed
        std::vector<Waiter> waiters;
    };
    struct Cta {
        uint32_t serial = 0;  // distinguishes the CTAs that use the slot in turn
        std::vector<Group> groups;
    };
    struct PendingBatch {
        uint32_t slot = 0;
        uint16_t app = 0;
        uint32_t warp = 0;
        uint32_t count = 0;
        std::array<StorageIo, trace::kWarpSize> ios;
    };

    // A warp slot's io_wait in progress.
    struct SlotWait {
        Wait mode = Wait::Go;  // Go: none in progress
        uint32_t group = 0;
        uint64_t until = 0;
        Tick since = 0;
    };

    uint32_t group_of(Cta& c, uint32_t tag);
    void end_wait(uint32_t slot);
    bool try_send(const PendingBatch& b);

    const Simulator& sim_;
    StorageIoService& service_;
    Tick poll_interval_;
    uint32_t sm_;
    Resume resume_;
    std::vector<Cta> ctas_;
    std::vector<PendingBatch> pending_;  // per warp slot: its refused batch
    std::deque<uint32_t> refused_;       // warp slots with a refused batch, in issue order
    std::vector<SlotWait> waits_;        // per warp slot
    uint32_t polling_warps_ = 0;
    Tick polling_sm_since_ = 0;          // when polling_warps_ last rose from 0
    uint64_t submitted_ = 0, completed_ = 0, waits_blocked_ = 0, waits_polled_ = 0, polls_ = 0;
    Tick blocked_time_ = 0, polling_time_ = 0, polling_sm_time_ = 0;
};

}  // namespace zng::gpu
