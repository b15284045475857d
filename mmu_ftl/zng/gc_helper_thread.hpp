// ZnG's GPU helper thread for garbage collection and wear levelling (paper III-B, V-C).
// When a log block has no free page, it merges the log group: for every data block that
// shares the log block, each page is read and programmed into a free block chosen by the
// wear-levelling policy; then the old data blocks and the log block are erased. All of it
// goes through the flash model as FlashOps, so the merge's time and its contention with
// demand traffic are real. One merge runs at a time (one helper thread); each plane of
// the data blocks is a chain of operations, and the planes run in parallel.
//
// While a group is merging, its application's translations of the group's blocks are
// held: the TLB entries are shot down when the merge is requested and translate() fails
// until the merge ends; other applications (and the owner's other blocks) go on. The
// owner's dirty L2 lines are flushed first through a hook the platform connects to the
// L2 (fire-and-forget: the flash model holds every program of the group's pages until
// the merge ends, then re-addressed to the new data blocks, so waiting for the write-backs
// would deadlock).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "mmu_ftl/zng/zng_ftl_tables.hpp"
#include "sim/core/simulator.hpp"
#include "sim/mem/address_translator.hpp"

namespace zng {

class GcHelperThread {
public:
    using Flush = std::function<void(uint16_t app)>;
    GcHelperThread(Simulator& sim, ZngFtlTables& tables, StatGroup stats);

    void set_shootdown(const AddressTranslator::Shootdown* s) { shootdown_ = s; }
    void set_flush(Flush f) { flush_ = std::move(f); }

    // A log block of `group` is full: merge the group, then call done(). Requests for a
    // group already queued or merging only add their done().
    void request_merge(uint32_t group, std::function<void()> done);
    bool merging(uint32_t group) const { return tables_.lbmt.group(group).merging; }
    // Calls done() when the merge of `group` (queued or running) has ended, after the
    // group's blocks have been moved and before held translations are released.
    void after_merge(uint32_t group, std::function<void()> done);
    // Parks a translation of a held block until its group's merge ends.
    void hold(uint16_t app, uint64_t vpn, uint32_t group, AddressTranslator::FaultDone done);
    // Called when a merge ends with each parked translation (the translator re-translates).
    using Release = std::function<void(uint16_t app, uint64_t vpn, AddressTranslator::FaultDone& done)>;
    void set_release(Release r) { release_ = std::move(r); }

    uint64_t merges() const { return merges_.get(); }
    uint64_t pages_moved() const { return pages_moved_.get(); }
    uint64_t erases() const { return erases_.get(); }
    uint64_t held() const { return held_.get(); }
    bool busy() const { return active_ != kIdle; }
    // Sum over merges of the time the owning application's blocks were held.
    Tick blocked_time(uint16_t app) const;

private:
    static constexpr uint32_t kIdle = UINT32_MAX;
    enum class Step : uint8_t { Read, Program, EraseData, EraseLog, Done };
    struct Chain {  // the operations of one plane of the merged data blocks
        Step step = Step::Done;
        uint32_t member = 0;
        uint32_t page = 0;
    };
    struct Member {
        uint32_t lbn, old_block, new_block;
    };
    struct Pending {
        uint32_t group;
        Tick since;
    };
    struct Parked {
        uint16_t app;
        uint64_t vpn;
        uint32_t group;
        AddressTranslator::FaultDone done;
    };
    struct Completion {
        uint32_t group;
        std::function<void()> done;
    };

    void start_next();
    void issue(uint32_t plane);
    void on_op_done(uint32_t plane);
    void finish();
    Counter& app_blocked(uint16_t app);
    void register_wear_stats(StatGroup& g);

    Simulator& sim_;
    ZngFtlTables& tables_;
    StatGroup stats_;
    const AddressTranslator::Shootdown* shootdown_ = nullptr;
    Flush flush_;
    Release release_;

    std::vector<Pending> queue_;          // merges requested, FIFO
    std::vector<Completion> completions_; // done() callbacks of requested merges
    std::vector<Parked> parked_;
    uint32_t active_ = kIdle;
    Tick active_since_ = 0;
    std::vector<Member> members_;
    std::vector<Chain> chains_;
    uint32_t chains_running_ = 0;

    Counter& merges_;
    Counter& pages_moved_;
    Counter& pages_read_;
    Counter& erases_;
    Counter& held_;
    Average& merge_time_;
    std::vector<Counter*> blocked_by_app_;
};

}  // namespace zng
