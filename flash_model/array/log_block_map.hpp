// The contract between the flash back end and the flash translation layer that runs
// outside it (ZnG's MMU-resident FTL and GPU helper thread; the firmware FTLs of
// HybridGPU and Hetero's SSD).
//
//  - LogBlockMap is implemented by the FTL: it says which log block takes the writes of
//    a data block, and it merges (garbage-collects) a log block that has no free page.
//  - FlashOpExecutor is implemented by the flash back end: the FTL issues raw page reads,
//    programs and erases (merges, firmware I/O) that are timed by the same model and
//    compete for the same planes, ports and network as demand traffic.
//
// Wiring: the zng_flash back end uses the platform's AddressTranslator as its
// LogBlockMap when the translator offers one (InterfaceProvider); otherwise it uses its
// built-in allocator (see simple_log_block_allocator.hpp). Either way the back end hands
// the map its FlashOpExecutor through attach(), so the platform needs no special case.
#pragma once
#include <cstdint>
#include <functional>
#include <string_view>

#include "flash_model/array/flash_address.hpp"
#include "flash_model/array/flash_geometry.hpp"

namespace zng::flash {

class FlashOpExecutor;

class LogBlockMap {
public:
    static constexpr std::string_view kInterfaceName = "log_block_map";
    // log_block_for()'s answer for a page of a data block the FTL has retired: a merge
    // moved the block's data elsewhere and a cache still held a dirty line under the old
    // physical address. Its data block no longer exists, so the flash model drops the
    // page instead of programming it (the FTL counts these late write-backs).
    static constexpr uint32_t kRetiredBlock = UINT32_MAX;

    virtual ~LogBlockMap() = default;
    // The physical log block (same plane) that takes writes for the data block containing
    // `data_page`; the FTL allocates one from over-provisioned space on first write. The
    // flash model requires the block to be erased (or already the data block's open log
    // block); it never calls this for reads.
    virtual uint32_t log_block_for(const FlashAddress& data_page) = 0;
    // The log block has no free page left: the FTL merges it (GC) and calls done() when
    // writes may resume. By then the log block must have been erased (its row-decoder
    // mapping table is cleared by the erase) or log_block_for() must return another block.
    // Writes waiting for this log block stay parked until done().
    virtual void log_block_full(const FlashAddress& log_block, std::function<void()> done) = 0;
    // Asked before every program of a dirty page of `data_page`'s block. True when the
    // block's log group is being merged: the merge reads the group's log pages and then
    // erases its log block on every plane, so a page programmed there now would be lost
    // (or collide with the erase). The map then calls resume() once the merge has ended;
    // by then block_moved() has re-addressed the waiting page to the block's new home.
    // A demand request names `page` in a data block a merge has retired (an L2 line or a
    // request in flight still carries the old physical address, as the flush before a
    // merge does not wait for its write-backs): true, with `page` rewritten to the same
    // page of the block that now holds the data. False for every other page.
    virtual bool forward(FlashAddress& page) {
        (void)page;
        return false;
    }
    // A program of a dirty page of `data_page`'s block has taken its log page (and is
    // queued on its plane). A map whose log blocks are used up before they are physically
    // full (a fill threshold) requests the group's merge here, when its last log page is
    // taken, rather than when a later program finds it full: pages that wait for a merge
    // stay in their registers (merge_pending), so that later program may never come.
    // merged() is called when that merge has ended (not called if none was requested).
    virtual void log_page_taken(const FlashAddress& data_page, std::function<void()> merged) {
        (void)data_page;
        (void)merged;
    }
    virtual bool wait_for_merge(const FlashAddress& data_page, std::function<void()> resume) {
        (void)data_page;
        (void)resume;
        return false;
    }
    // True when a program of a dirty page of `data_page`'s block would be held now: its
    // log group is being merged (wait_for_merge() would park it). No side effect: the
    // flash model asks it to keep such a page in its register, where it still serves
    // hits, instead of starting a program that would hold the register for the merge.
    virtual bool merge_pending(const FlashAddress& data_page) const {
        (void)data_page;
        return false;
    }
    // The log block that takes `data_page`'s writes now, or kNoLogBlock when none is
    // open yet (the next program opens an erased one). No side effect.
    static constexpr uint32_t kNoLogBlock = UINT32_MAX;
    virtual uint32_t open_log_block(const FlashAddress& data_page) const {
        (void)data_page;
        return kNoLogBlock;
    }
    // The back end that adopted this map: merges are issued to it as FlashOps, so that
    // they are timed by the same model as demand traffic. Called once, before any write;
    // an implementation rejects an executor whose geometry is not its own (SimError).
    virtual void attach(FlashOpExecutor& flash) = 0;
};

// A low-level operation for firmware / GC paths. `addr` is exact: no row-decoder
// remapping and no register caching. Read: sense the page and move it to the controller.
// Program: move a page from the controller and program it (erase-before-write and
// in-order programming are enforced). Erase: erase addr's block. done() runs when the
// data is at the controller (Read) or the device reports completion (Program, Erase).
struct FlashOp {
    enum Kind : uint8_t { Read, Program, Erase } kind = Read;
    FlashAddress addr;
    uint16_t app = 0;
    std::function<void()> done;
};

class FlashOpExecutor {
public:
    virtual ~FlashOpExecutor() = default;
    virtual const FlashGeometry& geometry() const = 0;
    virtual void submit(FlashOp op) = 0;
    // Initial condition (untimed, before or during the run): the block holds no data and
    // is erased, as over-provisioned spare blocks are when the FTL starts. Blocks never
    // touched are otherwise fully programmed (they hold the pre-loaded data set).
    virtual void set_block_erased(const FlashAddress& block) = 0;
    // The FTL moved data block `from` to `to` (a merge wrote it elsewhere): register
    // copies and row-decoder bindings of `from` now belong to `to`.
    virtual void block_moved(const FlashAddress& from, const FlashAddress& to) = 0;
    // Erase count of a block (0 if never erased), for wear levelling.
    virtual uint32_t erase_count(const FlashAddress& block) const = 0;
    // The page a read of `data_page` senses: the log page holding its newest copy when
    // the plane's row decoder (LPMT) maps one, else `data_page` itself. Untimed (the
    // lookup a merge does before its exact FlashOp::Read).
    virtual FlashAddress newest_copy(const FlashAddress& data_page) const = 0;
    // Whether the exact page `page` is programmed (holds data): untouched blocks are
    // (the pre-loaded data set); erased pages and those past a block's last program are not.
    virtual bool page_programmed(const FlashAddress& page) const = 0;
};

}  // namespace zng::flash
