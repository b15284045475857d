// A streaming multiprocessor: resident CTAs and their warps, the warp schedulers, and
// the LD/ST path (coalescer -> L1 TLB -> L1D -> crossbar). Local accesses are relocated
// into the frame of their warp slot (local_memory.hpp) and take the same path; the L1
// caches them write-back.
//
// Timing model. A warp issues its records' instructions in order: each folded compute
// instruction takes one issue slot and makes the warp wait compute_latency cycles
// (trace records carry no register dependences, so a dependent chain is assumed; other
// warps fill the pipeline meanwhile). A global/local load or atomic stalls the warp
// until every line request it made has returned; a store lets the warp go on unless
// the LD/ST queue has no room for its line requests. Shared and constant accesses cost
// a fixed latency and make no memory traffic. A barrier holds a warp until every live
// warp of its CTA has reached it (exited warps do not count).
//
// Event discipline: the SM ticks once per cycle only while a warp can issue or line
// requests wait for the TLB; otherwise it sleeps until the earliest timed wake-up or
// until a response, barrier release, CTA launch or unblocked queue wakes it.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpu_model/cache/l1_data_cache.hpp"
#include "gpu_model/common/request_latency_stats.hpp"
#include "gpu_model/common/warp_mask.hpp"
#include "gpu_model/sm/coalescer.hpp"
#include "gpu_model/sm/local_memory.hpp"
#include "gpu_model/sm/sm_config.hpp"
#include "gpu_model/sm/wake_queue.hpp"
#include "gpu_model/sm/warp_storage_io.hpp"
#include "gpu_model/sm/warp_scheduler.hpp"
#include "gpu_model/tlb/l1_tlb.hpp"
#include "sim/core/component.hpp"
#include "sim/core/edge_clock.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/timed_queue.hpp"
#include "traces/trace.hpp"

namespace zng::gpu {

class AppRunner;

class StreamingMultiprocessor final : public Component, public L1Client, public TlbClient {
public:
    StreamingMultiprocessor(Simulator& sim, std::string name, const ClockDomain& clock, uint32_t id,
                            const SmConfig& cfg, const L1Config& l1, const L1TlbConfig& tlb, Mmu& mmu, RequestLatencyStats& latency,
                            const std::function<std::unique_ptr<WarpScheduler>()>& make_scheduler);

    uint32_t id() const { return id_; }
    RequestPort& port() { return l1_.port(); }
    L1DataCache& l1d() { return l1_; }
    const L1DataCache& l1d() const { return l1_; }

    // CTA dispatch. fits_empty: whether a CTA of `k` could ever be resident here.
    bool fits_empty(const trace::KernelInfo& k, std::string& why) const;
    bool can_accept(const trace::KernelInfo& k) const;
    // The buffer of a free CTA slot: the dispatcher reads the next CTA into it, then
    // calls launch_cta (or nothing, if the kernel had no more CTAs).
    trace::CtaTrace& cta_buffer();
    void launch_cta(AppRunner& app, const trace::KernelInfo& k);

    uint64_t instructions() const { return instructions_.get(); }
    uint64_t decoded_instructions() const { return decoded_; }
    uint64_t requests_in_flight() const { return in_flight_; }
    uint64_t bytes_requested() const { return bytes_requested_; }
    uint64_t bytes_delivered() const { return bytes_delivered_; }
    // Virtual base of the local-memory frame of warp slot `slot`.
    uint64_t local_frame_base(uint32_t slot) const { return local_.base(slot); }
    uint32_t resident_ctas() const { return resident_ctas_; }
    void flush_stats() { l1_.flush_stats(); }

    // Observer of every issued instruction (tests, tracing): sm, warp slot, pc, cycle.
    using IssueObserver = std::function<void(uint32_t, uint32_t, uint64_t, Cycle)>;
    void set_issue_observer(IssueObserver f) { observer_ = std::move(f); }
    // The platform's storage path for io_submit / io_wait records (null: none, and
    // such records are trace errors).
    void set_storage_io(StorageIoService* service);
    const WarpStorageIo* storage_io() const { return storage_io_.get(); }

    // L1Client
    void l1_complete(MemRequest* r) override;
    void l1_unblocked() override;
    // TlbClient
    void translated(MemRequest* r) override;
    void tlb_unblocked() override;

private:
    EdgeClock edge_{clock()};  // memoised cycle-edge arithmetic
    enum class WarpState : uint8_t { Free, Ready, Sleeping, WaitMem, AtBarrier, WaitIo };
    struct Warp {
        trace::WarpCursor cursor;
        trace::WarpRecord rec;
        uint32_t compute_left = 0;  // folded compute instructions of rec still to issue
        bool own_left = false;      // rec's own (non-compute) instruction still to issue
        WarpState state = WarpState::Free;
        uint32_t cta = 0;
        uint32_t index = 0;         // warp index within its CTA
        uint32_t pending = 0;       // line requests of a load/atomic in flight
        uint32_t nlines = 0;        // line requests of rec (global/local memory records)
        std::array<LineAccess, Coalescer::kMaxLines> lines;
    };
    struct CtaSlot {
        trace::CtaTrace trace;
        AppRunner* app = nullptr;
        bool used = false;
        uint32_t live = 0;        // warps not exited
        uint32_t at_barrier = 0;
        uint32_t registers = 0;
        uint32_t shared = 0;
        uint32_t warps_reserved = 0;  // the launch shape's warps, held until the CTA ends
    };

    void tick();
    void schedule_tick(Cycle c);  // schedules tick_ev_ at the edge of cycle c
    void wake();
    const WarpMask& issuable(uint32_t scheduler);
    void unpark();
    bool issue(uint32_t slot, Cycle now_cycle);
    void issue_memory(Warp& w, uint32_t slot);
    void next_record(Warp& w, uint32_t slot);
    void sleep(uint32_t slot, Cycle until);
    void make_ready(uint32_t slot);
    void warp_exit(uint32_t slot);
    void check_barrier(uint32_t cta);
    void drain_ldst();
    void to_l1(MemRequest* r);
    uint32_t cta_registers(const trace::KernelInfo& k) const;
    [[noreturn]] void trace_error(const Warp& w, const std::string& what) const;

    uint32_t id_;
    SmConfig cfg_;
    Coalescer coalescer_;
    LocalFrames local_;
    L1DataCache l1_;
    L1Tlb tlb_;
    RequestLatencyStats& latency_;
    std::vector<std::unique_ptr<WarpScheduler>> schedulers_;
    std::vector<WarpMask> ready_;  // per scheduler
    std::vector<Warp> warps_;
    WarpMask free_warps_;
    WarpMask parked_;                 // ready, but their memory instruction does not fit the LD/ST queue
    uint32_t parked_min_lines_ = ~0u;  // smallest line count among parked warps
    std::vector<CtaSlot> ctas_;
    uint32_t resident_ctas_ = 0;
    uint32_t used_warps_ = 0;
    uint32_t used_registers_ = 0;
    uint32_t used_shared_ = 0;
    uint64_t next_age_ = 0;
    WakeQueue sleepers_;
    RingQueue<MemRequest*> ldst_;
    bool ldst_blocked_ = false;      // TLB refused the head
    RingQueue<MemRequest*> l1_wait_;  // translated, refused by the L1
    TimedQueue<MemRequest*> tlb_pipe_;
    MemberEvent<StreamingMultiprocessor, &StreamingMultiprocessor::tick> tick_ev_{this, "sm-tick"};
    Cycle tick_cycle_ = 0;  // the cycle tick_ev_ is scheduled for
    Cycle last_cycle_ = 0;
    bool ticked_ = false;
    IssueObserver observer_;
    std::unique_ptr<WarpStorageIo> storage_io_;
    bool issue_storage_io(Warp& w, uint32_t slot, Cycle cycle);

    uint64_t decoded_ = 0;
    uint64_t in_flight_ = 0;
    uint64_t bytes_requested_ = 0;
    uint64_t bytes_delivered_ = 0;
    Counter& instructions_;
    Counter& loads_;
    Counter& stores_;
    Counter& atomics_;
    Counter& shared_;
    Counter& constant_;
    Counter& barriers_;
    Counter& ldst_full_;
};

}  // namespace zng::gpu
