// Victim choice of the flash register file on its own: an empty register first, then
// a clean one, then a dirty one whose program can start now (not held, its plane free),
// then one not held, then a held one; whether a program is held is asked only when no
// clean register is left, once per register.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "flash_model/array/register_file.hpp"
#include "flash_model/array/register_replacement.hpp"

namespace zng::flash {
namespace {

// Takes the first candidate and remembers what it was offered.
class FirstCandidate final : public RegisterReplacementPolicy {
public:
    explicit FirstCandidate(std::vector<uint32_t>& offered) : offered_(offered) {}
    void resize(size_t) override {}
    void on_fill(uint32_t) override {}
    void on_access(uint32_t) override {}
    size_t choose(const uint32_t* c, size_t n) override {
        offered_.assign(c, c + n);
        return 0;
    }

private:
    std::vector<uint32_t>& offered_;
};

TEST(FlashRegisterFile, VictimTakesCleanThenProgrammableThenHeldRegisters) {
    std::vector<uint32_t> offered;
    // One package of 2 planes x 4 registers, grouped per package: all 8 form one group.
    FlashRegisterFile regs(2, 4, RegisterGrouping::Package, std::make_unique<FirstCandidate>(offered));
    std::set<uint64_t> held;
    int asked = 0;
    regs.set_program_held([&](uint64_t tag) {
        ++asked;
        return held.count(tag) != 0;
    });
    auto tag = [](uint32_t r) { return FlashRegisterFile::make_tag(r / 4, 10, r); };
    // Plane 1's own registers (4..7) are tried first for an empty one: register 4.
    EXPECT_EQ(regs.victim(1), 4);
    for (uint32_t r = 0; r < 8; ++r) regs.fill(r, tag(r));
    for (uint32_t r : {0u, 1u, 2u, 3u, 4u, 5u}) regs.set_dirty(r, true);
    regs.set_busy(6, true);
    // Clean and idle: only register 7 (6 is busy). No program was asked about.
    EXPECT_EQ(regs.victim(0), 7);
    EXPECT_EQ(offered, (std::vector<uint32_t>{7}));
    EXPECT_EQ(asked, 0);
    // No clean idle register: registers 0..5 are dirty, 1 and 4 held by a merge. A
    // search for a clean register only (a read) finds none without asking the FTL.
    regs.set_dirty(7, true);
    held = {tag(1), tag(4), tag(7)};
    EXPECT_EQ(regs.victim(0, true), -1);
    EXPECT_EQ(asked, 0);
    EXPECT_EQ(regs.victim(0), 0);
    EXPECT_EQ(offered, (std::vector<uint32_t>{0, 2, 3, 5}));
    EXPECT_EQ(asked, 7);  // once for each dirty idle register: 0..5 and 7
    // Every dirty register held: the held ones are offered, in register order.
    held = {tag(0), tag(1), tag(2), tag(3), tag(4), tag(5), tag(7)};
    asked = 0;
    EXPECT_EQ(regs.victim(0), 0);
    EXPECT_EQ(offered, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 7}));
    EXPECT_EQ(asked, 7);
    // Unless only registers whose programs can run are wanted (a miss whose victim's
    // program turned held): none.
    offered.clear();
    EXPECT_EQ(regs.victim(0, false, true), -1);
    EXPECT_TRUE(offered.empty());
    // Everything busy: no victim.
    for (uint32_t r = 0; r < 8; ++r) regs.set_busy(r, true);
    EXPECT_EQ(regs.victim(0), -1);
}

TEST(FlashRegisterFile, LruSearchAsksAboutHeldProgramsOldestFirstAndStopsAtTheFirstProgrammable) {
    register_replacement_policies();
    // One plane of 4 registers grouped per package, LRU.
    FlashRegisterFile regs(1, 4, RegisterGrouping::Package, register_replacement_slot().create(nullptr, "r", "lru"));
    std::set<uint64_t> held;
    std::vector<uint64_t> asked;
    regs.set_program_held([&](uint64_t t) {
        asked.push_back(t);
        return held.count(t) != 0;
    });
    auto tag = [](uint32_t r) { return FlashRegisterFile::make_tag(0, 20 + r, r); };
    // Fills stamp registers 0..3 with 1..4; touching register 0 restamps it 5, so the
    // LRU order is 1, 2, 3, 0.
    for (uint32_t r = 0; r < 4; ++r) {
        regs.fill(r, tag(r));
        regs.set_dirty(r, true);
    }
    regs.touch(0);
    // Register 1 held: asked about 1 (held), then 2 (programmable): 2, and 3 and 0 are
    // not asked about.
    held = {tag(1)};
    EXPECT_EQ(regs.victim(0), 2);
    EXPECT_EQ(asked, (std::vector<uint64_t>{tag(1), tag(2)}));
    // All held: each asked once in LRU order, and the oldest (1) is the victim.
    held = {tag(0), tag(1), tag(2), tag(3)};
    asked.clear();
    EXPECT_EQ(regs.victim(0), 1);
    EXPECT_EQ(asked, (std::vector<uint64_t>{tag(1), tag(2), tag(3), tag(0)}));
    EXPECT_EQ(regs.victim(0, false, true), -1);  // none whose program can run
    // A background program leaves out the register last written (2): of 1, 3, 0 in LRU
    // order, 1 is held and 3 is the choice.
    regs.note_written(2);
    held = {tag(1)};
    asked.clear();
    EXPECT_EQ(regs.dirty_victim(0), 3);
    EXPECT_EQ(asked, (std::vector<uint64_t>{tag(1), tag(3)}));
    // Every candidate held: no background program.
    held = {tag(0), tag(1), tag(3)};
    EXPECT_EQ(regs.dirty_victim(0), -1);
}

TEST(FlashRegisterFile, LruSearchTakesARegisterEmptiedByAnEraseBeforeTheOldestClean) {
    register_replacement_policies();
    // Two planes of 2 registers grouped per package, LRU; registers 0..3 hold pages of
    // blocks 5, 5, 6, 6 of plane 0, stamped 1..4, all clean.
    FlashRegisterFile regs(2, 2, RegisterGrouping::Package, register_replacement_slot().create(nullptr, "r", "lru"));
    for (uint32_t r = 0; r < 4; ++r) regs.fill(r, FlashRegisterFile::make_tag(0, 5 + r / 2, r));
    // Full and clean: the oldest, register 0.
    EXPECT_EQ(regs.victim(1), 0);
    // Block 6 erased: registers 2 and 3 empty. Plane 1's own registers (2, 3) come
    // first: register 2; from plane 0 (own registers 0, 1 both full) the first empty
    // register in register order: 2 as well.
    regs.invalidate_block(0, 6);
    EXPECT_EQ(regs.victim(1), 2);
    EXPECT_EQ(regs.victim(0), 2);
    // Register 2 busy (its fill under way): 3 is the only empty idle one.
    regs.set_busy(2, true);
    EXPECT_EQ(regs.victim(0), 3);
    // Both refilled: no empty register, the oldest clean idle one again (0, stamp 1),
    // and with 0 dirty, the next oldest clean (1, stamp 2).
    regs.fill(3, FlashRegisterFile::make_tag(0, 7, 3));
    regs.set_busy(2, false);
    regs.fill(2, FlashRegisterFile::make_tag(0, 7, 2));
    EXPECT_EQ(regs.victim(0), 0);
    regs.set_dirty(0, true);
    EXPECT_EQ(regs.victim(0), 1);
}

TEST(FlashRegisterFile, FifoSearchKeepsFillOrderWhateverTheAccesses) {
    register_replacement_policies();
    // One plane of 3 registers grouped per package; fills in order 0, 1, 2, then
    // accesses to 0 and 1. FIFO stamps only fills: the oldest fill, 0, is the victim
    // (LRU would give 2, the one not accessed since its fill).
    auto make = [](const char* policy) {
        FlashRegisterFile f(1, 3, RegisterGrouping::Package, register_replacement_slot().create(nullptr, "r", policy));
        for (uint32_t r = 0; r < 3; ++r) f.fill(r, FlashRegisterFile::make_tag(0, 9, r));
        f.touch(0);
        f.touch(1);
        return f;
    };
    FlashRegisterFile fifo = make("fifo"), lru = make("lru");
    EXPECT_EQ(fifo.victim(0), 0);
    EXPECT_EQ(lru.victim(0), 2);
    // Register 0 refilled: it is now the newest fill, and 1 the oldest.
    fifo.fill(0, FlashRegisterFile::make_tag(0, 9, 7));
    EXPECT_EQ(fifo.victim(0), 1);
}

// Dirty victims whose page's plane can program now come first (a cache program frees
// the register when it starts; a busy plane would keep the miss waiting up to tPROG),
// then the other programmable ones, then the held ones. 2 planes x 4 registers grouped
// per package; register r holds a page of plane r % 2, so each plane's pages sit in
// registers of both home planes.
TEST(FlashRegisterFile, VictimTakesADirtyRegisterWhosePlaneIsFreeFirst) {
    std::vector<uint32_t> offered;
    FlashRegisterFile regs(2, 4, RegisterGrouping::Package, std::make_unique<FirstCandidate>(offered));
    std::set<uint64_t> held;
    std::set<uint32_t> busy_planes;
    regs.set_program_held([&](uint64_t tag) { return held.count(tag) != 0; });
    regs.set_plane_free([&](uint32_t plane) { return busy_planes.count(plane) == 0; });
    auto tag = [](uint32_t r) { return FlashRegisterFile::make_tag(r % 2, 10, r); };
    for (uint32_t r = 0; r < 8; ++r) {
        regs.fill(r, tag(r));
        regs.set_dirty(r, true);
    }
    busy_planes = {0};
    EXPECT_EQ(regs.victim(0), 1);
    EXPECT_EQ(offered, (std::vector<uint32_t>{1, 3, 5, 7}));
    // Plane 1's pages held (but 7): 7 is the only one whose program starts now.
    held = {tag(1), tag(3), tag(5)};
    EXPECT_EQ(regs.victim(0), 7);
    EXPECT_EQ(offered, (std::vector<uint32_t>{7}));
    // All of plane 1's held: plane 0's, which wait for their plane, before the held ones.
    held = {tag(1), tag(3), tag(5), tag(7)};
    EXPECT_EQ(regs.victim(1), 0);
    EXPECT_EQ(offered, (std::vector<uint32_t>{0, 2, 4, 6}));
    // Both planes busy and nothing held: every dirty register, as without the question.
    busy_planes = {0, 1};
    held.clear();
    EXPECT_EQ(regs.victim(0), 0);
    EXPECT_EQ(offered, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// The same order on the LRU walk. One package of 2 planes x 2 registers, LRU order
// 0, 1, 2, 3 (fill order); register r holds a page of plane r % 2, plane 0 busy.
TEST(FlashRegisterFile, LruSearchTakesTheOldestDirtyRegisterWhosePlaneIsFree) {
    register_replacement_policies();
    FlashRegisterFile regs(2, 2, RegisterGrouping::Package, register_replacement_slot().create(nullptr, "r", "lru"));
    std::set<uint64_t> held;
    regs.set_program_held([&](uint64_t t) { return held.count(t) != 0; });
    regs.set_plane_free([](uint32_t plane) { return plane != 0; });
    auto tag = [](uint32_t r) { return FlashRegisterFile::make_tag(r % 2, 20 + r, r); };
    for (uint32_t r = 0; r < 4; ++r) {
        regs.fill(r, tag(r));
        regs.set_dirty(r, true);
    }
    EXPECT_EQ(regs.victim(0), 1);  // the oldest (0) waits for plane 0
    held = {tag(1)};
    EXPECT_EQ(regs.victim(0), 3);
    held = {tag(1), tag(3)};
    EXPECT_EQ(regs.victim(0), 0);  // none free and programmable: the oldest not held
    held = {tag(0), tag(1), tag(2), tag(3)};
    EXPECT_EQ(regs.victim(0), 0);  // all held: the oldest
    EXPECT_EQ(regs.victim(0, false, true), -1);
}

}  // namespace
}  // namespace zng::flash
