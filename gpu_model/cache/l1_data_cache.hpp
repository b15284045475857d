// Per-SM L1 data cache (paper Table I: 48 KB, 64 sets x 6 ways, 128 B lines, LRU,
// 1 cycle). Physically indexed (accesses arrive translated). Misses allocate an MSHR
// that fetches the whole line from the L2; later misses to the same line merge into
// it. Write policy of global stores:
//   write_through (default, Fermi's policy for global data): stores go to the L2,
//     update a present line, never allocate;
//   write_back: stores hit-or-fetch a line and dirty it; dirty victims are written
//     back to the L2.
// Local stores are always cached write-back, as Fermi caches local memory: a miss
// allocates the line without fetching it (only the written sectors become valid), and
// a dirty victim goes to the L2 as one line-sized Writeback.
// Atomics bypass the L1 (performed at the L2) and drop any copy of their line.
// Everything leaves through one RequestPort toward the crossbar.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu_model/common/mshr_table.hpp"
#include "gpu_model/common/occupancy_tracker.hpp"
#include "gpu_model/common/tag_array.hpp"
#include "sim/config/params.hpp"
#include "sim/core/component.hpp"
#include "sim/core/edge_clock.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/timed_queue.hpp"
#include "sim/mem/port.hpp"

namespace zng::gpu {

enum class WritePolicy : uint8_t { WriteThrough, WriteBack };

struct L1Config {
    uint64_t size = 48 * 1024;
    uint32_t ways = 6;
    uint32_t line = 128;
    uint32_t latency = 1;  // cycles
    uint32_t mshr_entries = 32;
    uint32_t mshr_merge = 8;
    uint32_t miss_queue = 8;
    WritePolicy write_policy = WritePolicy::WriteThrough;
    uint32_t sets() const { return static_cast<uint32_t>(size / (uint64_t{ways} * line)); }

    static const ComponentSchema& schema();
    static L1Config from(const Params& p);
};

// What the L1 calls back on its SM.
class L1Client {
public:
    virtual ~L1Client() = default;
    // A warp access is done: load data ready, store/atomic acknowledged.
    virtual void l1_complete(MemRequest* r) = 0;
    // The L1 refused an access earlier and may take one again. The client offers its
    // refused accesses again in the order they came, so the first it offers is the one
    // refused last; while the reason for that refusal holds, the L1 counts that offer as
    // refused itself and does not call.
    virtual void l1_unblocked() = 0;
};

class L1DataCache final : public Component, public MemRequester {
public:
    L1DataCache(Simulator& sim, std::string name, const ClockDomain& clock, const L1Config& cfg, L1Client& client);

    // Offers a translated warp access. False: no MSHR / queue room now; the client keeps
    // it and is told through l1_unblocked() when to offer it again.
    bool access(MemRequest* r);
    RequestPort& port() { return port_; }

    void recv_response(MemRequest* r, RequestPort& port) override;
    void recv_retry(RequestPort& port) override;

    // Requests of its own (fills, write-backs) and forwarded warp accesses not yet
    // answered, for end-of-run checks.
    uint64_t in_flight() const { return in_flight_; }
    // Requests sent towards the L2 so far (fills, write-backs, forwarded stores/atomics).
    uint64_t requests_sent() const { return requests_sent_; }
    const TagArray& tags() const { return tags_; }
    uint32_t mshrs_in_use() const { return mshr_.in_use(); }
    void flush_stats() { mshr_occupancy_.flush(now()); }

private:
    EdgeClock edge_{clock()};  // memoised cycle-edge arithmetic
    enum Kind : uint64_t { kFill = 1, kWriteback = 2 };
    bool own(const MemRequest* r) const { return r->context == this; }
    uint32_t set_of(uint64_t line) const { return tags_.set_of(line); }
    bool miss(MemRequest* r, uint64_t line);
    void after_lookup(MemRequest*& r);
    void fill(MemRequest* f);
    void send_out(MemRequest* r);
    void try_send();
    void writeback(uint64_t line, uint16_t app);
    bool allocate_for_store(MemRequest* r, uint64_t line, uint32_t set);
    bool writes_back(const MemRequest& r) const { return r.local || cfg_.write_policy == WritePolicy::WriteBack; }
    // Sectors of (set, way) holding data: all after a fill, the written ones after a
    // local store allocated the line.
    uint32_t& valid_sectors(uint32_t set, uint32_t way) { return valid_sectors_[size_t{set} * cfg_.ways + way]; }
    void unblock();
    bool dirty(uint32_t set, uint32_t way) const { return (dirty_ways_[set] >> way) & 1; }
    void mark_dirty(uint32_t set, uint32_t way, uint16_t app) {
        dirty_ways_[set] |= uint64_t{1} << way;
        tags_.at(set, way).app = app;
    }
    void clear_dirty(uint32_t set, uint32_t way) { dirty_ways_[set] &= ~(uint64_t{1} << way); }
    // An access refused for a reason that still holds is refused again without a lookup.
    bool refusal_stands(const MemRequest* r) const {
        return r == refusal_.r && refusal_.state == state_epoch_ && (!refusal_.on_queue || refusal_.queue == queue_epoch_);
    }
    bool refuse(const MemRequest* r, bool on_queue);

    L1Config cfg_;
    L1Client& client_;
    RequestPort port_;
    TagArray tags_;
    MshrTable mshr_;
    uint32_t line_shift_;
    TimedQueue<MemRequest*> lookup_;  // accesses whose tag lookup is in progress
    RingQueue<MemRequest*> outbound_;
    uint32_t outbound_reserved_ = 0;  // outbound slots promised to accesses in lookup
    uint64_t in_flight_ = 0;
    uint64_t requests_sent_ = 0;
    bool refused_ = false;
    // A refused access waits at the head of its SM's queue and is offered again whenever
    // the L1 may take one (about two offers in three are refused on a flash-backed run).
    // Whether it is taken depends only on its line's tags and valid sectors, on the
    // MSHRs, and (for some refusals) on the room left in the miss queue: state_epoch_
    // moves whenever the first two change outside an access that is taken, queue_epoch_
    // whenever the miss queue gains room, so an offer of the same access at unchanged
    // epochs is refused as before, without touching the request or the tag set. Taking
    // any access forgets the refusal.
    struct Refusal {
        const MemRequest* r = nullptr;
        uint64_t state = 0;
        uint64_t queue = 0;
        bool on_queue = false;  // the miss queue's room was (part of) the reason
    };
    Refusal refusal_;
    uint64_t state_epoch_ = 0;
    uint64_t queue_epoch_ = 0;

    Counter& hits_;
    Counter& misses_;
    Counter& merges_;
    Counter& reservation_fails_;
    Counter& writebacks_;
    Counter& store_hits_;
    Counter& stores_;
    Counter& atomics_;
    Average& mshr_avg_;
    OccupancyTracker mshr_occupancy_;
    std::vector<uint32_t> valid_sectors_;
    // Dirty ways of each set (bit w = way w; the L1 keeps no dirty bit in its TagLines).
    // A fill asks whether its victim is dirty: a few hundred bytes per SM answer from
    // the host's caches, where the victim's TagLine is rarely there, and the TagLine is
    // read only to write a dirty line back.
    std::vector<uint64_t> dirty_ways_;
};

}  // namespace zng::gpu
