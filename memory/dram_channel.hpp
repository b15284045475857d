// One memory channel's controller and devices at command level: a read queue, a write
// queue and an internal queue; banks with open-row state and the JEDEC-style timing
// constraints of DramTiming; a data bus with read/write turnaround; all-bank refresh;
// and FR-FCFS scheduling (Rixner et al., ISCA 2000): among the commands that are
// legal now, column commands to open rows first, then the oldest request.
//
// The same engine serves GDDR5 (host reads and writes to banks) and Optane DC PMM,
// whose DIMM adds transactions that use only the bus (reads served from and writes
// into the on-DIMM buffer) or only a bank (a buffered line programmed into the media).
//
// The controller is event driven: it sleeps until the next cycle at which some command
// could issue, and refreshes that fall due while it is idle are accounted for when it
// wakes rather than by a periodic event (so an idle memory leaves the event queue empty).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "memory/dram_timing.hpp"
#include "sim/core/component.hpp"
#include "sim/core/timed_queue.hpp"
#include "sim/mem/mem_request.hpp"

namespace zng::memory {

enum class DramTxnKind : uint8_t {
    Read,         // bank access, data out
    Write,        // bank access, data in
    BufferRead,   // data out of a device-side buffer: bus only
    BufferWrite,  // data into a device-side buffer: bus only
    MediaWrite,   // a buffered line programmed into a bank: bank only
};

struct DramTxn {
    MemRequest* req = nullptr;  // null for the controller's own work (write-backs, atomics' writes)
    uint64_t seq = 0;           // arrival order, for first-come-first-served
    uint64_t row = 0;
    uint64_t tag = 0;           // the client's (e.g. buffer line)
    uint64_t aux = 0;           // the client's (e.g. sector mask)
    Cycle ready = 0;            // first cycle the scheduler may act on it
    uint32_t bank = 0;
    uint16_t bursts = 1;
    DramTxnKind kind = DramTxnKind::Read;
    bool activate_first = true;  // MediaWrite of a partial line: read the line before programming
    bool started = false;        // its first command has issued (row hit/miss/conflict decided)
};

class DramChannel;

// What the owner of a channel is told (and asked).
class DramChannelClient {
public:
    virtual ~DramChannelClient() = default;
    // The transaction finished at `when`: read data has left the bus, write data has
    // reached the device, or the media program ended.
    virtual void txn_done(DramChannel& ch, const DramTxn& t) = 0;
    // A queue slot freed (time to retry refused requesters).
    virtual void room_freed(DramChannel& ch) = 0;
    // Only asked for BufferWrite: may its data enter the device buffer now?
    virtual bool may_issue(DramChannel&, const DramTxn&) { return true; }
    // Told when a BufferWrite's command issues (the buffer takes the line now).
    virtual void issued(DramChannel&, const DramTxn&) {}
};

struct DramChannelConfig {
    DramTiming timing;
    uint32_t banks = 16;
    uint32_t read_queue = 32;
    uint32_t write_queue = 32;
    uint32_t internal_queue = 0;
    uint32_t write_high = 24;  // enter write drain at this many queued writes
    uint32_t write_low = 8;    // leave it at this many (when reads wait)
    bool close_page = false;   // precharge after a column access unless another request hits the row
    uint32_t row_hit_cap = 0;  // after this many hits, an open row loses its priority (0 = never)
};

class DramChannel final : public Component {
public:
    DramChannel(Simulator& sim, std::string name, const ClockDomain& clock, const DramChannelConfig& cfg,
                DramChannelClient& client, uint32_t index);

    uint32_t index() const { return index_; }
    const DramChannelConfig& config() const { return cfg_; }

    // Room for one more transaction of this kind (writes count reserved slots).
    bool has_room(DramTxnKind k) const;
    // Holds a write slot for a write that will follow later (an atomic's write half).
    void reserve_write() { ++reserved_writes_; }
    // Queues a transaction; the caller checked has_room (or reserved the slot).
    void enqueue(DramTxn t, bool uses_reservation = false);
    // Re-examine the queues now (a client condition changed, e.g. buffer room freed).
    void kick();

    bool idle() const { return read_q_.empty() && write_q_.empty() && internal_q_.empty(); }
    uint64_t activations() const { return activations_.get(); }
    uint64_t read_bursts() const { return read_bursts_.get(); }
    uint64_t write_bursts() const { return write_bursts_.get(); }
    uint64_t programs() const { return programs_.get(); }

private:
    enum class Cmd : uint8_t { None, Pre, Act, ColRead, ColWrite, Program };
    static constexpr uint64_t kNoRow = ~0ull;
    static constexpr Cycle kNever = ~0ull;
    static constexpr uint32_t kNoIndex = ~0u;

    struct Bank {
        uint64_t open_row = kNoRow;
        Cycle act_ok = 0;   // earliest ACT
        Cycle pre_ok = 0;   // earliest PRE (also: bank free again after a program)
        Cycle col_ok = 0;   // earliest column command to the open row (ACT + tRCD)
        uint32_t hits = 0;  // column accesses since the row opened
        // Queued requests for the open row, per queue (read, write, internal); kept as
        // requests arrive and leave and rows open and close, so FR-FCFS can ask without a scan.
        std::array<uint32_t, 3> queued_for_open_row{};
        // All queued requests for this bank, per queue: with the above, tells whether a
        // queue holds requests to another row than the open one.
        std::array<uint32_t, 3> queued{};
        // Per host queue (read, write), the position of its first request to the open row
        // and of its first request to another row (kNoIndex: none); see first_of_class_.
        std::array<uint32_t, 2> first_open{kNoIndex, kNoIndex};
        std::array<uint32_t, 2> first_other{kNoIndex, kNoIndex};
        // The pass that already weighed this bank's first queued request to its open row
        // (`open_row_weighed_in`) or to another row (`other_row_weighed_in`); see pass().
        uint64_t open_row_weighed_in = 0;
        uint64_t other_row_weighed_in = 0;
    };
    struct Pick {
        std::vector<DramTxn>* queue = nullptr;
        size_t index = 0;
        uint64_t seq = ~0ull;
        Cmd cmd = Cmd::None;
    };

    void pass();
    bool dominated(const DramTxn& t);
    // How many requests of queue q a pass weighs (the rest are dominated): one per class
    // present, plus every buffer write.
    uint32_t undominated(const std::vector<DramTxn>& q) const;
    void count_queued(const DramTxn& t, size_t slot, int delta);
    // The positions of the requests a pass weighs in host queue q, in queue order, into
    // weigh_ (a bit per position); false when q holds buffer writes (each is weighed:
    // the pass scans q whole).
    bool classes_of(const std::vector<DramTxn>& q);
    // The kept position of the first request of t's class in host queue `slot` (null:
    // t's kind has no class, it is always weighed).
    uint32_t* class_first(const DramTxn& t, size_t slot);
    void note_class(const DramTxn& t, size_t slot, uint32_t index);
    // Host queue q lost `leaving`, which stood at `index`.
    void erased(const std::vector<DramTxn>& q, const DramTxn& leaving, uint32_t index);
    void finish(DramTxn& t);
    Cycle earliest(const DramTxn& t, Cmd& cmd, bool& hit);
    uint32_t pending_hits(const Bank& b) const;
    size_t queue_slot(const std::vector<DramTxn>& q) const { return &q == &read_q_ ? 0 : &q == &write_q_ ? 1 : 2; }
    void open_row(Bank& b, uint64_t row);
    void close_row(Bank& b);
    Cycle read_bus_ok() const;
    Cycle write_bus_ok() const;
    bool refresh_step(Cycle now, Cycle& wake_at);
    void catch_up_refresh(Cycle now);
    void issue(DramTxn& t, Cmd cmd, Cycle now);
    void update_mode();
    void note_occupancy();
    void wake(Cycle c);
    Cycle now_cycle() const { return clock().tick_to_cycle(now()); }
    Tick at(Cycle c) const { return clock().cycle_to_tick(c); }

    DramChannelConfig cfg_;
    DramChannelClient& client_;
    uint32_t index_;
    std::vector<Bank> banks_;
    std::vector<DramTxn> read_q_, write_q_, internal_q_;
    uint32_t reserved_writes_ = 0;
    uint64_t next_seq_ = 0;
    bool write_mode_ = false;
    uint64_t pass_id_ = 0;
    uint64_t buffer_read_weighed_in_ = 0;  // the pass that weighed the first queued BufferRead
    std::array<uint32_t, 3> buffer_reads_{};   // queued BufferReads, per queue
    std::array<uint32_t, 3> buffer_writes_{};  // queued BufferWrites, per queue
    // The position of the first request of each class (see dominated()) in each host
    // queue, kept as requests arrive and leave and rows open and close, so a pass weighs
    // only those instead of scanning the queue.
    std::array<uint32_t, 2> first_buffer_read_{kNoIndex, kNoIndex};
    std::vector<uint64_t> weigh_;  // scratch: a bit per queue position, set for those a pass weighs
    std::array<std::vector<DramTxn>*, 2> candidates_{};  // the queues the current pass serves

    Cycle cmd_ok_ = 0;       // command bus: one command per cycle
    Cycle col_ok_ = 0;       // tCCD between column commands
    Cycle rrd_ok_ = 0;       // tRRD between ACTs
    std::array<Cycle, 4> faw_{};  // the last four ACTs (ring)
    uint32_t faw_pos_ = 0;
    Cycle bus_free_ = 0;     // data bus busy until
    bool bus_last_write_ = false;
    Cycle write_data_end_ = 0;
    Cycle next_refresh_ = 0;

    TimedQueue<DramTxn> done_;
    MemberEvent<DramChannel, &DramChannel::pass> pass_ev_{this, "dram-schedule"};

    Counter& reads_;
    Counter& writes_;
    Counter& row_hits_;
    Counter& row_misses_;
    Counter& row_conflicts_;
    Counter& activations_;
    Counter& precharges_;
    Counter& refreshes_;
    Counter& read_bursts_;
    Counter& write_bursts_;
    Counter& programs_;
    Counter& write_drains_;
    Average& read_q_occ_;
    Average& write_q_occ_;
    Tick occ_since_ = 0;
};

}  // namespace zng::memory
