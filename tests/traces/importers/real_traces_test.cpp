// Imports the real NVBit-traced workloads in ../shared/testdata and checks them against
// counts made independently from the files by count_foreign_traces.py (same folder).
#include <gtest/gtest.h>

#include <filesystem>

#include "importer_test_support.hpp"
#include "traces/trace_summary.hpp"
#include "traces/importers/importers.hpp"

namespace zng::importers {
namespace {

using namespace testing;
namespace fs = std::filesystem;
using trace::MemSpace;
using trace::RecordKind;

std::string shared_path(const std::string& rel) { return std::string(ZNG_SHARED_DIR) + "/" + rel; }

#define REQUIRE_SHARED(rel)                                                                      \
    if (!fs::exists(shared_path(rel))) GTEST_SKIP() << "needs ../shared/" << rel << " (absent)"

struct Expected {
    const char* dir;
    uint64_t kernels, ctas, warps, instructions, loads, stores, barriers, exits, partial_exits;
};

// From:  python3 tests/traces/importers/count_foreign_traces.py accelsim ../shared/testdata/accelsim/<dir>
// loads = global_loads + shared_loads, stores = global_stores + shared_stores.
const Expected kAccelSim[] = {
    {"testdata/accelsim/vectoradd-100-32", 1, 1, 32, 344, 8, 4, 0, 32, 4},
    {"testdata/accelsim/matrixmul-32-32", 1, 1, 32, 4416, 64 + 1280, 32 + 64, 64, 32, 0},
};

// From:  python3 tests/traces/importers/count_foreign_traces.py macsim ../shared/testdata/macsim-nvbit/vectormultadd/<n>
const Expected kMacSim[] = {
    {"testdata/macsim-nvbit/vectormultadd/4096", 3, 12, 384, 5376, 768, 384, 0, 384, 0},
    {"testdata/macsim-nvbit/vectormultadd/16384", 3, 48, 1536, 21504, 3072, 1536, 0, 1536, 0},
    {"testdata/macsim-nvbit/vectormultadd/65536", 3, 192, 6144, 86016, 12288, 6144, 0, 6144, 0},
};

void check(ForeignFormat f, const Expected& e) {
    SCOPED_TRACE(e.dir);
    ImportReport report;
    auto src = open_foreign_trace(f, shared_path(e.dir), &report);
    const auto kernels = decode_all(*src);
    const Totals t = totals_of(kernels);
    EXPECT_EQ(t.kernels, e.kernels);
    EXPECT_EQ(t.ctas, e.ctas);
    EXPECT_EQ(t.warps, e.warps);
    EXPECT_EQ(t.instructions, e.instructions);
    EXPECT_EQ(t.loads, e.loads);
    EXPECT_EQ(t.stores, e.stores);
    EXPECT_EQ(t.atomics, 0u);
    EXPECT_EQ(t.barriers, e.barriers);
    EXPECT_EQ(t.exits, e.exits);
    EXPECT_EQ(report.kernels, e.kernels);
    EXPECT_EQ(report.warps, e.warps);
    EXPECT_EQ(report.instructions, e.instructions);
    EXPECT_EQ(report.partial_exits, e.partial_exits);
    EXPECT_EQ(report.unknown_opcodes, 0u) << report.warnings();
    EXPECT_EQ(report.appended_exits, 0u);
    EXPECT_EQ(report.records, t.records);
}

TEST(RealTraces, AccelSimCountsMatchTheFiles) {
    for (const auto& e : kAccelSim) {
        REQUIRE_SHARED(e.dir);
        check(ForeignFormat::AccelSim, e);
    }
}

TEST(RealTraces, MacSimCountsMatchTheFiles) {
    for (const auto& e : kMacSim) {
        REQUIRE_SHARED(e.dir);
        check(ForeignFormat::MacSim, e);
    }
}

// `zngsim trace info` on the imported .ztr: the same summary as streaming the foreign
// files directly, and the global traffic count_foreign_traces.py derives by expanding
// the addresses itself (global_loads, global_stores, global_line_requests,
// footprint_lines).
struct Traffic {
    ForeignFormat format;
    const char* dir;
    uint64_t instructions, global_loads, global_stores, line_requests, footprint_lines;
};
const Traffic kTraffic[] = {
    {ForeignFormat::AccelSim, "testdata/accelsim/vectoradd-100-32", 344, 8, 4, 12, 12},
    {ForeignFormat::AccelSim, "testdata/accelsim/matrixmul-32-32", 4416, 64, 32, 96, 96},
    {ForeignFormat::MacSim, "testdata/macsim-nvbit/vectormultadd/4096", 5376, 768, 384, 2304, 1280},
    {ForeignFormat::MacSim, "testdata/macsim-nvbit/vectormultadd/16384", 21504, 3072, 1536, 9216, 5120},
};

TEST(RealTraces, ImportedZtrSummaryMatchesTheForeignTraffic) {
    TempDir tmp;
    for (const auto& e : kTraffic) {
        REQUIRE_SHARED(e.dir);
        SCOPED_TRACE(e.dir);
        auto direct = open_foreign_trace(e.format, shared_path(e.dir));
        const trace::TraceSummary a = trace::summarize(*direct);
        import_trace(e.format, shared_path(e.dir), tmp.file("t.ztr"), nullptr);
        auto file = trace::open_trace(tmp.file("t.ztr"));
        const trace::TraceSummary b = trace::summarize(*file);
        for (const trace::TraceSummary* s : {&a, &b}) {
            EXPECT_EQ(s->instructions, e.instructions);
            EXPECT_EQ(s->global_loads, e.global_loads);
            EXPECT_EQ(s->global_stores, e.global_stores);
            EXPECT_EQ(s->line_requests(), e.line_requests);
            EXPECT_EQ(s->footprint_lines, e.footprint_lines);
        }
        EXPECT_EQ(a.records, b.records);
        EXPECT_EQ(a.records_by_kind, b.records_by_kind);
        EXPECT_EQ(a.workload, b.workload);
        EXPECT_EQ(a.kernels.size(), b.kernels.size());
    }
}

TEST(RealTraces, AccelSimVectorAddWarpZeroRecords) {
    REQUIRE_SHARED("testdata/accelsim/vectoradd-100-32");
    ImportReport report;
    auto src = open_foreign_trace(ForeignFormat::AccelSim, shared_path("testdata/accelsim/vectoradd-100-32"), &report);
    EXPECT_EQ(src->header().workload, "vectoradd-100-32");
    // kernelslist.g: three MemcpyHtoD of 400 bytes at ...500000, ...500200, ...500400.
    ASSERT_EQ(src->header().arrays.size(), 3u);
    EXPECT_EQ(src->header().arrays[1].base, 0x00007f2b2d500200u);
    EXPECT_EQ(src->header().arrays[1].size, 400u);
    const auto kernels = decode_all(*src);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].info.name, "_Z6vecAddIfEvPT_S1_S1_i");
    EXPECT_EQ(kernels[0].info.block.x, 1024u);
    EXPECT_EQ(kernels[0].info.regs_per_thread, 8u);
    const auto& w0 = kernels[0].ctas.at(0).warps.at(0);
    // Warp 0 (23 lines): 8 compute, a lane-less EXIT (compute), 5 compute, then
    // LDG ...500000 (+4 per lane), IADD.X, LDG ...500200, IADD IADD.X FADD,
    // STG ...500400, NOP, EXIT.
    ASSERT_EQ(w0.size(), 4u);
    EXPECT_EQ(w0[0].kind, RecordKind::Load);
    EXPECT_EQ(w0[0].compute, 14u);
    EXPECT_EQ(w0[0].pc, 0x98u);
    EXPECT_EQ(w0[0].space, MemSpace::Global);
    EXPECT_EQ(w0[0].access_size, 4);
    EXPECT_EQ(w0[0].active_mask, 0xffffffffu);
    EXPECT_EQ(w0[0].lane_addr(0), 0x7f2b2d500000u);
    EXPECT_EQ(w0[0].lane_addr(31), 0x7f2b2d500000u + 31 * 4);
    EXPECT_EQ(w0[1].compute, 1u);
    EXPECT_EQ(w0[1].lane_addr(5), 0x7f2b2d500200u + 5 * 4);
    EXPECT_EQ(w0[2].kind, RecordKind::Store);
    EXPECT_EQ(w0[2].compute, 3u);
    EXPECT_EQ(w0[2].lane_addr(0), 0x7f2b2d500400u);
    EXPECT_EQ(w0[3].kind, RecordKind::Exit);
    EXPECT_EQ(w0[3].compute, 1u);
    EXPECT_EQ(report.memcpy_lines, 3u);
}

TEST(RealTraces, MacSimWarpIdsMapToBlocks) {
    REQUIRE_SHARED("testdata/macsim-nvbit/vectormultadd/4096");
    auto src = open_foreign_trace(ForeignFormat::MacSim, shared_path("testdata/macsim-nvbit/vectormultadd/4096"));
    const auto kernels = decode_all(*src);
    ASSERT_EQ(kernels.size(), 3u);
    // trace.txt lists warps 0..31, 65536..65567, 131072..131103, 196608..196639:
    // blocks 0..3 of 32 warps each.
    EXPECT_EQ(kernels[0].info.name, "Kernel0");
    EXPECT_EQ(kernels[0].info.grid.x, 4u);
    EXPECT_EQ(kernels[0].info.block.x, 32u * 32u);
    ASSERT_EQ(kernels[0].ctas.size(), 4u);
    EXPECT_EQ(kernels[0].ctas[3].id, 3u);
    // trace_0.raw of Kernel0 (see README): MOV S2R S2R IMAD ISETP MOV IMAD IMAD, then
    // LDG (8 B at 0x7fafc1d00300), LDG, IMAD DMUL, STG (0x7fafc1d10300), EXIT.
    const auto& w = kernels[0].ctas[0].warps[0];
    ASSERT_EQ(w.size(), 4u);
    EXPECT_EQ(w[0].kind, RecordKind::Load);
    EXPECT_EQ(w[0].compute, 8u);
    EXPECT_EQ(w[0].pc, 0x7fafcf24e290u);
    EXPECT_EQ(w[0].access_size, 8);
    EXPECT_EQ(w[0].lane_addr(0), 0x7fafc1d00300u);
    EXPECT_EQ(w[0].lane_addr(31), 0x7fafc1d00300u + 31 * 8);
    EXPECT_EQ(w[1].kind, RecordKind::Load);
    EXPECT_EQ(w[1].compute, 0u);
    EXPECT_EQ(w[2].kind, RecordKind::Store);
    EXPECT_EQ(w[2].compute, 2u);
    EXPECT_EQ(w[2].lane_addr(0), 0x7fafc1d10300u);
    EXPECT_EQ(w[3].kind, RecordKind::Exit);
    EXPECT_EQ(w[3].compute, 0u);
}

}  // namespace
}  // namespace zng::importers
