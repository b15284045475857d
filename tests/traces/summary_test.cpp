// Trace statistics against values worked out by hand, the line set against std::set,
// and the exact text of a small dump.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <set>
#include <sstream>

#include "support/trace_helpers.hpp"
#include "traces/cta_builder.hpp"
#include "traces/line_set.hpp"
#include "traces/trace_summary.hpp"
#include "traces/vector_trace_source.hpp"

namespace zng::trace {
namespace {

WarpRecord strided(RecordKind kind, MemSpace space, uint64_t base, int64_t stride, uint8_t size,
                   uint32_t mask = kFullWarpMask, uint32_t compute = 0) {
    WarpRecord r = gpu::testing::mem(kind, 0, base, stride, size, mask, space);
    r.compute = compute;
    return r;
}

WarpRecord scattered(RecordKind kind, uint8_t size, std::initializer_list<std::pair<int, uint64_t>> lanes) {
    WarpRecord r;
    r.kind = kind;
    r.access_size = size;
    r.active_mask = 0;
    for (auto [lane, addr] : lanes) {
        r.active_mask |= 1u << lane;
        r.addr[lane] = addr;
    }
    return r;
}

// The trace whose statistics are worked out in the comments of HandComputedSummary.
VectorTraceSource hand_made_trace() {
    TraceHeader h;
    h.workload = "hand";
    h.source = "summary_test";
    h.arrays = {{"A", 0x10000, 4096}, {"B", 0x20000, 256}};
    VectorTraceSource t(h, {}, "hand-made");
    CtaBuilder b;

    KernelInfo k0;
    k0.name = "k0";
    k0.grid = {2, 1, 1};
    k0.block = {64, 1, 1};
    auto& kt0 = t.add_kernel(k0);
    b.begin(0, k0);
    b.add(0, strided(RecordKind::Load, MemSpace::Global, 0x10000, 4, 4, kFullWarpMask, 3));
    b.add(0, strided(RecordKind::Load, MemSpace::Global, 0x10000, 128, 4));
    b.add(0, scattered(RecordKind::Store, 16, {{0, 0x20000 + 120}, {1, 0x20000 + 8}}));
    WarpRecord compute;
    compute.kind = RecordKind::Compute;
    compute.compute = 10;
    b.add(0, compute);
    b.add(1, scattered(RecordKind::Atomic, 4, {{3, 0x90000}}));
    b.add(1, strided(RecordKind::Load, MemSpace::Shared, 0, 4, 4));
    WarpRecord barrier;
    barrier.kind = RecordKind::Barrier;
    b.add(1, barrier);
    kt0.ctas.push_back(b.finish());
    b.begin(1, k0);
    b.add(0, strided(RecordKind::Load, MemSpace::Global, 0x10000, -4, 8, 0xf));
    kt0.ctas.push_back(b.finish());

    KernelInfo k1;
    k1.name = "k1";
    k1.block = {32, 1, 1};
    auto& kt1 = t.add_kernel(k1);
    b.begin(0, k1);
    b.add(0, strided(RecordKind::Store, MemSpace::Global, 0x20000, 0, 4));
    kt1.ctas.push_back(b.finish());
    return t;
}

TEST(TraceSummary, HandComputedSummary) {
    VectorTraceSource t = hand_made_trace();
    const TraceSummary s = summarize(t);
    ASSERT_EQ(s.kernels.size(), 2u);
    EXPECT_EQ(s.ctas, 3u);
    EXPECT_EQ(s.warps, 5u);   // 2 + 2 + 1
    // Records: CTA0 warp0 4 + exit, warp1 3 + exit; CTA1 warp0 1 + exit, warp1 exit;
    // k1 1 + exit = 5 + 4 + 2 + 1 + 2.
    EXPECT_EQ(s.records, 14u);
    // Instructions: CTA0 warp0 (3+1) + 1 + 1 + 10 + 1 = 17, warp1 4, CTA1 2 + 1, k1 2.
    EXPECT_EQ(s.instructions, 26u);
    EXPECT_EQ(s.kernels[0].instructions, 24u);
    EXPECT_EQ(s.kernels[1].instructions, 2u);
    EXPECT_EQ(s.kernels[0].ctas, 2u);
    EXPECT_EQ(s.kernels[0].warps, 4u);
    EXPECT_EQ(s.kernels[0].warps_per_cta, 2u);
    EXPECT_EQ(s.kernels[1].records, 2u);
    EXPECT_EQ(s.records_by_kind, (std::array<uint64_t, kRecordKinds>{1, 4, 2, 1, 1, 5, 0, 0, 0}));
    EXPECT_EQ(s.io_read_requests + s.io_write_requests + s.phase_ps, 0u);
    EXPECT_EQ(s.memory_by_space, (std::array<uint64_t, 4>{6, 1, 0, 0}));
    EXPECT_EQ(s.global_loads, 3u);
    EXPECT_EQ(s.global_stores, 2u);
    EXPECT_EQ(s.global_atomics, 1u);
    // Loads: stride 4 x 32 lanes x 4 B = one line; stride 128 = 32 lines; CTA1's
    // 8 B stride -4 over lanes 0-3: 0x10000, 0xfffc (straddles 0xff80|0x10000),
    // 0xfff8, 0xfff4 = lines 0x1ff and 0x200 -> 1 + 32 + 2 = 35.
    EXPECT_EQ(s.load_line_requests, 35u);
    // Stores: 16 B at offset 120 straddles 2 lines, the other lane reuses the first
    // (2); k1's stride-0 store is 1 line -> 3.
    EXPECT_EQ(s.store_line_requests, 3u);
    EXPECT_EQ(s.atomic_line_requests, 1u);
    EXPECT_EQ(s.line_requests(), 39u);
    EXPECT_DOUBLE_EQ(s.read_ratio(), 36.0 / 39.0);
    // Distinct lines: 0x200..0x21f (32), 0x1ff, 0x400, 0x401, 0x1200 (atomic) = 36.
    EXPECT_EQ(s.footprint_lines, 36u);
    EXPECT_EQ(s.footprint_bytes(), 36u * 128);
    ASSERT_EQ(s.arrays.size(), 2u);
    EXPECT_EQ(s.arrays[0].name, "A");
    EXPECT_EQ(s.arrays[0].lines, 32u);   // all of A
    EXPECT_EQ(s.arrays[1].lines, 2u);    // both lines of B
    EXPECT_EQ(s.lines_outside_arrays, 2u);   // 0x1ff (just below A) and 0x1200
}

TEST(TraceSummary, RecordLinesEdgeCases) {
    std::array<uint64_t, 2 * kWarpSize> lines;
    // 16 B at offset 120 of a line straddles two lines.
    WarpRecord r = scattered(RecordKind::Load, 16, {{5, 0x1000 + 120}});
    ASSERT_EQ(record_lines(r, lines), 2);
    EXPECT_EQ(lines[0], 0x20u);
    EXPECT_EQ(lines[1], 0x21u);
    // 8 B at offset 120 ends exactly at the line's last byte: one line.
    r = scattered(RecordKind::Load, 8, {{5, 0x1000 + 120}});
    EXPECT_EQ(record_lines(r, lines), 1);
    // Decreasing addresses are sorted: stride -128 over 32 lanes.
    r = strided(RecordKind::Load, MemSpace::Global, 0x100000, -128, 4);
    ASSERT_EQ(record_lines(r, lines), 32);
    EXPECT_EQ(lines[0], 0x100000u / 128 - 31);
    EXPECT_EQ(lines[31], 0x100000u / 128);
    // An access at the top of the address space does not wrap to line 0.
    r = scattered(RecordKind::Load, 16, {{0, ~uint64_t(0) - 7}});
    ASSERT_EQ(record_lines(r, lines), 1);
    EXPECT_EQ(lines[0], ~uint64_t(0) / 128);
    // No active lane, no line.
    r = strided(RecordKind::Load, MemSpace::Global, 0, 4, 4, 0);
    EXPECT_EQ(record_lines(r, lines), 0);
}

TEST(TraceSummary, EmptyTraceHasZeroRatio) {
    VectorTraceSource t;
    const TraceSummary s = summarize(t);
    EXPECT_EQ(s.records, 0u);
    EXPECT_EQ(s.read_ratio(), 0.0);
    EXPECT_EQ(s.footprint_lines, 0u);
}

TEST(TraceSummary, LineSetAgreesWithStdSet) {
    std::mt19937_64 rng(17);
    LineSet mine;
    std::set<uint64_t> reference;
    for (int i = 0; i < 200000; ++i) {
        const uint64_t line = rng() % 50000 + (i % 7 == 0 ? (uint64_t(1) << 56) : 0);
        EXPECT_EQ(mine.insert(line), reference.insert(line).second);
    }
    EXPECT_EQ(mine.size(), reference.size());
    uint64_t visited = 0;
    mine.for_each([&](uint64_t l) {
        ++visited;
        EXPECT_TRUE(reference.count(l));
    });
    EXPECT_EQ(visited, reference.size());
    EXPECT_FALSE(mine.contains(50001));
}

TEST(TraceSummary, TextAndJsonCarryTheNumbers) {
    VectorTraceSource t = hand_made_trace();
    const TraceSummary s = summarize(t);
    std::ostringstream text;
    print_summary(s, text);
    const std::string out = text.str();
    EXPECT_NE(out.find("read ratio             0.9231\n"), std::string::npos) << out;
    EXPECT_NE(out.find("footprint              36 lines, 4608 B (0.00 MiB)\n"), std::string::npos) << out;
    EXPECT_NE(out.find("records by kind        compute 1, load 4, store 2, atomic 1, barrier 1, exit 5\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("128 B line requests    loads 35, stores 3, atomics 1, total 39\n"), std::string::npos) << out;

    const nlohmann::json j = summary_to_json(s);
    EXPECT_EQ(j["instructions"], 26);
    EXPECT_EQ(j["line_requests"]["loads"], 35);
    EXPECT_EQ(j["footprint"]["bytes"], 4608);
    EXPECT_EQ(j["arrays"][1]["footprint_lines"], 2);
    EXPECT_EQ(j["kernels"][0]["block"], nlohmann::json::array({64, 1, 1}));
    EXPECT_EQ(j["records_by_kind"]["exit"], 5);
    EXPECT_DOUBLE_EQ(j["read_ratio"].get<double>(), 36.0 / 39.0);
}

TEST(TraceSummary, MalformedRecordsAreReportedWithTheirPlace) {
    KernelInfo k;
    k.name = "k";
    CtaTrace cta;
    cta.cta_id = 0;
    cta.records = 2;
    cta.warps = {{0x04, 0x00, 0x07, 0x00}};   // a barrier, then an io_wait without its tag
    VectorTraceSource t({}, {KernelTrace{k, {cta}}}, "bad-source");
    try {
        summarize(t);
        FAIL() << "expected TraceError";
    } catch (const TraceError& e) {
        EXPECT_NE(std::string(e.what()).find("bad-source: kernel 0, CTA id 0, warp 0, record 1: malformed record"),
                  std::string::npos)
            << e.what();
    }
    t.rewind();
    std::ostringstream out;
    EXPECT_THROW(dump_trace(t, out), TraceError);
    EXPECT_NE(out.str().find("barrier"), std::string::npos) << "records before the bad one are printed";
}

TEST(TraceSummary, CountsStorageIoAndPhases) {
    KernelInfo k;
    k.name = "io";
    k.block = {32, 1, 1};
    CtaBuilder b;
    b.begin(0, k);
    WarpRecord rd;   // 3 lanes read 4 KiB each
    rd.kind = RecordKind::IoSubmit;
    rd.active_mask = 0b1011;
    rd.io_bytes = 4096;
    rd.io_tag = 1;
    rd.io_dest = 0x10000;
    rd.io_dest_stride = 4096;
    rd.strided = true;
    rd.stride = 4096;
    b.add(0, rd);
    WarpRecord wr = rd;   // 32 lanes write 512 B each
    wr.io_write = true;
    wr.active_mask = kFullWarpMask;
    wr.io_bytes = 512;
    b.add(0, wr);
    WarpRecord wait;
    wait.kind = RecordKind::IoWait;
    wait.active_mask = kFullWarpMask;
    wait.io_tag = 1;
    b.add(0, wait);
    WarpRecord phase;
    phase.kind = RecordKind::Phase;
    phase.active_mask = kFullWarpMask;
    phase.duration_ps = 2'500'000;
    b.add(0, phase);
    b.add(0, phase);
    VectorTraceSource t({}, {}, "io-trace");
    t.add_kernel(k).ctas.push_back(b.finish());
    const TraceSummary s = summarize(t);
    // 3 x 4096 = 12288 B read, 32 x 512 = 16384 B written, 2 x 2.5 us of phases.
    EXPECT_EQ(s.io_read_requests, 3u);
    EXPECT_EQ(s.io_read_bytes, 12288u);
    EXPECT_EQ(s.io_write_requests, 32u);
    EXPECT_EQ(s.io_write_bytes, 16384u);
    EXPECT_EQ(s.phase_ps, 5'000'000u);
    EXPECT_EQ(s.records_by_kind, (std::array<uint64_t, kRecordKinds>{0, 0, 0, 0, 0, 1, 2, 1, 2}));
    EXPECT_EQ(s.instructions, 6u);   // every record but Compute is one instruction
    EXPECT_EQ(s.line_requests(), 0u) << "I/O is not memory traffic of the SM";
    std::ostringstream text;
    print_summary(s, text);
    EXPECT_NE(text.str().find("records by kind        compute 0, load 0, store 0, atomic 0, barrier 0, exit 1, "
                              "io_submit 2, io_wait 1, phase 2\n"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("storage I/O            read requests 3, 12288 B (0.01 MiB); write requests 32, "
                              "16384 B (0.02 MiB)\n"),
              std::string::npos)
        << text.str();
    EXPECT_EQ(summary_to_json(s)["storage_io"]["write_bytes"], 16384);

    t.rewind();
    std::ostringstream dump;
    dump_trace(t, dump);
    EXPECT_NE(dump.str().find("io_submit mask 0000000b read bytes 4096 tag 1 dest 0x10000 dest_stride 4096 "
                              "strided base 0x0 stride 4096\n"),
              std::string::npos)
        << dump.str();
    EXPECT_NE(dump.str().find("io_wait mask ffffffff tag 1\n"), std::string::npos) << dump.str();
    EXPECT_NE(dump.str().find("phase mask ffffffff duration 2500000 ps\n"), std::string::npos) << dump.str();
}

TEST(TraceDump, ListsEveryRecord) {
    TraceHeader h;
    h.workload = "w";
    h.source = "s";
    h.arrays = {{"A", 0x1000, 64}};
    VectorTraceSource t(h, {}, "mem");
    KernelInfo k;
    k.name = "k";
    k.block = {40, 1, 1};
    CtaBuilder b;
    b.begin(0, k);
    b.add(0, strided(RecordKind::Load, MemSpace::Global, 0x1000, 4, 4, kFullWarpMask, 2));
    WarpRecord st = scattered(RecordKind::Store, 8, {{0, 0x2000}, {2, 0x1f00}});
    st.pc = 0x18;
    b.add(0, st);
    t.add_kernel(k).ctas.push_back(b.finish());
    const std::string expected =
        "trace mem workload \"w\" source \"s\"\n"
        "array \"A\" base 0x1000 size 64\n"
        "kernel 0 \"k\" grid (1,1,1) block (40,1,1) shared 0 regs 0\n"
        "  cta 0 warps 2 records 4\n"
        "    warp 0\n"
        "           0 pc 0x0 load global size 4 mask ffffffff compute 2 strided base 0x1000 stride 4\n"
        "           1 pc 0x18 store global size 8 mask 00000005 addrs 0:0x2000 2:0x1f00\n"
        "           2 pc 0x18 exit mask ffffffff\n"
        "    warp 1\n"
        "           0 pc 0x0 exit mask 000000ff\n";
    std::ostringstream all;
    dump_trace(t, all);
    EXPECT_EQ(all.str(), expected);

    t.rewind();
    std::ostringstream limited;
    dump_trace(t, limited, 2);
    const std::string head = expected.substr(0, expected.find("           2 pc"));
    EXPECT_EQ(limited.str(), head + "... stopped after 2 records\n");
}

}  // namespace
}  // namespace zng::trace
