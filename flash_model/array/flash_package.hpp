// A Z-NAND package: dies x planes of blocks, a programmable row decoder per plane, the
// flash registers, and the I/O ports towards the flash network (paper II-B, IV-A, IV-C).
//
// Per plane, commands are taken in arrival order (firmware operations from their own
// queue, so that GC never waits behind demand traffic blocked on registers; the plane's
// array alternates between the two when both have operations waiting); when reads do
// not keep pages in registers, a read goes ahead of writes waiting for a register unless
// one of them writes its page:
//  - demand read: a register holding the requested chunks of the page serves it (a
//    register hit, no array access); a register holding only other, written chunks
//    senses the page and merges it; otherwise a register is taken (a clean one first;
//    a dirty victim is programmed to its log block first), the decoder resolves the row
//    (its CAM search latency) and the page is sensed (tR), then `bytes` leave through
//    an I/O port;
//  - demand write (possibly several stores to the page in one sequence): the data
//    enters through an I/O port into the register holding the page, or a register
//    taken with no chunk valid (sensing the page first only if write_miss_sense), and
//    the register turns dirty; the write is acknowledged there. A dirty register is
//    programmed (tPROG) to the next free page of its data block's log block when it is
//    evicted or, above dirty_watermark, in the background (not the register the last
//    store went to, nor a page whose log group is merging or whose log block is full:
//    its program would hold the register until a merge ends); if only part of it was written and the page holds
//    data, the old copy is sensed (tR) and merged first. The program that takes a log
//    block's last page (or reaches the FTL's fill threshold) requests the group's merge
//    at once, since the pages held for it might never be programmed otherwise. A miss that needs a dirty
//    register waits for a program under way, not for one parked until a merge ends.
//    With write_staging, the store that turns a register dirty also queues its page,
//    and each die programs the queued pages in the background one at a time, in the
//    order of their first store, with the same exclusions (seed 004's staging: writes
//    return from the fast tier, migration tasks drain first in, first out behind them).
//    With register_programs: pipeline the registers are each plane's page and cache
//    registers: every page turned dirty is queued the same way and each plane programs
//    its queued pages as soon as it may, the page the last store went to included, so
//    stores merge only while their page waits for its program;
//  - firmware read / program / erase: exact addresses, through the plane's page buffer.
// Array operations of a plane run one at a time; planes of a die overlap when
// multi_plane allows (operations of one kind only, erases included), else the die runs one at a time.
// An I/O port moves one transfer at a time: command_cycles + ceil(bytes / width) cycles
// at the interface rate (skipped when the network is the I/O bus itself).
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "flash_model/flash_transaction.hpp"
#include "flash_model/array/register_file.hpp"
#include "flash_model/array/register_interconnect.hpp"
#include "flash_model/array/row_decoder.hpp"
#include "flash_model/array/thrashing_checker.hpp"
#include "sim/core/component.hpp"
#include "sim/core/timed_queue.hpp"

namespace zng::flash {

class FlashPackage final : public Component, public FlashEndpoint {
public:
    // `iface` is the clock of the I/O ports (one cycle per transfer at the interface rate).
    FlashPackage(Simulator& sim, std::string name, const ClockDomain& iface, FlashShared& shared, uint32_t channel,
                 uint32_t package_in_channel);

    void receive(const FlashMessage& m) override;
    // Interconnects report a finished move.
    void migration_done(uint32_t txn);
    // SWnet: copy a page out to the controller's buffer and back in.
    void migrate_through_controller(uint32_t txn);
    // Schedules migration_done(txn) at `when` (for interconnects with their own timing).
    void migration_done_at(uint32_t txn, Tick when);

    // FlashOpExecutor helpers (untimed bookkeeping).
    void block_erased_externally(uint32_t plane, uint32_t block);
    void block_moved(uint32_t plane, uint32_t from, uint32_t to);

    const FlashRegisterFile& registers() const { return regs_; }
    // The thrashing checker asks the L2 to hold this package's dirty pages.
    bool thrashing() const { return thrash_.active(); }
    const ThrashingChecker& thrashing_checker() const { return thrash_; }
    const ProgrammableRowDecoder& decoder(uint32_t plane) const { return decoders_[plane]; }
    uint32_t endpoint() const { return endpoint_; }
    // Commands and internal operations not yet finished (for end-of-run invariants).
    uint64_t busy_planes() const;
    // Demand reads' waits from acceptance by their controller to service here, summed,
    // and the part of it their dies spent programming or erasing.
    double read_wait_ps() const { return read_wait_.sum() * static_cast<double>(kNanosecond); }
    double read_wait_programming_ps() const { return static_cast<double>(read_wait_programming_.get()); }
    // How long the die holding page `a` has run programs or erases so far (its planes
    // together count once), the running one included.
    Tick die_programming(const FlashAddress& a) const;

private:
    // Charges what the package builds for its planes and registers to `budget`
    // (run.memory_limit) and returns its plane count.
    static uint32_t charged_planes(MemoryBudget& budget, const FlashSpec& spec);
    // What an operation does to the array (planes of a die overlap same-kind operations).
    enum class ArrayOp : uint8_t { Sense, Program, Erase };
    struct Plane {
        RingQueue<uint32_t> demand;    // commands waiting for a register, in order
        RingQueue<uint32_t> array;           // demand array operations (senses, evictions)
        RingQueue<uint32_t> firmware_array;  // firmware / GC array operations
        bool busy = false;
        bool firmware_last = false;  // the last operation started was a firmware one
        // The plane's page buffer as a read's own register (reads_take_dirty_registers
        // false): reserved from admission until the read's data has left through a port,
        // and holding that data (no array operation may start) once sensed. It keeps the
        // page until the plane's next array operation, so a later read of it is a hit.
        bool buffer_reserved = false;
        bool buffer_holding = false;
        bool buffer_valid = false;
        uint64_t buffer_tag = 0;
    };
    enum class EvKind : uint8_t { ArrayDone, PortDone, Migrated, ProgramStarted, FirstPartOut };
    static constexpr Cycle kChangeReadColumnCycles = 4;
    struct Ev {
        EvKind kind;
        uint32_t txn;
        uint32_t plane;
    };
    struct PortJob {
        uint32_t txn;
        uint32_t bytes;
    };

    void on_event(Ev& e);
    void process_plane(uint32_t p);
    void kick_waiting();
    bool admit(uint32_t t);
    bool admit_to_page_buffer(uint32_t t, uint64_t tag);
    // `staged`: the die's background program of a queued page (write_staging).
    void start_evict(uint32_t reg, bool staged = false);
    // write_staging: queues register reg's page, just turned dirty, for a background
    // program (started by maybe_flush, which follows every store).
    void stage(uint32_t reg);
    // Drops entry i of the queue.
    void unstage_at(size_t i);
    // Starts the background program of the oldest queued page each idle staging lane
    // (die, or plane in a pipeline) may take.
    void drain_staged();
    uint32_t die_of(uint32_t plane) const { return plane / sh_.spec.geometry.planes_per_die(); }
    // Queued pages are programmed one at a time per die under write_staging, per plane
    // in a program pipeline (each plane's register pair is its own; planes of a die
    // program together where multi_plane allows).
    uint32_t staging_lane(uint32_t plane) const { return sh_.spec.program_pipeline ? plane : die_of(plane); }
    void continue_evict(uint32_t txn);
    void maybe_flush(uint32_t plane);
    // Dirty registers above the watermark are programmed in the background (maybe_flush
    // without draining the staging queue).
    void flush_above_watermark(uint32_t plane);
    // A merge has ended: the pages held for it (program_held), which background programs,
    // the staging queue and register misses passed over, may be programmed now.
    void resume_held();
    bool holds_data(uint32_t plane, uint32_t block, uint32_t page) const;
    static ArrayOp array_op(const FlashTxn& t);
    void program_log(uint32_t t);
    void merge_done(uint32_t plane, uint32_t log_block);
    void start_array(uint32_t p);
    bool die_allows(uint32_t p, ArrayOp op) const;
    void array_done(uint32_t t, uint32_t p);
    void after_sense(uint32_t t);
    void port_transfer(uint32_t t, uint32_t bytes);
    void try_ports();
    void port_done(uint32_t t);
    void finish_evict(uint32_t t);
    // Cache program: the eviction's page has moved into its plane's page buffer.
    void program_started(uint32_t t);
    // An evicted page has left register `reg` (its program started or ended): the
    // register is clean and free.
    void release_register(uint32_t reg);
    void reply(uint32_t t, MsgKind kind, uint32_t payload);
    // Bytes of demand read t its requester waits for first (MemRequest::first_bytes), 0
    // when the read goes out whole.
    uint32_t first_part(uint32_t t) const;
    void note_write_miss(uint64_t tag);
    void note_read_sense(const FlashTxn& t);
    FlashAddress page_address(uint32_t plane, uint32_t block, uint32_t page) const;
    [[noreturn]] void fail(const std::string& what) const;

    FlashShared& sh_;
    const ClockDomain& iface_;
    uint32_t channel_, package_, endpoint_;
    bool port_is_network_;
    std::vector<Plane> planes_;
    // Per die: how many of its planes run an array operation, and of which kind (they all
    // run one kind: die_allows), so a start asks its die once instead of each plane.
    struct Die {
        uint32_t busy_planes = 0;
        // Evictions chosen for a page of this die whose programs have not reached its
        // plane yet (the page is crossing the register interconnect, or being sensed
        // for a merge first). Victim choice counts the die as unable to program now:
        // the program may arrive after another has started on the die, and then waits
        // for it (die_allows).
        uint32_t programs_coming = 0;
        ArrayOp running = ArrayOp::Sense;
        // Bit i: the die's plane i (within the die) last found its next operation held
        // back by the die (die_allows). Every queue push is followed by start_array of
        // its plane, so an idle plane with work and no bit set has none the die holds:
        // when an operation ends, its own plane is retried and, if it was the die's
        // last, these.
        uint64_t held = 0;
        // When the die's running operations began (busy_planes went from 0): planes whose
        // turn comes in that same tick start with them, as one multi-plane command.
        Tick batch_since = 0;
        // Set only while a freed die retries the planes it held: the idle die then refuses
        // the kind it has just run (`running`), so the planes waiting for another go first.
        bool turn_over = false;
        // How long the die has run programs or erases (planes together count once):
        // program_time over the phases that ended, plus now - program_since while one runs.
        Tick program_time = 0;
        Tick program_since = 0;
    };
    std::vector<Die> dies_;
    // A demand read's service starts (a sense, or a register or page-buffer hit): its
    // wait since its controller accepted it goes into the statistics below.
    void read_service_starts(const FlashTxn& t);
    // Statistics: where each plane's array time goes, and what demand reads wait for.
    Counter& sense_busy_;
    Counter& program_busy_;
    Counter& erase_busy_;
    Average& read_wait_;
    Counter& read_wait_programming_;
    // Bit p: plane p's demand queue may hold commands (set on every push, cleared when
    // found empty), so kick_waiting visits those planes instead of reading all of them.
    std::vector<uint64_t> demand_waiting_;
    void set_demand_waiting(uint32_t plane, bool waiting) {
        const uint64_t bit = uint64_t{1} << (plane % 64);
        demand_waiting_[plane / 64] = waiting ? demand_waiting_[plane / 64] | bit : demand_waiting_[plane / 64] & ~bit;
    }
    std::vector<ProgrammableRowDecoder> decoders_;
    FlashRegisterFile regs_;
    std::unique_ptr<RegisterInterconnect> interconnect_;
    ThrashingChecker thrash_;
    uint32_t free_ports_;
    RingQueue<PortJob> port_wait_;
    // write_staging: pages queued at their first store, oldest first. An entry is current
    // while its register is dirty and holds the generation it was queued with (a register
    // programmed and dirtied again is queued anew).
    struct StagedPage {
        uint32_t reg;
        uint32_t generation;
        uint32_t lane;  // staging_lane of the page's plane (a current entry's register keeps its plane)
    };
    RingQueue<StagedPage> staged_;
    std::vector<uint32_t> staged_generation_;  // by register
    static constexpr uint32_t kNoStagedProgram = UINT32_MAX;
    std::vector<uint32_t> staged_program_;  // by staging lane: the eviction programming its queued page
    // Entries of staged_ per lane, and the lanes that are free and have entries: only
    // those can start a program or drop an entry, so a drain stops once none is left
    // instead of reading the registers of every page queued behind busy lanes.
    std::vector<uint32_t> lane_entries_;
    uint32_t ready_lanes_ = 0;
    bool lane_ready(uint32_t lane) const {
        return staged_program_[lane] == kNoStagedProgram && lane_entries_[lane] != 0;
    }
    // Applies `change` to lane `lane`'s program or entry count, keeping ready_lanes_.
    template <class Change>
    void change_lane(uint32_t lane, Change change) {
        const bool was = lane_ready(lane);
        change();
        ready_lanes_ = ready_lanes_ - was + lane_ready(lane);
    }
    bool draining_ = false, drain_again_ = false;
    // Evictions waiting for a full log block to be merged, by (plane, log block).
    std::unordered_map<uint64_t, std::vector<uint32_t>> parked_;
    TimedQueue<Ev> events_;
};

}  // namespace zng::flash
