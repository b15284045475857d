// One L2 bank: a slice of the tag/data array, its MSHRs, and one port to the memory
// back end. Write-back, write-allocate: a store hit dirties the line; a store miss
// fetches the line (unless it writes the whole line) and merges on fill; atomics are
// performed here. The bank serves one access per cycle; an array write (store, atomic,
// fill) holds the bank for the technology's write latency (STT-MRAM: 5 cycles), which
// is what makes STT-MRAM writes expensive. Fills go before new requests (they hold
// MSHRs); read data is forwarded to the requesters as the fill arrives.
// A demand miss the policy prefetches around becomes a unit fetch (L2Cache): one
// multi-line request from this bank, whose lines are then written by their owner banks.
// Reads and writes wait for the memory back end in separate queues, tried apart.
#pragma once
#include <cstdint>

#include "gpu_model/common/mshr_table.hpp"
#include "gpu_model/common/occupancy_tracker.hpp"
#include "gpu_model/common/tag_array.hpp"
#include "gpu_model/l2/l2_config.hpp"
#include "gpu_model/l2/line_marks.hpp"
#include "gpu_model/l2/l2_policy.hpp"
#include "sim/core/component.hpp"
#include "sim/core/edge_clock.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/timed_queue.hpp"
#include "sim/mem/port.hpp"

namespace zng::gpu {

class L2Cache;

class L2Bank final : public Component, public MemResponder, public MemRequester {
public:
    L2Bank(Simulator& sim, std::string name, const ClockDomain& clock, const L2Config& cfg,
           const L2AddressMap& map, L2Policy& policy, L2Cache& l2, uint32_t index);

    ResponsePort& cpu_port() { return cpu_port_; }
    RequestPort& mem_port() { return mem_port_; }

    // Fetches a line for the policy; false when present, already fetched, or no room.
    bool prefetch(uint64_t paddr, const MemRequest& cause);

    // Unit fetches (L2Cache::prefetch_unit). The line is valid here or being fetched.
    bool holds(uint64_t line) const {
        return tags_.find(set_of(line << line_shift_), line) != TagArray::kMiss || mshr_.find(line) != MshrTable::kNone;
    }
    // Turns the line fetch just allocated for the demand miss of `demand_line` into the
    // fetch of `bytes` from `paddr` for unit `u`: its waiters move to the unit, its MSHR
    // entry becomes the unit's (returned). Called from the policy's on_miss.
    int convert_to_unit(uint64_t demand_line, uint32_t u, uint64_t paddr, uint32_t bytes);
    // A line of unit `u` owned by this bank arrived: queued for its array write.
    void unit_line_arrived(uint32_t u, uint64_t line);
    // Every line of the unit is installed: its MSHR entry is free.
    void release_unit(int e);
    void wake() { unstall(); }

    // Writes back every dirty line owned by `app` (queued to memory like eviction
    // write-backs) and invalidates all of its lines. Returns at once, without waiting
    // for the write-backs. Lines still being fetched are not touched.
    struct Flushed {
        uint32_t lines = 0;  // lines invalidated
        uint32_t dirty = 0;  // of which dirty, hence written back
    };
    Flushed flush_app(uint16_t app);

    bool recv_request(MemRequest* r, ResponsePort& port) override;
    void recv_response(MemRequest* r, RequestPort& port) override;
    void recv_retry(RequestPort& port) override;

    // Nothing queued, fetching or waiting for the back end.
    bool idle() const;
    const TagArray& tags() const { return tags_; }
    const LineMarksArray& marks() const { return marks_; }
    uint64_t memory_in_flight() const { return mem_in_flight_; }
    void flush_stats() { mshr_occupancy_.flush(now()); }

private:
    EdgeClock edge_{clock()};  // memoised cycle-edge arithmetic
    enum Kind : uint64_t { kFill = 1, kWriteback = 2, kUnit = 3 };
    enum Flags : uint32_t { kPrefetchEntry = 1, kUnitEntry = 2 };
    // MSHR key of a unit fetch: no line number has bit 63 set.
    static constexpr uint64_t kUnitKey = uint64_t{1} << 63;
    struct UnitLine {
        uint32_t unit = 0;
        uint64_t line = 0;
    };
    // A request or fill waiting for the array, with its set: found once at arrival,
    // where the set's tags are prefetched, not again at each (re)try of the lookup.
    struct Queued {
        MemRequest* r = nullptr;
        uint32_t set = 0;
    };
    bool own(const MemRequest* r) const { return r->context == this; }
    // Asks the host to start loading what the array access of `set` reads: its tags and
    // marks, and for a fill (install) also its ways' TagLines, one of which a
    // replacement evicts. Called when the access is queued, well before it is served: a
    // 24 MB L2's tag array does not stay in the host's caches.
    // Always inlined: a call the compiler keeps out of line is one it may drop, since a
    // function that only prefetches has no effect it must preserve.
    [[gnu::always_inline]] void prefetch_set(uint32_t set, bool install) const {
        tags_.prefetch(set);
        marks_.prefetch(set);
        if (!install) return;
        constexpr size_t kHostLine = 64;  // bytes
        const char* first = reinterpret_cast<const char*>(&tags_.at(set, 0));
        const size_t bytes = size_t{tags_.ways()} * sizeof(TagLine);
        for (size_t b = 0; b < bytes; b += kHostLine) __builtin_prefetch(first + b);
        __builtin_prefetch(first + bytes - 1);  // a set that does not start on a host line
    }
    uint32_t set_of(uint64_t paddr) const { return tags_.set_of(map_.local_line(paddr)); }

    void tick();
    void wake_at(Tick t);
    bool serve(MemRequest* r, uint32_t set);
    bool miss(MemRequest* r, uint64_t line);
    bool fetch(uint64_t line, const MemRequest& cause, uint32_t flags, MemRequest* waiter);
    void fill(MemRequest* f, uint32_t set);
    void install_unit_line(const UnitLine& ul);
    void answer(TagLine& l, LineMarks& m, MemRequest* r);
    // The way of `set` that now holds `line` (a fresh line, marks clear), its victim evicted.
    // Pinned lines are spared while the policy protects them.
    uint32_t allocate(uint32_t set, uint64_t line, const MemRequest& cause);
    void pin_if_redirected(LineMarks& m, const MemRequest& r);
    void writeback(const TagLine& victim);
    void respond(MemRequest* r, uint32_t delay);
    void occupy(uint32_t cycles);
    // Array accesses, costed by the bank's ports (L2Config::ports): a tag/data read, a
    // write of a line (fill, store), and an atomic's read-modify-write.
    void array_read();
    void array_write();
    void array_rmw();
    void tick_read_write();
    // Installs the oldest waiting fill or unit line; false when none waits.
    bool install_next_fill();
    void serve_next_input();  // the head of input_ (stalls the bank when it must wait)
    bool work_left() const;
    void send_to_memory(MemRequest* r);
    void try_send();
    void unstall();
    // Reads (fills, unit fetches) and writes (bypassed stores, write-backs) wait for the
    // memory back end in queues of their own, memory_queue deep each.
    bool read_room(uint32_t n) const { return mem_reads_.size() + mem_reserved_ + n <= cfg_.memory_queue; }
    bool write_room(uint32_t n) const { return mem_writes_.size() + n <= cfg_.memory_queue; }

    L2Config cfg_;
    const L2AddressMap& map_;
    L2Policy& policy_;
    L2Cache& l2_;
    ResponsePort cpu_port_;
    RequestPort mem_port_;
    TagArray tags_;
    LineMarksArray marks_;  // the prefetch, accessed and pinned bits of tags_' lines
    MshrTable mshr_;
    uint32_t line_shift_;
    RingQueue<Queued> input_;
    RingQueue<Queued> fills_;
    RingQueue<UnitLine> unit_fills_;  // lines of unit fetches waiting for their array write
    MemRequest* last_fetch_ = nullptr;  // the line fetch fetch() made last (for convert_to_unit)
    RingQueue<MemRequest*> mem_reads_;
    RingQueue<MemRequest*> mem_writes_;
    bool reads_refused_ = false, writes_refused_ = false;  // head refused since the last retry
    uint32_t mem_reserved_ = 0;  // read-queue slots promised to fetches in lookup
    uint64_t mem_in_flight_ = 0;
    Tick busy_until_ = 0;                         // shared port
    Tick write_free_ = 0;                         // read_write ports: the write port
    bool stalled_ = false;   // head of input waits for an MSHR / memory-queue slot (the L2 keeps a copy)
    uint32_t index_;         // of the bank in its L2
    bool refused_ = false;   // the crossbar holds a refused request
    TimedQueue<MemRequest*> responses_;
    TimedQueue<MemRequest*> lookups_;  // fetches whose tag lookup is in progress
    MemberEvent<L2Bank, &L2Bank::tick> tick_ev_{this, "l2-bank"};

    Counter& hits_;
    Counter& misses_;
    Counter& merges_;
    Counter& write_hits_;
    Counter& write_misses_;
    Counter& atomics_;
    Counter& evictions_;
    Counter& writebacks_;
    Counter& prefetches_;
    Counter& prefetch_drops_;
    Counter& bypassed_writes_;
    Counter& bypass_invalidations_;
    Counter& bypass_updates_;
    Counter& busy_cycles_;
    Average& mshr_avg_;
    OccupancyTracker mshr_occupancy_;
};

}  // namespace zng::gpu
