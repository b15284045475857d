// The register thrashing checker: first its rule on hand-made eviction / write-miss
// sequences, then inside the flash back end, where a cyclic rewrite of more pages than
// the package has registers (a thrashing pattern) must switch L2 redirection on and a
// stream of fresh pages (a calm pattern) must switch it off.
#include <gtest/gtest.h>

#include "flash_model/array/thrashing_checker.hpp"
#include "tests/flash_model/flash_test_util.hpp"
#include "sim/core/errors.hpp"

namespace zng::flash {
namespace {

using namespace testing;
using Change = ThrashingChecker::Change;

ThrashingCheckerConfig rule(uint32_t history, uint32_t window, double on, double off) {
    ThrashingCheckerConfig c;
    c.enabled = true;
    c.history = history;
    c.window = window;
    c.on_ratio = on;
    c.off_ratio = off;
    return c;
}

TEST(ThrashingChecker, RewritesOfRecentlyEvictedPagesSwitchItOnAndFreshPagesOff) {
    MemoryBudget budget;
    ThrashingChecker t(rule(4, 4, 0.5, 0.0), 99, budget);
    for (uint64_t p : {1, 2, 3, 4}) t.on_evict(p);
    EXPECT_EQ(t.on_write_miss(1), Change::None);
    EXPECT_EQ(t.on_write_miss(2), Change::None);
    EXPECT_EQ(t.on_write_miss(9), Change::None);  // never evicted: not a rewrite
    EXPECT_EQ(t.on_write_miss(3), Change::On);     // 3 rewrites / 4 misses = 0.75 >= 0.5
    EXPECT_TRUE(t.active());
    EXPECT_EQ(t.episodes(), 1u);
    EXPECT_DOUBLE_EQ(t.last_ratio(), 0.75);
    for (uint64_t p : {5, 6, 7, 8}) t.on_evict(p);  // pages 1..4 age out of the 4-page history
    EXPECT_FALSE(t.recently_evicted(1));
    EXPECT_TRUE(t.recently_evicted(5));
    for (uint64_t p : {1, 2, 3}) EXPECT_EQ(t.on_write_miss(p), Change::None);
    EXPECT_EQ(t.on_write_miss(4), Change::Off);  // 0 / 4 <= 0.0
    EXPECT_FALSE(t.active());
    EXPECT_EQ(t.episodes(), 1u);
    EXPECT_EQ(t.rewrites(), 3u);
}

// Between the two ratios the signal holds; 2 of 4 is exactly on_ratio and switches on.
TEST(ThrashingChecker, HoldsBetweenTheRatiosAndSwitchesAtThemExactly) {
    MemoryBudget budget;
    ThrashingChecker t(rule(8, 4, 0.5, 0.25), 99, budget);
    for (uint64_t p : {1, 2, 3, 4}) t.on_evict(p);
    for (uint64_t p : {1, 10, 11}) t.on_write_miss(p);
    EXPECT_EQ(t.on_write_miss(12), Change::None);  // 1/4 = 0.25: off already, stays off
    for (uint64_t p : {2, 3, 13}) t.on_write_miss(p);
    EXPECT_EQ(t.on_write_miss(14), Change::On);  // 2/4 = 0.5
    for (uint64_t p : {4, 1, 15}) t.on_write_miss(p);
    EXPECT_EQ(t.on_write_miss(16), Change::None);  // 2/4: already on
    for (uint64_t p : {2, 17, 18}) t.on_write_miss(p);
    EXPECT_EQ(t.on_write_miss(19), Change::Off);  // 1/4 = 0.25 <= off_ratio
}

// A page evicted twice is remembered from its latest eviction: the older ring slot
// ageing out must not forget it.
TEST(ThrashingChecker, ReEvictedPageIsRememberedFromItsLatestEviction) {
    MemoryBudget budget;
    ThrashingChecker t(rule(3, 1, 1.0, 0.0), 99, budget);
    t.on_evict(7);
    t.on_evict(8);
    t.on_evict(7);
    t.on_evict(9);  // the first eviction of 7 ages out; the second is 2 evictions old
    EXPECT_TRUE(t.recently_evicted(7));
    EXPECT_FALSE(t.recently_evicted(1));
    t.on_evict(10);
    t.on_evict(11);  // now the second eviction of 7 ages out too
    EXPECT_FALSE(t.recently_evicted(7));
    EXPECT_TRUE(t.recently_evicted(9));
}

TEST(ThrashingChecker, HistoryDefaultsToTheRegisterCount) {
    MemoryBudget budget;
    ThrashingChecker t(rule(0, 1, 1.0, 0.0), 2, budget);
    t.on_evict(1);
    t.on_evict(2);
    t.on_evict(3);
    EXPECT_FALSE(t.recently_evicted(1));
    EXPECT_TRUE(t.recently_evicted(2));
}

// The ring and its index are charged against run.memory_limit before they exist; a
// disabled checker, which is never told of an eviction, keeps and charges nothing.
TEST(ThrashingChecker, HistoryIsChargedToTheMemoryBudgetOnlyWhenEnabled) {
    MemoryBudget budget;
    ThrashingChecker on(rule(1000, 1, 1.0, 0.0), 2, budget);
    // 1,000 ring slots of 8 B, and an index of 1,000 keys: 2,048 slots (at most half
    // used, a power of two) of key, value and flag, 24 B each.
    EXPECT_EQ(budget.charged(), 1000u * 8 + 2048u * 24);
    ThrashingCheckerConfig off = rule(1000, 1, 1.0, 0.0);
    off.enabled = false;
    ThrashingChecker idle(off, 2, budget);
    EXPECT_EQ(budget.charged(), 1000u * 8 + 2048u * 24);
    budget.set_limit(budget.charged() + 1000, "limit");
    EXPECT_THROW(ThrashingChecker(rule(1000, 1, 1.0, 0.0), 2, budget), SimError);
}

TEST(ThrashingChecker, OffRatioMustBeBelowOnRatio) {
    ConfigNode root = parse_config_text("flash:\n  thrashing_checker: {enabled: true, on_ratio: 0.2, off_ratio: 0.3}\n",
                                        "t.yaml");
    try {
        load_flash_spec(&root);
        FAIL() << "accepted off_ratio above on_ratio";
    } catch (const ConfigError& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("t.yaml:2"), std::string::npos) << m;
        EXPECT_NE(m.find("flash.thrashing_checker.off_ratio"), std::string::npos) << m;
    }
}

// In the back end: channel 1's package has 16 registers (8 planes x 2, grouped). The
// checker remembers the last 16 evictions and decides every 8 write misses.
//  - Thrashing: pages 0..19 written round and round. Once the registers are full every
//    write misses and evicts; from the second round each written page is one evicted
//    4 pages earlier (20 pages cycle through 16 registers), so the ratio of every
//    window in round 2 is 8/8 and redirection switches on.
//  - Calm: pages never written before (block 5 onwards): 0/8 rewrites switches it off.
TEST(ThrashingChecker, BackEndRaisesRedirectionForAThrashingPackageOnly) {
    Rig rig(small_platform(
        "  register_grouping: package\n  write_miss_sense: false\n  dirty_watermark: 1\n"
        "  thrashing_checker: {enabled: true, window: 8, on_ratio: 0.5, off_ratio: 0.1}\n",
        kMesh1x2));
    Requester req(rig);
    ZngFlashBackend& be = rig.zng();
    const FlashGeometry& g = be.geometry();
    auto page = [&](uint32_t i) { return g.encode(FlashAddress{1, 0, 0, i % 8, 1 + i / 64, (i / 8) % 8}); };
    auto write = [&](uint64_t addr) {
        req.issue(addr, 128, MemOp::Write);
        rig.sim.run();
    };
    const uint64_t other_package = g.encode(FlashAddress{0, 0, 0, 0, 1, 0});
    for (uint32_t i = 0; i < 20; ++i) write(page(i));  // round 1: 16 fills, 4 misses evicting
    EXPECT_FALSE(be.redirect_active());
    for (uint32_t i = 0; i < 20; ++i) write(page(i));  // round 2: every write a rewrite
    EXPECT_TRUE(be.redirect_active());
    EXPECT_TRUE(be.redirect_write(page(3)));
    EXPECT_FALSE(be.redirect_write(other_package));  // channel 0's package is calm
    EXPECT_EQ(rig.sim.stats().value("memory.thrashing_episodes"), 1.0);
    EXPECT_EQ(rig.sim.stats().value("memory.thrashing_packages"), 1.0);
    for (uint32_t i = 0; i < 16; ++i) write(page(64 + i));  // fresh pages: two calm windows
    EXPECT_FALSE(be.redirect_active());
    EXPECT_FALSE(be.redirect_write(page(3)));
    EXPECT_EQ(rig.sim.stats().value("memory.thrashing_episodes"), 1.0);
    EXPECT_EQ(rig.backend->in_flight(), 0u);
}

}  // namespace
}  // namespace zng::flash
