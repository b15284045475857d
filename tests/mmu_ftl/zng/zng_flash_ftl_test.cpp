// ZnG's FTL (zng_dbmt) adopted by the real zng_flash back end: the back end attaches
// itself to the FTL (no platform wiring), dirty registers evicted into a full log block
// park until the helper thread's merge ends and then follow the moved data block (as do
// requests that still name a retired block), and the merge reads the log copies the row
// decoder names.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "flash_model/register.hpp"
#include "flash_model/controller/zng_flash_backend.hpp"
#include "mmu_ftl/register.hpp"
#include "mmu_ftl/zng/zng_dbmt_translator.hpp"
#include "sim/config/config_node.hpp"
#include "support/port_requester.hpp"

namespace zng::ftl::test {
namespace {

using zng::test::PortRequester;

// One plane of 16 blocks x 4 pages, one register, writes absorbed without a sense (so
// every array operation below is an eviction program or a merge operation). Plane-wide
// data blocks: vpn v -> page v % 4 of virtual block v / 4. OP 0.5 -> 8 user blocks;
// group size 2 needs ceil(8/2) + 2 + 1 = 7 <= 8 spares. The controller runs at 1 GHz so that
// a posted write is answered exactly controller_latency = 4 ns after it arrives.
const char* kOnePlane = R"(
flash:
  channels: 1
  packages_per_channel: 1
  dies_per_package: 1
  planes_per_die: 1
  blocks_per_plane: 16
  pages_per_block: 4
  page_size: 4KiB
  tR: 3us
  tPROG: 100us
  tBERS: 1ms
  registers_per_plane: 1
  write_miss_sense: false
translation: {type: zng_dbmt, data_block_span: plane, log_group_size: 2, overprovisioning: 0.5}
memory: {type: zng_flash, controller_clock: 1GHz}
)";

// Issues n whole-line write-backs alternating between two pages: write i once write i-1
// is answered and, for i < paced, once write i-1's data has also left the controller's
// write queue for the register (when it did is recorded for the first `paced` writes). Writes are posted and queued stores to
// one page are combined into one command, so writes issued at once would share
// evictions; paced, every write from the second on evicts the other page. Polls every
// nanosecond (a controller cycle), so issue times stay on controller edges.
struct WritePacer final : Event {
    WritePacer(Simulator& s, PortRequester& r, const flash::FlashController& c, uint64_t p0, uint64_t p1, int n,
               int paced)
        : Event("write-pacer"), sim(s), req(r), ctrl(c), pages{p0, p1}, n(n), paced(paced) {}
    void process() override {
        if (next > 0) {
            const int prev = next - 1;
            if (req.done_at[first + prev] == PortRequester::kNotDone) return poll();
            if (prev < paced && absorbed_at.size() == static_cast<size_t>(prev)) {
                if (ctrl.write_occupancy() == 0)
                    absorbed_at.push_back(sim.now());
                else if (next < paced || next == n)
                    return poll();
            }
        }
        if (next == n) return;  // the last write is answered (and its absorption recorded if paced)
        if (next == 0) first = req.done_at.size();
        issued_at.push_back(sim.now());
        req.issue(0, pages[next % 2], 128, MemOp::Writeback);
        ++next;
        poll();
    }
    void poll() { sim.schedule(*this, sim.now() + kNanosecond); }

    Simulator& sim;
    PortRequester& req;
    const flash::FlashController& ctrl;
    uint64_t pages[2];
    int n, paced, next = 0;
    size_t first = 0;  // index of the first write in req.done_at
    std::vector<Tick> issued_at, absorbed_at;  // by write; absorbed: seen out of the write queue
};

struct FlashFtlRig {
    explicit FlashFtlRig(const std::string& yaml = kOnePlane) : root(parse_config_text(yaml, "test.yaml")) {
        register_flash_model_components();
        register_mmu_ftl_components();
        TranslatorContext tctx{&root, 0, {}};
        translator = translator_slot().create(root.find("translation"), "translation", "first_touch", sim, tctx);
        BackendContext bctx;
        bctx.root = &root;
        bctx.translator = translator.get();
        backend = memory_backend_slot().create(root.find("memory"), "memory", "zng_flash", sim, bctx);
        ftl = dynamic_cast<ZngDbmtTranslator*>(translator.get());
        flash = dynamic_cast<flash::ZngFlashBackend*>(backend.get());
    }
    uint64_t paddr(uint16_t app, uint64_t vpn) {
        uint64_t ppn = 0;
        EXPECT_TRUE(translator->translate(app, vpn, ppn)) << "vpn " << vpn;
        return ppn * translator->page_size();
    }
    double stat(const std::string& name) { return sim.stats().value(name); }
    // n whole-line write-backs alternating between pages 0 and 1 of data block 0, the
    // first `paced` (all by default) each after the one before has reached the register:
    // with one register, each from the second on evicts the other page into the log block.
    // Starts at the current tick; sim.run() carries it out.
    WritePacer& alternate_writes(PortRequester& req, int n, int paced = -1) {
        pacer = std::make_unique<WritePacer>(sim, req, flash->backbone().controller(0), paddr(0, 0), paddr(0, 1), n,
                                             paced < 0 ? n : paced);
        sim.schedule(*pacer, sim.now());
        return *pacer;
    }

    Simulator sim;
    ConfigNode root;
    std::unique_ptr<AddressTranslator> translator;
    std::unique_ptr<MemoryBackend> backend;
    ZngDbmtTranslator* ftl = nullptr;
    flash::ZngFlashBackend* flash = nullptr;
    std::unique_ptr<WritePacer> pacer;
};

// kOnePlane with two registers, and `more` flash keys after them.
std::string two_registers(const std::string& more = "") {
    std::string yaml = kOnePlane;
    const std::string one = "registers_per_plane: 1";
    yaml.replace(yaml.find(one), one.size(), "registers_per_plane: 2" + more);
    return yaml;
}

TEST(ZngFlashFtl, BackEndAdoptsTheTranslatorAndAttachesItself) {
    FlashFtlRig rig;
    ASSERT_NE(rig.ftl, nullptr);
    ASSERT_NE(rig.flash, nullptr);
    EXPECT_EQ(rig.flash->builtin_allocator(), nullptr);     // the FTL is the log-block map
    EXPECT_EQ(rig.ftl->tables().flash, rig.flash);          // and it got the executor
}

TEST(ZngFlashFtl, WritesParkedOnAFullLogBlockFollowTheMergedDataBlock) {
    FlashFtlRig rig;
    PortRequester req(rig.sim, rig.backend->port(0));
    const uint64_t p0 = rig.paddr(0, 0);  // page 0 of data block 0
    ASSERT_EQ(rig.flash->geometry().decode(p0).block, 0u);
    // Alternating writes to two pages with one register: each write from the second on
    // evicts the other page. Evictions 1..4 fill log block 1 (pages 0..3), and the fourth,
    // taking its last page, requests the merge (paper III-B: GC once the log block's pages
    // are used up); eviction 5 (page 0, by write 6) waits for the merge to end.
    WritePacer& w = rig.alternate_writes(req, 6);
    rig.sim.run();
    EXPECT_EQ(req.completed, 6u);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
    EXPECT_EQ(rig.stat("memory.merges_requested"), 1.0);
    // By hand: 4 eviction programs + the merge (4 reads, 4 programs, erase of data block
    // 0 and log block 1) + the parked eviction into a fresh log block = 9 programs.
    EXPECT_EQ(rig.stat("memory.programs"), 9.0);
    EXPECT_EQ(rig.stat("memory.erases"), 2.0);
    EXPECT_EQ(rig.stat("translation.writebacks_held"), 1.0);  // eviction 5 waited for its group's merge
    EXPECT_EQ(rig.stat("memory.evictions_held_for_merge"), 1.0);
    EXPECT_EQ(rig.ftl->gc().pages_moved(), 4u);
    // Least-erased wear levelling: data 0 and log 1 were taken first, the merge moved the
    // data block to fresh block 2, and the parked page opened fresh log block 3.
    const flash::FlashAddress moved = rig.flash->geometry().decode(rig.paddr(0, 0));
    EXPECT_EQ(moved.block, 2u);
    EXPECT_EQ(rig.ftl->tables().dbmt.at(0).plbn, 3u);
    // The parked page 0 was programmed into log page 0 of the new log block; page 1 (the
    // last write) is still dirty in the register, so its newest flash copy is the merged one.
    EXPECT_EQ(rig.flash->newest_copy(moved), moved.with_block(3).with_page(0));
    EXPECT_EQ(rig.flash->newest_copy(moved.with_page(1)), moved.with_page(1));
    // Writes are posted: each is answered when the controller has decoded it, 4 cycles
    // of 1 ns after it arrived, whatever its register is doing.
    for (int i = 0; i < 6; ++i) EXPECT_EQ(req.done_at[i], w.issued_at[i] + 4 * kNanosecond) << "write " << i;
    // The sixth write is issued when the fifth's data is in the register, i.e. when
    // eviction 4's program has moved into the page buffer; the merge's reads wait for that
    // program (a merge reads a page's newest copy once the plane's queued programs are
    // done). Its data reaches the register only when the held page 0 has been programmed
    // after the merge, which ends when the pages are copied: at least 4 x (tR + tPROG) for
    // the moved pages and one tPROG = 412 us + 100 us = 512 us from the end of eviction 4's
    // program. The merge's two erases follow on the plane: the program goes first, as the
    // plane alternates firmware and demand operations. Page moves through the port and
    // network add microseconds, never another tPROG or a tBERS.
    const Tick absorbed = w.absorbed_at[5] - w.issued_at[5];
    EXPECT_GE(absorbed, 512 * kMicrosecond);
    EXPECT_LT(absorbed, 612 * kMicrosecond);
    // The second write's data waited for page 0's eviction to start its program (a merge
    // sense, tR = 3 us, first: page 0 holds data and was partly written), not for tPROG:
    // the program runs from the plane's page buffer (cache program).
    EXPECT_GE(w.absorbed_at[1] - w.issued_at[1], 3 * kMicrosecond);
    EXPECT_LT(w.absorbed_at[1] - w.issued_at[1], 4 * kMicrosecond);
}

TEST(ZngFlashFtl, WritebackToARetiredAddressFollowsTheMovedBlock) {
    FlashFtlRig rig;
    PortRequester req(rig.sim, rig.backend->port(0));
    const uint64_t p0 = rig.paddr(0, 0);
    rig.alternate_writes(req, 6);
    rig.sim.run();
    ASSERT_EQ(rig.ftl->gc().merges(), 1u);  // data block 0 moved to block 2 (see above)
    ASSERT_EQ(rig.stat("memory.programs"), 9.0);
    // A line cached under the retired address of page 0 is written back: the request is
    // forwarded to page 0 of block 2 and takes the register (page 1's dirty copy is
    // programmed into log page 1 of log block 3); then a write to the moved page 1 evicts
    // it into log page 2. Nothing is dropped.
    req.issue(0, p0, 128, MemOp::Writeback);
    req.issue(0, rig.paddr(0, 1), 128, MemOp::Writeback);
    rig.sim.run();
    EXPECT_EQ(req.completed, 8u);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
    EXPECT_EQ(rig.stat("memory.forwarded_requests"), 1.0);
    EXPECT_EQ(rig.ftl->late_writebacks(), 0u);
    EXPECT_EQ(rig.stat("memory.programs"), 11.0);
    const flash::FlashAddress moved = rig.flash->geometry().decode(rig.paddr(0, 0));
    EXPECT_EQ(rig.flash->newest_copy(moved), moved.with_block(3).with_page(2));
    EXPECT_EQ(rig.flash->newest_copy(moved.with_page(1)), moved.with_block(3).with_page(1));
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
}

// Issues a read of `paddr` the first time the flash model has started an erase (polled
// every microsecond).
struct ReadAtFirstErase final : Event {
    ReadAtFirstErase(Simulator& s, PortRequester& r, uint64_t a) : Event("read-at-erase"), sim(s), req(r), paddr(a) {}
    void process() override {
        if (sim.stats().value("memory.erases") == 0.0) return sim.schedule(*this, sim.now() + kMicrosecond);
        issued_at = sim.now();
        index = req.issue(0, paddr, 128, MemOp::Read);
    }
    Simulator& sim;
    PortRequester& req;
    uint64_t paddr;
    Tick issued_at = 0;
    size_t index = 0;
};

// A read still naming the merged data block that reaches the flash model once the
// merge's copies of its plane are done, while the old block is being erased: it is
// forwarded to the new block (which holds every page by then) and waits for the plane's
// erase, instead of sensing the erased old block after it. By hand: the merge's first
// erase (data block 0) runs for tBERS from just before the read is issued; the read
// senses next (the plane alternates firmware and demand operations), before the log
// block's erase, so it is answered within one tBERS of the erase, plus tR and transfers.
// It reads page 2, which no write touched (pages 0 and 1 have a register whose program
// waits for the merge's end, and a read of them waits for that register), and is sensed
// into the page buffer (reads_keep_pages: false, as zng-base), so it passes write 6,
// which waits in the plane's queue for that register.
TEST(ZngFlashFtl, AReadOfABlockBeingErasedFollowsItsCopiedPages) {
    std::string yaml = kOnePlane;
    yaml.insert(yaml.find("  write_miss_sense"), "  reads_keep_pages: false\n");
    FlashFtlRig rig(yaml);
    PortRequester req(rig.sim, rig.backend->port(0));
    const uint64_t p2 = rig.paddr(0, 2);
    ReadAtFirstErase reader(rig.sim, req, p2);
    rig.sim.schedule(reader, 0);
    rig.alternate_writes(req, 6);
    rig.sim.run();
    ASSERT_EQ(rig.ftl->gc().merges(), 1u);
    ASSERT_NE(reader.issued_at, 0u);
    EXPECT_EQ(rig.stat("memory.forwarded_requests"), 1.0);
    EXPECT_EQ(rig.stat("memory.reads_of_erased_pages"), 0.0);
    const Tick done = req.done_at.at(reader.index);
    EXPECT_GT(done, reader.issued_at + kMillisecond - kMicrosecond);
    EXPECT_LT(done, reader.issued_at + kMillisecond + 10 * kMicrosecond);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
}

// Asks the FTL, at a given tick, whether a program of `page` must wait for a merge.
struct MergeProbe final : Event {
    MergeProbe(Simulator& s, ZngDbmtTranslator& f, flash::FlashAddress p) : Event("probe"), sim(s), ftl(f), page(p) {}
    void process() override {
        asked_at = sim.now();
        held = ftl.wait_for_merge(page, [this] { resumed_at = sim.now(); });
    }
    Simulator& sim;
    ZngDbmtTranslator& ftl;
    flash::FlashAddress page;
    bool held = false;
    Tick asked_at = 0, resumed_at = 0;
};

// A merge's new block belongs to its member from the merge's start: once a plane's pages
// are copied, a register holding a page of the old block follows it there, and a
// program of it, naming the new block, waits for the merge's end as the old block's
// would (not an unknown block). Probed during the copies (see the test below).
TEST(ZngFlashFtl, AProgramOfTheNewBlockDuringItsMergeWaitsForTheMerge) {
    FlashFtlRig rig;
    PortRequester req(rig.sim, rig.backend->port(0));
    const flash::FlashAddress old = rig.flash->geometry().decode(rig.paddr(0, 0));
    MergeProbe probe(rig.sim, *rig.ftl, old.with_block(2)), of_old(rig.sim, *rig.ftl, old);
    rig.sim.schedule(probe, 600 * kMicrosecond);
    rig.sim.schedule(of_old, 600 * kMicrosecond);
    rig.alternate_writes(req, 6);
    rig.sim.run();
    ASSERT_EQ(rig.ftl->gc().merges(), 1u);
    ASSERT_EQ(rig.flash->geometry().decode(rig.paddr(0, 0)).block, 2u);  // the new block is block 2
    EXPECT_TRUE(probe.held);
    EXPECT_TRUE(of_old.held);
    EXPECT_GT(probe.resumed_at, probe.asked_at);
    EXPECT_EQ(probe.resumed_at, of_old.resumed_at);
}

TEST(ZngFlashFtl, ProgramsOfAMergingGroupWaitUntilTheMergeEnds) {
    FlashFtlRig rig;
    PortRequester req(rig.sim, rig.backend->port(0));
    const uint64_t p1 = rig.paddr(0, 1);
    const flash::FlashAddress a1 = rig.flash->geometry().decode(p1);
    // Groups are filled in first-touch order: virtual block 1 joins block 0's group, so
    // virtual block 2 (vpn 8) is the first member of the next group.
    rig.paddr(0, 4);
    const uint64_t other = rig.paddr(0, 8);
    const flash::FlashAddress b = rig.flash->geometry().decode(other);
    // The merge is requested when eviction 4 takes the last page of log block 1, after 3
    // programs of (transfer + 100 us), and reads once the fourth is done (~412 us); its
    // copies take 4 x (tR + tPROG) = 412 us more, so a probe at 600 us falls inside it.
    MergeProbe in_group(rig.sim, *rig.ftl, a1), outside(rig.sim, *rig.ftl, b);
    rig.sim.schedule(in_group, 600 * kMicrosecond);
    rig.sim.schedule(outside, 600 * kMicrosecond);
    WritePacer& w = rig.alternate_writes(req, 6);
    rig.sim.run();
    ASSERT_EQ(rig.ftl->gc().merges(), 1u);
    EXPECT_TRUE(in_group.held);
    EXPECT_FALSE(outside.held);  // another group's blocks are not affected
    EXPECT_EQ(outside.resumed_at, 0u);
    // Resumed when the merge ended, with its copies: before even one of its two erases
    // (tBERS each) could have ended, at the tick the parked eviction was released (the sixth write's
    // data enters the register after that program). The sixth write itself, posted, was
    // answered 4 ns after it was issued, before the probe (at ~312 us, when eviction 4's
    // program had started).
    EXPECT_GT(in_group.resumed_at, in_group.asked_at);
    EXPECT_LT(in_group.resumed_at, in_group.asked_at + kMillisecond);
    EXPECT_LT(in_group.resumed_at, w.absorbed_at[5]);
    EXPECT_EQ(req.done_at[5], w.issued_at[5] + 4 * kNanosecond);
    EXPECT_LT(req.done_at[5], in_group.asked_at);
    // Held: the probe, and eviction 5 (write 6), which found the group merging.
    EXPECT_EQ(rig.stat("translation.writebacks_held"), 2.0);
}

TEST(ZngFlashFtl, MergeOperationsPassDemandCommandsWaitingForTheMerge) {
    FlashFtlRig rig;
    PortRequester req(rig.sim, rig.backend->port(0));
    // As above, but writes 7 and 8 follow as soon as the one before is answered: writes 6
    // and 7 wait in the package for the one register, whose page is parked until the
    // merge ends, and so fill the controller's plane_depth (2) of demand commands; write
    // 8 waits in the controller. The merge's reads, programs and erases of that plane
    // still go out (their own budget), so every write completes.
    rig.alternate_writes(req, 8, 6);
    rig.sim.run();
    EXPECT_EQ(req.completed, 8u);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
    // By hand: evictions by writes 2..8 = 7; 4 fill log block 1, the merge moves 4 pages,
    // and the 3 later evictions go to the new log block: 4 + 4 + 3 programs.
    EXPECT_EQ(rig.stat("memory.programs"), 11.0);
    // Writes 7 and 8 were posted while the merge (> 2 x tBERS from write 6 on) ran.
    EXPECT_LT(req.done_at[7], rig.pacer->issued_at[5] + kMillisecond);
    EXPECT_EQ(rig.pacer->issued_at.size(), 8u);
}

// Two registers, at most one dirty (dirty_watermark 0.5 x 2), while group 0 merges:
//  - A0, A1 (group 0) written: A0, not the register taking stores, is programmed in the
//    background (opening log block 1); then group 0's log block is reported full and its
//    merge starts (8 reads, 8 programs, 3 erases: > 3 ms);
//  - B0 (group 1) takes A0's clean register: A1 and B0 are dirty, above the watermark,
//    but A1's program would be held until the merge ends and B0 takes the stores, so no
//    background program starts (before: A1's program parked, holding its register);
//  - B1 (group 1) needs a register: B0's program can start, so B0 is evicted and B1 is
//    in after one tPROG (before: the miss waited for A1's parked "program under way",
//    i.e. for the whole merge, while the controller's write queue held B1).
TEST(ZngFlashFtl, AMissDoesNotWaitForAProgramHeldByAMerge) {
    FlashFtlRig rig(two_registers("\n  dirty_watermark: 0.5"));
    PortRequester req(rig.sim, rig.backend->port(0));
    rig.paddr(0, 4);  // virtual block 1 joins group 0, so virtual block 2 starts group 1
    const uint64_t a0 = rig.paddr(0, 0), a1 = rig.paddr(0, 1), b0 = rig.paddr(0, 8), b1 = rig.paddr(0, 9);
    req.issue(0, a0, 128, MemOp::Writeback);
    rig.sim.run();
    req.issue(0, a1, 128, MemOp::Writeback);
    rig.sim.run();
    ASSERT_EQ(rig.stat("memory.background_programs"), 1.0);
    const uint32_t log = rig.ftl->tables().dbmt.at(0).plbn;
    ASSERT_EQ(log, 3u);  // blocks 0, 1, 2 hold virtual blocks 0, 1, 2 (first-touch order)
    rig.ftl->log_block_full(rig.flash->geometry().decode(a0).with_block(log).with_page(0), {});
    ASSERT_TRUE(rig.ftl->gc().busy());

    const flash::FlashController& ctrl = rig.flash->backbone().controller(0);
    WritePacer w(rig.sim, req, ctrl, b0, b1, 2, 2);
    rig.sim.schedule(w, rig.sim.now());
    rig.sim.run();
    ASSERT_EQ(w.absorbed_at.size(), 2u);
    // B1's data went in after B0's eviction: B0 is partly written over a pre-loaded page,
    // so tR = 3 us of merge sense, then tPROG = 100 us; the plane alternates with the
    // merge's operations, so each of the two waits for at most one of them (<= tPROG):
    // 103 us <= B1's wait < 303 us plus transfers, well inside the merge.
    const Tick b1_in = w.absorbed_at[1] - w.issued_at[1];
    EXPECT_GE(b1_in, 103 * kMicrosecond);
    EXPECT_LT(b1_in, 320 * kMicrosecond);
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
    EXPECT_LT(w.absorbed_at[1], rig.sim.now());  // the merge ended later: > 3 ms of erases
    EXPECT_GT(rig.sim.now() - w.issued_at[0], 3 * kMillisecond);
    // Only A0 was programmed in the background; nothing waited for the merge; programs:
    // A0, the merge's 8, B0 = 10; A1 and B1 are still dirty in the registers.
    EXPECT_EQ(rig.stat("memory.background_programs"), 1.0);
    EXPECT_EQ(rig.stat("memory.evictions_held_for_merge"), 0.0);
    EXPECT_EQ(rig.stat("memory.evictions"), 2.0);
    EXPECT_EQ(rig.stat("memory.programs"), 10.0);
    EXPECT_EQ(rig.stat("memory.erases"), 3.0);
    EXPECT_EQ(rig.flash->backbone().in_flight(), 0u);
}

// Polls every nanosecond after a write: once the first merge sense has started (an
// eviction of a partly written register reads its old page first), runs `in_sense`; and
// records when the controller's write queue is empty again (the write is in a register).
struct SenseThenAbsorb final : Event {
    SenseThenAbsorb(Simulator& s, FlashFtlRig& r, std::function<void()> f)
        : Event("sense-then-absorb"), sim(s), rig(r), in_sense(std::move(f)) {}
    void process() override {
        if (!sensed && rig.stat("memory.merge_senses") == 1.0) {
            sensed = true;
            in_sense();
        }
        if (rig.flash->backbone().controller(0).write_occupancy() == 0) {
            absorbed_at = sim.now();
            return;
        }
        sim.schedule(*this, sim.now() + kNanosecond);
    }
    Simulator& sim;
    FlashFtlRig& rig;
    std::function<void()> in_sense;
    bool sensed = false;
    Tick absorbed_at = 0;
};

// A miss's victim can turn held after it was chosen: two registers hold A0 (group 0) and
// B0 (group 1), both dirty and partly written over pre-loaded pages. B1's miss evicts A0,
// the least recently used, whose eviction first senses the old page (tR = 3 us); during
// that sense group 0's log block is reported full, so A0's program must wait for the
// merge's copies (8 x (tR + tPROG) = 824 us; its 3 erases of 1 ms follow). B1 does not
// wait with it: it chooses again and evicts B0, whose sense and program start (cache
// program: the register frees as tPROG begins) each behind at most one of the merge's
// operations on the plane: at least A0's and B0's senses (6 us), under 3 + 3 + 3 x 100 us
// plus transfers. (Before, B1 waited for A0's program: 848 us, after the copies.)
TEST(ZngFlashFtl, AMissWhoseVictimTurnsHeldChoosesAnother) {
    FlashFtlRig rig(two_registers());
    PortRequester req(rig.sim, rig.backend->port(0));
    rig.paddr(0, 4);  // virtual block 1 joins group 0, so virtual block 2 starts group 1
    const uint64_t a0 = rig.paddr(0, 0), b0 = rig.paddr(0, 8), b1 = rig.paddr(0, 9);
    req.issue(0, a0, 128, MemOp::Writeback);
    rig.sim.run();
    req.issue(0, b0, 128, MemOp::Writeback);
    rig.sim.run();
    ASSERT_EQ(rig.stat("memory.evictions"), 0.0);

    const flash::FlashAddress a = rig.flash->geometry().decode(a0);
    SenseThenAbsorb probe(rig.sim, rig, [&] {
        // Group 0's log block (opened here: nothing was programmed yet) is used up.
        const uint32_t log = rig.ftl->log_block_for(a);
        rig.ftl->log_block_full(a.with_block(log).with_page(0), {});
    });
    const Tick issued = rig.sim.now();
    req.issue(0, b1, 128, MemOp::Writeback);
    rig.sim.schedule(probe, issued);
    rig.sim.run();
    ASSERT_TRUE(probe.sensed);
    ASSERT_NE(probe.absorbed_at, 0u);
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
    EXPECT_GE(probe.absorbed_at - issued, 6 * kMicrosecond);  // A0's and B0's senses
    EXPECT_LT(probe.absorbed_at - issued, 320 * kMicrosecond);
    EXPECT_GT(rig.sim.now() - issued, 3 * kMillisecond);  // the merge's erases
    // A0's program waited for the merge; B0's did not: 2 evictions, 2 merge senses, and
    // programs: the merge's 8, B0, then A0 into the fresh log block = 10.
    EXPECT_EQ(rig.stat("memory.evictions_held_for_merge"), 1.0);
    EXPECT_EQ(rig.stat("memory.evictions"), 2.0);
    EXPECT_EQ(rig.stat("memory.merge_senses"), 2.0);
    EXPECT_EQ(rig.stat("memory.programs"), 10.0);
    EXPECT_EQ(rig.flash->backbone().in_flight(), 0u);
}

TEST(ZngFlashFtl, NewestCopyIsTheLogPageTheRowDecoderMaps) {
    FlashFtlRig rig;
    PortRequester req(rig.sim, rig.backend->port(0));
    const uint64_t p0 = rig.paddr(0, 0);
    rig.alternate_writes(req, 4);
    rig.sim.run();
    EXPECT_EQ(rig.ftl->gc().merges(), 0u);  // one log page is left
    // 3 evictions (log pages 0..2 = p0, p1, p0): the newest copies of pages 0 and 1 are
    // log pages 2 and 1 of log block 1; pages 2 and 3 were never rewritten. (Merges read
    // exactly these addresses: see ZngFtl.MergeReadsEveryPageFromItsNewestCopy.)
    const flash::FlashAddress d = rig.flash->geometry().decode(p0);
    EXPECT_EQ(rig.flash->newest_copy(d), d.with_block(1).with_page(2));
    EXPECT_EQ(rig.flash->newest_copy(d.with_page(1)), d.with_block(1).with_page(1));
    EXPECT_EQ(rig.flash->newest_copy(d.with_page(2)), d.with_page(2));
    EXPECT_THROW(rig.flash->newest_copy(d.with_block(16)), SimError);  // beyond the plane's 16 blocks
}

// The eviction that takes a log block's last page requests its merge (paper III-B:
// "when all the flash pages in a physical log block have been used up, the GPU helper
// thread performs garbage collection"), with no later program of the group needed:
// pages bound for a used-up log block are kept in their registers, so a later program
// might never come. Five writes: evictions 1..4 fill log block 1; page 0 (write 5) stays
// dirty in the register. By hand: 4 eviction programs + the merge's 4 reads and 4
// programs (every page of the block holds data) and 2 erases (data block 0, log block 1).
TEST(ZngFlashFtl, AUsedUpLogBlockIsMergedWithoutALaterProgram) {
    FlashFtlRig rig;
    PortRequester req(rig.sim, rig.backend->port(0));
    rig.alternate_writes(req, 5);
    rig.sim.run();
    EXPECT_EQ(req.completed, 5u);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
    EXPECT_EQ(rig.ftl->gc().merges(), 1u);
    EXPECT_EQ(rig.stat("memory.merges_requested"), 1.0);
    EXPECT_EQ(rig.stat("memory.programs"), 8.0);
    EXPECT_EQ(rig.stat("memory.erases"), 2.0);
    EXPECT_EQ(rig.stat("memory.evictions_held_for_merge"), 0.0);
    EXPECT_EQ(rig.ftl->gc().pages_moved(), 4u);
    // The data block moved to fresh block 2 with the newest copies; no log block is open.
    const flash::FlashAddress moved = rig.flash->geometry().decode(rig.paddr(0, 0));
    EXPECT_EQ(moved.block, 2u);
    EXPECT_EQ(rig.flash->newest_copy(moved), moved);
    EXPECT_EQ(rig.flash->newest_copy(moved.with_page(1)), moved.with_page(1));
}

// The same with a fill threshold (translation.log_block_pages: 2): the merge is
// requested by the eviction that takes the plane's second log page. Evictions 1 and 2
// fill log block 1 and request merge 1; eviction 3 (write 4) waits for it and opens a
// fresh log block with eviction 4 (write 5), whose second page requests merge 2 at once.
// By hand: 4 eviction programs, 2 merges x 4 moved pages, 2 x 2 erases.
TEST(ZngFlashFtl, AFillThresholdRequestsTheMergeWhenReached) {
    std::string yaml = kOnePlane;
    const std::string op = "overprovisioning: 0.5";
    yaml.replace(yaml.find(op), op.size(), "overprovisioning: 0.5, log_block_pages: 2");
    FlashFtlRig rig(yaml);
    PortRequester req(rig.sim, rig.backend->port(0));
    rig.alternate_writes(req, 5);
    rig.sim.run();
    EXPECT_EQ(req.completed, 5u);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
    EXPECT_EQ(rig.ftl->gc().merges(), 2u);
    EXPECT_EQ(rig.stat("memory.programs"), 12.0);
    EXPECT_EQ(rig.stat("memory.erases"), 4.0);
    EXPECT_EQ(rig.stat("translation.writebacks_held"), 1.0);  // eviction 3
    EXPECT_EQ(rig.ftl->gc().pages_moved(), 8u);
}

}  // namespace
}  // namespace zng::ftl::test
