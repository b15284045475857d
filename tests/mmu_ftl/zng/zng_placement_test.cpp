// Application placement of ZnG's FTL (paper IV-C: the SSD controller "redirects the
// requests of different applications to access different flash planes"): with two
// co-running applications the planes of every die are split between them, each still
// spans all channels, and one application keeps the interleaving the FTL always had.
#include <gtest/gtest.h>

#include <set>

#include "mmu_ftl/zng/data_block_layout.hpp"
#include "sim/core/errors.hpp"
#include "tests/mmu_ftl/zng/zng_ftl_fixture.hpp"

namespace zng::ftl::test {
namespace {

// Paper geometry (Table I): 16 channels x 1 package x 8 dies x 8 planes x 1024 x 384.
flash::FlashGeometry paper_geometry() { return flash::FlashGeometry(); }

TEST(ZngPlacement, TwoApplicationsGetDisjointPlanesOfEveryDie) {
    const flash::FlashGeometry g = paper_geometry();
    DataBlockLayout l(g, DataBlockLayout::Span::Package, 2);
    // 8 planes per die / 2 apps = 4 each; a package-wide data block of one application is
    // 8 dies x 4 planes = 32 planes; 16 packages x 1 group = 16 units per application.
    EXPECT_EQ(l.planes_per_die_per_app(), 4u);
    EXPECT_EQ(l.span(), 32u);
    EXPECT_EQ(l.units_per_app(), 16u);
    EXPECT_EQ(l.units(), 32u);
    // Hand-decoded in the sub-geometry (order channel,package,die,plane,page,block, radices
    // 16,1,8,4,384,1024): vpn 0 -> ch 0 die 0 plane' 0; vpn 16 -> die 1; vpn 128 -> plane' 1;
    // vpn 512 -> page 1. App 1's planes are 4..7 of each die, so plane = plane' + 4.
    struct Case { uint64_t vpn; uint32_t ch, die, plane0, page; };
    for (const Case& c : {Case{0, 0, 0, 0, 0}, Case{16, 0, 1, 0, 0}, Case{128, 0, 0, 1, 0}, Case{517, 5, 0, 0, 1}}) {
        for (uint16_t app = 0; app < 2; ++app) {
            const flash::FlashAddress a = l.locate(app, c.vpn).addr;
            EXPECT_EQ(a.channel, c.ch) << c.vpn;
            EXPECT_EQ(a.die, c.die) << c.vpn;
            EXPECT_EQ(a.plane, c.plane0 + 4u * app) << c.vpn;
            EXPECT_EQ(a.page, c.page) << c.vpn;
        }
    }
    // Over the first 2^20 pages of each application (one in 7), no plane holds pages of
    // both applications and each application covers all 16 channels and all 8 dies.
    std::set<uint64_t> planes[2];
    std::set<uint32_t> channels[2], dies[2];
    for (uint16_t app = 0; app < 2; ++app)
        for (uint64_t vpn = 0; vpn < (1u << 20); vpn += 7) {
            const DataBlockLayout::Position p = l.locate(app, vpn);
            planes[app].insert(g.plane_index(p.addr));
            channels[app].insert(p.addr.channel);
            dies[app].insert(p.addr.die);
            EXPECT_EQ(l.unit_of(p.addr), p.unit);
            EXPECT_EQ(p.unit / l.units_per_app(), app);
        }
    for (uint64_t pl : planes[0]) EXPECT_EQ(planes[1].count(pl), 0u) << "plane " << pl << " shared";
    // 16 packages x 8 dies x 4 planes = 512 planes each.
    EXPECT_EQ(planes[0].size(), 512u);
    EXPECT_EQ(planes[1].size(), 512u);
    EXPECT_EQ(channels[0].size(), 16u);
    EXPECT_EQ(channels[1].size(), 16u);
    EXPECT_EQ(dies[0].size(), 8u);
    EXPECT_EQ(dies[1].size(), 8u);
    // vpn_of inverts locate for each application.
    for (uint16_t app = 0; app < 2; ++app)
        for (uint64_t vpn : {0ull, 17ull, 4099ull, 12345677ull}) {
            const DataBlockLayout::Position p = l.locate(app, vpn);
            EXPECT_EQ(l.vpn_of(app, p.vbn, l.plane_in_unit(p.addr), p.addr.page), vpn) << vpn;
        }
}

TEST(ZngPlacement, OneApplicationKeepsTheGeometryInterleaving) {
    // The mapping before placement existed: the flash geometry decodes vpn % pages; unit =
    // package (package-wide blocks, 16 units); vbn = (wrap * 1024 + block) * 16 + unit.
    const flash::FlashGeometry g = paper_geometry();
    DataBlockLayout l(g, DataBlockLayout::Span::Package, 1);
    EXPECT_EQ(l.span(), 64u);
    EXPECT_EQ(l.units(), 16u);
    const uint64_t pages = g.pages();  // 16 x 64 x 1024 x 384 = 402,653,184
    ASSERT_EQ(pages, 402653184ull);
    for (uint16_t app : {uint16_t{0}, uint16_t{3}}) {  // without a split any id uses all planes
        for (uint64_t vpn = 0; vpn < 3 * pages; vpn += pages / 1000 + 13) {
            const flash::FlashAddress old_addr = g.decode((vpn % pages) * g.page_size());
            const uint32_t old_unit = g.package_index(old_addr);
            const uint64_t old_vbn = ((vpn / pages) * 1024 + old_addr.block) * 16 + old_unit;
            const DataBlockLayout::Position p = l.locate(app, vpn);
            ASSERT_EQ(p.addr, old_addr) << vpn;
            ASSERT_EQ(p.unit, old_unit) << vpn;
            ASSERT_EQ(p.vbn, old_vbn) << vpn;
        }
    }
}

// OP 0.5 -> 8 user blocks per unit; group size 2 needs ceil(8/2) + 2 + 1 = 7 <= 8 spares.
std::string small_ftl(const std::string& placement) {
    return std::string(kSmallFlash) +
           "translation: {type: zng_dbmt, log_group_size: 2, overprovisioning: 0.5, placement: " + placement + "}\n";
}

TEST(ZngPlacement, OneApplicationTranslatesToTheSamePagesAsSharedPlacement) {
    // Same translations in the same order: identical physical pages (blocks included).
    ZngFtlRig split(small_ftl("app_planes"), 3 * kMicrosecond, 100 * kMicrosecond, 1 * kMillisecond, 1);
    ZngFtlRig shared(small_ftl("shared"), 3 * kMicrosecond, 100 * kMicrosecond, 1 * kMillisecond, 1);
    for (uint64_t vpn = 0; vpn < 128; vpn += 3) EXPECT_EQ(split.page_of(0, vpn), shared.page_of(0, vpn)) << vpn;
}

TEST(ZngPlacement, TwoApplicationsPagesNeverShareAPlaneInTheFtl) {
    // kSmallFlash: 2 channels x 1 die x 2 planes. Two applications: app 0 owns plane 0 of
    // each die, app 1 plane 1. The sub-geometry has 1 plane per die, so vpn -> channel =
    // vpn % 2, page = (vpn / 2) % 4, virtual block = vpn / 8.
    ZngFtlRig rig(small_ftl("app_planes"), 3 * kMicrosecond, 100 * kMicrosecond, 1 * kMillisecond, 2);
    for (uint16_t app = 0; app < 2; ++app)
        for (uint64_t vpn = 0; vpn < 64; ++vpn) {
            const flash::FlashAddress a = rig.page_of(app, vpn);
            EXPECT_EQ(a.plane, app) << vpn;
            EXPECT_EQ(a.channel, vpn % 2) << vpn;
            EXPECT_EQ(a.page, (vpn / 2) % 4) << vpn;
        }
    // Each application's data blocks come from its own units (one per channel): it touched
    // virtual blocks 0..7 (vpn / 8) in both channels, 16 data blocks, 8 in each of its 2
    // units (all 8 user blocks of a unit); 2 apps x 2 channels = 4 units.
    EXPECT_EQ(rig.ftl->tables().layout.units(), 4u);
    EXPECT_EQ(rig.ftl->first_touches(), 32u);
    for (uint32_t unit = 0; unit < 4; ++unit) EXPECT_EQ(rig.ftl->tables().data_blocks_in_unit[unit], 8u) << unit;
    // A third application has no plane: a clear error, not a silent overlap.
    uint64_t ppn = 0;
    try {
        rig.ftl->translate(2, 0, ppn);
        FAIL() << "application 2 translated";
    } catch (const SimError& e) {
        EXPECT_NE(std::string(e.what()).find("application 2 has no flash plane"), std::string::npos) << e.what();
    }
}

TEST(ZngPlacement, MoreApplicationsThanPlanesOfADieIsAConfigErrorNamingPlacement) {
    try {
        ZngFtlRig rig(small_ftl("app_planes"), 3 * kMicrosecond, 100 * kMicrosecond, 1 * kMillisecond, 3);
        FAIL() << "three applications on two planes per die were accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("translation.placement"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("no plane"), std::string::npos) << e.what();
    }
    // Shared placement ignores the number of applications.
    ZngFtlRig shared(small_ftl("shared"), 3 * kMicrosecond, 100 * kMicrosecond, 1 * kMillisecond, 3);
    EXPECT_EQ(shared.ftl->tables().layout.units(), 2u);
}

// App 0 fills the log block of its group in unit 0 (data blocks of vpn 0 and vpn 16),
// app 1 has touched vpn 0; then app 0's next rewrite starts the merge. Returns the tick
// the merge began (its first operations are under way).
Tick start_merge_of_app0(ZngFtlRig& rig, flash::FlashAddress& b_page) {
    b_page = rig.page_of(1, 0);
    const flash::FlashAddress d0 = rig.page_of(0, 0);
    rig.page_of(0, 16);
    for (uint32_t pg = 0; pg < 4; ++pg) rig.flash->write(d0.with_page(pg), [] {});
    rig.sim.run();
    const Tick start = rig.sim.now();
    rig.flash->write(d0.with_page(0), [] {});  // log block full: merge
    rig.sim.events().run_until(start + 1 * kMicrosecond);
    EXPECT_TRUE(rig.ftl->gc().busy());
    return start;
}

// How long after their issue app 1's read and write of its vpn 0, issued while app 0's
// merge runs, complete.
std::pair<Tick, Tick> app1_requests_during_merge(ZngFtlRig& rig, const flash::FlashAddress& b_page) {
    const Tick issued = rig.sim.now();
    uint64_t ppn = 0;
    EXPECT_TRUE(rig.ftl->translate(1, 0, ppn));  // not held: another application
    const flash::FlashAddress a = rig.spec.geometry.decode(ppn * rig.spec.geometry.page_size());
    EXPECT_EQ(a, b_page);
    Tick read_done = 0, write_done = 0;
    flash::FlashOp op;
    op.kind = flash::FlashOp::Read;
    op.addr = a;
    op.app = 1;
    op.done = [&] { read_done = rig.sim.now(); };
    rig.flash->submit(std::move(op));
    rig.flash->write(a, [&] { write_done = rig.sim.now(); });
    rig.sim.run();
    return {read_done - issued, write_done - issued};
}

TEST(ZngPlacement, AMergeOfOneApplicationDelaysNoneOfAnothersRequests) {
    // Two applications, app_planes: app 0 merges on plane 0 of channel 0, app 1's page is
    // on plane 1. Issued during the merge, app 1's read takes tR = 3 us and its write (to
    // its fresh log block, same plane, after the read) tPROG = 100 us more: done 3 us and
    // 103 us after their issue, as on an idle flash.
    ZngFtlRig split(small_ftl("app_planes"), 3 * kMicrosecond, 100 * kMicrosecond, 1 * kMillisecond, 2);
    flash::FlashAddress b;
    start_merge_of_app0(split, b);
    EXPECT_EQ(b.plane, 1u);
    auto [read_done, write_done] = app1_requests_during_merge(split, b);
    EXPECT_EQ(read_done, 3 * kMicrosecond);
    EXPECT_EQ(write_done, 103 * kMicrosecond);
    EXPECT_EQ(split.ftl->gc().merges(), 1u);
    EXPECT_EQ(split.ftl->gc().blocked_time(1), 0u);
    // Both applications' blocked time is a statistic from the start (stats describe lists
    // it without running); app 1 never waited on a merge: 0.
    const Stat* blocked1 = split.sim.stats().find("translation.gc.app1.blocked_time");
    ASSERT_NE(blocked1, nullptr);
    EXPECT_EQ(blocked1->value(), 0.0);
    EXPECT_EQ(blocked1->unit(), "ps");

    // Shared planes: app 1's page sits on the merging plane 0, behind the merge's first
    // read (tR = 3 us, issued at the same tick), so the read ends 3 + 3 = 6 us after its
    // issue and the write 106 us.
    ZngFtlRig shared(small_ftl("shared"), 3 * kMicrosecond, 100 * kMicrosecond, 1 * kMillisecond, 2);
    start_merge_of_app0(shared, b);
    EXPECT_EQ(b.plane, 0u);
    auto [shared_read, shared_write] = app1_requests_during_merge(shared, b);
    EXPECT_EQ(shared_read, 6 * kMicrosecond);
    EXPECT_EQ(shared_write, 106 * kMicrosecond);
}

TEST(ZngPlacement, UnitAndPlaneInUnitOfAnAddress) {
    const flash::FlashGeometry g;  // 16 channels x 1 package x 8 dies x 8 planes
    flash::FlashAddress a;
    a.channel = 3;
    a.die = 5;
    a.plane = 2;
    a.block = 77;
    a.page = 9;
    // Span die, one application: 64 / 8 = 8 units per package, unit = package x 8 + die
    // = 3 x 8 + 5 = 29; the plane within the unit is the plane of the die, 2.
    const DataBlockLayout die(g, DataBlockLayout::Span::Die);
    EXPECT_EQ(die.unit_of(a), 29u);
    EXPECT_EQ(die.plane_in_unit(a), 2u);
    // Span plane: 64 units per package, unit = 3 x 64 + 5 x 8 + 2 = 234, plane 0 of it.
    const DataBlockLayout plane(g, DataBlockLayout::Span::Plane);
    EXPECT_EQ(plane.unit_of(a), 234u);
    EXPECT_EQ(plane.plane_in_unit(a), 0u);
    // Span package, two applications: 4 planes per die each, 16 units per application.
    // Plane 6 belongs to application 6 / 4 = 1, its plane 2 there: unit 1 x 16 + 3 = 19,
    // plane in unit = die x 4 + 2 = 22.
    a.plane = 6;
    const DataBlockLayout two(g, DataBlockLayout::Span::Package, 2);
    EXPECT_EQ(two.unit_of(a), 19u);
    EXPECT_EQ(two.plane_in_unit(a), 22u);
}

}  // namespace
}  // namespace zng::ftl::test
