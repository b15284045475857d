// Victim choice of the flash register file on its own: an empty register first, then
// a clean one, then a dirty one whose program can start, then a held one; whether a
// program is held is asked only when no clean register is left, once per register.
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
    // No clean idle register: registers 0..5 are dirty, 1 and 4 held by a merge.
    regs.set_dirty(7, true);
    held = {tag(1), tag(4), tag(7)};
    EXPECT_EQ(regs.victim(0), 0);
    EXPECT_EQ(offered, (std::vector<uint32_t>{0, 2, 3, 5}));
    EXPECT_EQ(asked, 7);  // once for each dirty idle register: 0..5 and 7
    // Every dirty register held: the held ones are offered, in register order.
    held = {tag(0), tag(1), tag(2), tag(3), tag(4), tag(5), tag(7)};
    asked = 0;
    EXPECT_EQ(regs.victim(0), 0);
    EXPECT_EQ(offered, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 7}));
    EXPECT_EQ(asked, 7);
    // Everything busy: no victim.
    for (uint32_t r = 0; r < 8; ++r) regs.set_busy(r, true);
    EXPECT_EQ(regs.victim(0), -1);
}

}  // namespace
}  // namespace zng::flash
