// The flash registers of one package (paper II-B, IV-C). A register holds one page:
// a page sensed for a read (clean; a later read of the page hits it) or the page image
// that writes have modified (dirty; programmed when evicted). Each register belongs to
// a home plane. With plane grouping a page may only use its plane's registers; with
// package grouping all registers of the package form one fully-associative cache and
// a page may sit in a remote plane's register (moving it costs interconnect time).
// Registers are tagged by the data page they hold (plane, data block, page index):
// the identity the L2 uses, whatever log page holds its newest copy.
//
// Registers are the write cache of the flash (paper I: "To accommodate the write
// requests, ZnG increases the number of registers"): a register records which chunks of
// its page hold current data (a page sensed: all; a page only written: the chunks
// written), replacement takes a clean idle register before a dirty one, and the file
// counts dirty registers per group so that the package can program some in the
// background above a watermark.
//
// A package groups up to 64 planes x 8 registers: lookups go through a hash index of
// the tags, and the file counts idle registers so that a request finding every usable
// register busy (and retried at each completion) costs no scan.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "flash_model/flash_spec.hpp"
#include "flash_model/array/register_replacement.hpp"
#include "sim/core/hash_map.hpp"

namespace zng::flash {

struct FlashRegister {
    uint64_t tag = 0;
    uint32_t home_plane = 0;
    uint64_t chunks = 0;  // chunks of the page holding current data (FlashSpec::chunk_mask)
    bool valid = false;
    bool dirty = false;
    bool programming = false;  // being programmed to the array (still dirty until it ends)
    // A store has reached the page under its current tag (cleared when the tag changes):
    // the page is among the pages written, so later stores need not look it up there.
    bool stored = false;
};

class FlashRegisterFile {
public:
    FlashRegisterFile(uint32_t planes, uint32_t per_plane, RegisterGrouping grouping,
                      std::unique_ptr<RegisterReplacementPolicy> policy);
    // Host bytes a file of `planes` x `per_plane` registers allocates when built: each
    // register's state, flags, scratch slots and replacement order (an LRU stamp and two
    // links), the per-plane counters and the tag index (run.memory_limit).
    static uint64_t upfront_bytes(uint64_t planes, uint64_t per_plane);

    static uint64_t make_tag(uint32_t plane, uint32_t block, uint32_t page) {
        return (static_cast<uint64_t>(plane) << 48) | (static_cast<uint64_t>(block) << 20) | page;
    }
    static uint32_t tag_plane(uint64_t t) { return static_cast<uint32_t>(t >> 48); }
    static uint32_t tag_block(uint64_t t) { return static_cast<uint32_t>((t >> 20) & 0xfffffff); }
    static uint32_t tag_page(uint64_t t) { return static_cast<uint32_t>(t & 0xfffff); }

    uint32_t size() const { return static_cast<uint32_t>(regs_.size()); }
    FlashRegister& operator[](uint32_t i) { return regs_[i]; }
    const FlashRegister& operator[](uint32_t i) const { return regs_[i]; }

    // Register holding `tag`, or -1.
    int find(uint64_t tag) const {
        const uint32_t* r = index_.get(tag);
        return r ? static_cast<int>(*r) : -1;
    }
    // Data moving in or out: not evictable, not readable.
    bool busy(uint32_t r) const { return busy_[r] != 0; }
    void set_busy(uint32_t r, bool b);
    // An idle register a page of `plane` may take: an empty one (the plane's own
    // first), else the replacement policy's choice among clean idle ones, else among
    // dirty idle ones whose program can start now (not held, and its page's plane free
    // to program: PlaneFree), else among the other dirty idle ones not held, else among
    // the held ones (unless `programmable_only`). -1 if there is none. clean_only: -1
    // instead of a dirty register, and no question to the FTL about dirty ones (a read
    // that would not program one).
    int victim(uint32_t plane, bool clean_only = false, bool programmable_only = false);
    // The policy's choice among the idle dirty registers of `plane`'s group not being
    // programmed whose program can start now (for a background program), or -1. The
    // register the group's last write went to is left out: stores to its page may still
    // be arriving, and programming it now would cost a program per store.
    int dirty_victim(uint32_t plane);
    // Whether register r may be programmed in the background now: valid, dirty, idle,
    // not being programmed, not the register its group's last write went to (unless
    // `open_too`: a program pipeline programs the page stores are going to as well), and
    // its program not held by a merge (the candidates of dirty_victim).
    bool background_programmable(uint32_t r, bool open_too = false) const;
    // A demand write's data has entered register r.
    void note_written(uint32_t r);
    // Says whether a program of the page `tag` would be held now (its block's log group
    // is being merged); such dirty registers are left dirty while others can be chosen.
    using ProgramHeld = std::function<bool(uint64_t tag)>;
    void set_program_held(ProgramHeld f) { program_held_ = std::move(f); }
    // Whether a program of register r's page would be held now (ProgramHeld).
    bool program_held(uint32_t r) const;
    // Says whether a program on `plane` could start now (its page buffer and die are
    // free, nothing queued before it). With cache programs a dirty victim's register is
    // free once its program starts, so a miss takes a victim whose plane can program at
    // once before one whose plane is busy for up to tPROG.
    using PlaneFree = std::function<bool(uint32_t plane)>;
    void set_plane_free(PlaneFree f) { plane_free_ = std::move(f); }
    // Places `tag` in register r (which must be idle and clean), no chunk valid yet.
    void fill(uint32_t r, uint64_t tag);
    void set_dirty(uint32_t r, bool d);
    void set_programming(uint32_t r, bool p);
    // Registers a page of `plane` may use, and the dirty ones among them not being
    // programmed.
    uint32_t group_size() const { return grouping_ == RegisterGrouping::Package ? size() : per_plane_; }
    uint32_t unflushed(uint32_t plane) const {
        return grouping_ == RegisterGrouping::Package ? unflushed_ : unflushed_in_plane_[plane];
    }
    void touch(uint32_t r) { policy_->on_access(r); }
    // Drops clean copies of pages of (plane, block) (the block was erased); dirty
    // copies stay: they are newer than the flash and will be programmed to a log block.
    void invalidate_block(uint32_t plane, uint32_t block);
    // Pages of (plane, from) now belong to (plane, to).
    void move_block(uint32_t plane, uint32_t from, uint32_t to);
    uint32_t dirty_count() const;

private:
    // The registers plane `plane` may use, [first, end) in register order: the package's
    // all when grouped, else the plane's own (register r's home plane is r / per_plane).
    uint32_t group_first(uint32_t plane) const { return grouping_ == RegisterGrouping::Package ? 0 : plane * per_plane_; }
    uint32_t group_end(uint32_t plane) const {
        return grouping_ == RegisterGrouping::Package ? size() : (plane + 1) * per_plane_;
    }
    void drop(uint32_t r);  // invalidates register r and its index entry
    // The register the last write of `plane`'s group went to (UINT32_MAX: none).
    uint32_t open_register(uint32_t plane) const {
        return grouping_ == RegisterGrouping::Package ? last_written_ : last_written_in_plane_[plane];
    }
    // victim() with package grouping under a policy that keeps an order.
    int victim_in_order(bool clean_only, bool programmable_only);
    // Keeps the unflushed / programming counts in step with register r's flags.
    void count(uint32_t r, int sign);
    uint32_t per_plane_;
    RegisterGrouping grouping_;
    std::unique_ptr<RegisterReplacementPolicy> policy_;
    std::vector<FlashRegister> regs_;
    std::vector<uint8_t> busy_;
    // The valid, dirty, busy and programming flags of each register in one byte, for
    // the walks of victim_in_order() and dirty_victim() over up to 512 registers.
    enum : uint8_t { kValid = 1, kDirty = 2, kBusy = 4, kProgramming = 8 };
    std::vector<uint8_t> state_;
    void set_state(uint32_t r, uint8_t flag, bool on) {
        state_[r] = on ? static_cast<uint8_t>(state_[r] | flag) : static_cast<uint8_t>(state_[r] & ~flag);
    }
    std::vector<uint32_t> idle_in_plane_;  // idle registers by home plane
    uint32_t idle_ = 0;                    // idle registers in the package
    uint32_t clean_idle_ = 0;                    // idle and not dirty (empty or clean), in the package
    uint32_t empty_idle_ = 0;                    // idle and not valid, in the package
    std::vector<uint32_t> unflushed_in_plane_;  // by home plane
    uint32_t unflushed_ = 0, programming_ = 0;
    std::vector<uint32_t> last_written_in_plane_;  // by home plane (UINT32_MAX: none)
    uint32_t last_written_ = UINT32_MAX;
    FixedHashMap<uint32_t> index_;         // tag -> register, valid registers only
    std::vector<uint32_t> candidates_;        // scratch, reused
    std::vector<uint32_t> dirty_candidates_;  // scratch of victim(), reused
    std::vector<uint32_t> waiting_candidates_;  // scratch of victim(), reused
    ProgramHeld program_held_;
    PlaneFree plane_free_;
    bool page_plane_free(uint32_t r) const { return !plane_free_ || plane_free_(tag_plane(regs_[r].tag)); }
};

}  // namespace zng::flash
