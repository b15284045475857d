// The MacSim importer on small hand-made traces: record layouts (nvbit 64 B, ptx 72 B),
// warp ids to blocks, address expansion, and malformed input.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "importer_test_support.hpp"
#include "traces/importers/importers.hpp"
#include "traces/importers/macsim_records.hpp"

namespace zng::importers {
namespace {

using namespace testing;
using trace::MemSpace;
using trace::RecordKind;

void put(std::vector<uint8_t>& b, size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

uint8_t nvbit_op(std::string_view name) {
    for (int i = 0; i < 256; ++i)
        if (nvbit_opcode_name(static_cast<uint8_t>(i)) == name) return static_cast<uint8_t>(i);
    throw std::runtime_error("no nvbit opcode " + std::string(name));
}

uint8_t ptx_op(std::string_view name) {
    for (int i = 0; i < 256; ++i)
        if (ptx_opcode_name(static_cast<uint8_t>(i)) == name) return static_cast<uint8_t>(i);
    throw std::runtime_error("no ptx opcode " + std::string(name));
}

struct Rec {
    uint8_t opcode;
    bool is_load = false;
    uint32_t mask = 0xffffffff;
    uint64_t pc = 0;
    uint64_t mem = 0;
    uint8_t size = 4;
    uint8_t space = 0;
};

// Appends a trace_info_nvbit_small_s (offsets as in macsim_records.hpp).
void nvbit(std::vector<uint8_t>& out, const Rec& r) {
    std::vector<uint8_t> b(kNvbitRecordBytes, 0);
    b[0] = r.opcode;
    b[2] = r.is_load;
    b[22] = 16;
    put(b, 24, r.mask, 4);
    put(b, 32, r.pc, 8);
    put(b, 40, r.pc + 16, 8);
    put(b, 48, r.mem, 8);
    b[56] = r.size;
    b[60] = r.space;
    out.insert(out.end(), b.begin(), b.end());
}

// Appends a trace_info_gpu_small_s; for memory records also the four address records
// holding lanes 1..31 (9 per record).
void ptx(std::vector<uint8_t>& out, const Rec& r, const std::vector<uint64_t>* lanes = nullptr) {
    std::vector<uint8_t> b(kPtxRecordBytes, 0);
    b[0] = r.opcode;
    b[2] = r.is_load;
    put(b, 28, r.mask, 4);
    put(b, 40, r.pc, 8);
    put(b, 56, lanes ? (*lanes)[0] : r.mem, 8);
    b[64] = r.size;
    out.insert(out.end(), b.begin(), b.end());
    if (!lanes) return;
    std::vector<uint8_t> a(kPtxRecordBytes * kPtxAddressRecords, 0);
    for (int lane = 1; lane < 32; ++lane) put(a, size_t(lane - 1) * 8, (*lanes)[lane], 8);
    out.insert(out.end(), a.begin(), a.end());
}

void expect_import_error(const std::string& dir, const std::vector<std::string>& fragments) {
    try {
        auto src = open_foreign_trace(ForeignFormat::MacSim, dir);
        decode_all(*src);
        ADD_FAILURE() << "no error";
    } catch (const trace::TraceError& e) {
        for (const auto& f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
    }
}

// kernel_config.txt listing one nvbit kernel "K0" (under a path from another machine,
// which MacSim rebases onto the config's directory) with warps 0, 1 (block 0) and 65536
// (block 1).
struct NvbitFixture {
    TempDir d;
    std::vector<uint8_t> w0, w1, w65536;
    std::string info = "0 4\n1 2\n65536 1\n";
    void write() {
        write_text(d.file("kernel_config.txt"), "nvbit\n14\n-1\n/old/machine/traces/K0/trace.txt\n");
        write_text(d.file("K0/trace.txt"), "nvbit\n14\n16\n3\n0 0\n1 0\n65536 0\n");
        write_text(d.file("K0/trace_info.txt"), info);
        write_gzip(d.file("K0/trace_0.raw"), w0);
        write_gzip(d.file("K0/trace_1.raw"), w1);
        write_gzip(d.file("K0/trace_65536.raw"), w65536);
    }
    NvbitFixture() {
        nvbit(w0, {nvbit_op("MOV"), false, 0xffffffff, 0x100});
        nvbit(w0, {nvbit_op("LDG"), true, 0x000000f0, 0x110, 0x1000, 4, 3});
        nvbit(w0, {nvbit_op("STG"), false, 0xffffffff, 0x120, 0x2000, 8, 3});
        nvbit(w0, {nvbit_op("EXIT"), false, 0xffffffff, 0x130});
        nvbit(w1, {nvbit_op("BAR"), false, 0xffffffff, 0x200});
        nvbit(w1, {nvbit_op("EXIT"), false, 0xffffffff, 0x210});
        nvbit(w65536, {nvbit_op("IMAD"), false, 0xffffffff, 0x300});
    }
};

TEST(MacSimSource, NvbitWarpsBlocksAndAddresses) {
    NvbitFixture f;
    f.write();
    ImportReport report;
    auto src = open_foreign_trace(ForeignFormat::MacSim, f.d.path().string(), &report);
    EXPECT_EQ(src->header().source, "macsim-import");
    const auto kernels = decode_all(*src);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].info.name, "K0");
    EXPECT_EQ(kernels[0].info.grid.x, 2u);      // blocks 0 and 1
    EXPECT_EQ(kernels[0].info.block.x, 64u);    // warp indices 0 and 1
    ASSERT_EQ(kernels[0].ctas.size(), 2u);
    const auto& w0 = kernels[0].ctas[0].warps.at(0);
    ASSERT_EQ(w0.size(), 3u);
    EXPECT_EQ(w0[0].kind, RecordKind::Load);
    EXPECT_EQ(w0[0].compute, 1u);
    EXPECT_EQ(w0[0].active_mask, 0xf0u);
    EXPECT_EQ(w0[0].lane_addr(4), 0x1000u);     // first active lane at the traced address
    EXPECT_EQ(w0[0].lane_addr(7), 0x1000u + 3 * 4);
    EXPECT_EQ(w0[1].kind, RecordKind::Store);
    EXPECT_EQ(w0[1].access_size, 8);
    EXPECT_EQ(w0[1].lane_addr(31), 0x2000u + 31 * 8);
    EXPECT_EQ(w0[2].kind, RecordKind::Exit);
    const auto& w1 = kernels[0].ctas[0].warps.at(1);
    ASSERT_EQ(w1.size(), 2u);
    EXPECT_EQ(w1[0].kind, RecordKind::Barrier);
    EXPECT_EQ(kernels[0].ctas[1].id, 1u);
    const auto& w2 = kernels[0].ctas[1].warps.at(0);
    ASSERT_EQ(w2.size(), 2u);  // the IMAD, then the appended Exit
    EXPECT_EQ(w2[0].kind, RecordKind::Compute);
    EXPECT_EQ(w2[0].compute, 1u);
    EXPECT_EQ(w2[1].kind, RecordKind::Exit);
    EXPECT_EQ(report.instructions, 7u);
    EXPECT_EQ(report.warps, 3u);
    EXPECT_EQ(report.appended_exits, 2u);  // warp 65536, and warp 1 of block 1 (no stream)
}

// The second kernel's files are read while the first runs; its faults still surface
// when its turn comes, after the first kernel has been read whole.
TEST(MacSimSource, ASecondKernelIsReadAheadAndItsErrorsWaitForItsTurn) {
    NvbitFixture f;
    f.write();
    write_text(f.d.file("kernel_config.txt"),
               "nvbit\n14\n-1\n/old/machine/traces/K0/trace.txt\n/old/machine/traces/K1/trace.txt\n");
    write_text(f.d.file("K1/trace.txt"), "nvbit\n14\n16\n1\n0 0\n");
    std::vector<uint8_t> k1;
    nvbit(k1, {nvbit_op("IMAD"), false, 0xffffffff, 0x400});
    nvbit(k1, {nvbit_op("EXIT"), false, 0xffffffff, 0x410});
    write_gzip(f.d.file("K1/trace_0.raw"), k1);
    {
        ImportReport report;
        auto src = open_foreign_trace(ForeignFormat::MacSim, f.d.path().string(), &report);
        const auto kernels = decode_all(*src);
        ASSERT_EQ(kernels.size(), 2u);
        EXPECT_EQ(kernels[0].info.name, "K0");
        EXPECT_EQ(kernels[0].ctas.size(), 2u);
        EXPECT_EQ(kernels[1].info.name, "K1");
        ASSERT_EQ(kernels[1].ctas.size(), 1u);
        // The IMAD folds into the EXIT that follows it.
        ASSERT_EQ(kernels[1].ctas[0].warps.at(0).size(), 1u);
        EXPECT_EQ(kernels[1].ctas[0].warps.at(0)[0].kind, RecordKind::Exit);
        EXPECT_EQ(kernels[1].ctas[0].warps.at(0)[0].compute, 1u);
        EXPECT_EQ(report.instructions, 9u);  // 7 in K0, 2 in K1
    }
    {
        // Kernel 1's header is bad: kernel 0 comes out whole first, then the error.
        write_text(f.d.file("K1/trace.txt"), "nvbit\n13\n16\n1\n0 0\n");
        ImportReport report;
        auto src = open_foreign_trace(ForeignFormat::MacSim, f.d.path().string(), &report);
        trace::KernelInfo k;
        trace::CtaTrace cta;
        ASSERT_TRUE(src->next_kernel(k));
        int ctas = 0;
        while (src->next_cta(cta)) ++ctas;
        EXPECT_EQ(ctas, 2);
        try {
            src->next_kernel(k);
            ADD_FAILURE() << "no error";
        } catch (const trace::TraceError& e) {
            EXPECT_NE(std::string(e.what()).find("K1/trace.txt:2"), std::string::npos) << e.what();
        }
    }
    {
        // The first kernel left before its last block was read: the second still gets
        // its own warps.
        write_text(f.d.file("K1/trace.txt"), "nvbit\n14\n16\n1\n0 0\n");
        ImportReport report;
        auto src = open_foreign_trace(ForeignFormat::MacSim, f.d.path().string(), &report);
        trace::KernelInfo k;
        trace::CtaTrace cta;
        ASSERT_TRUE(src->next_kernel(k));
        ASSERT_TRUE(src->next_cta(cta));
        ASSERT_TRUE(src->next_kernel(k));
        EXPECT_EQ(k.name, "K1");
        ASSERT_TRUE(src->next_cta(cta));
        ASSERT_EQ(cta.warps.size(), 1u);
        std::vector<trace::WarpRecord> recs;
        trace::WarpCursor c(cta.warps[0]);
        while (!c.done()) {
            trace::WarpRecord r;
            c.next(r);
            recs.push_back(r);
        }
        ASSERT_EQ(recs.size(), 1u);
        EXPECT_EQ(recs[0].kind, RecordKind::Exit);
        EXPECT_EQ(recs[0].compute, 1u);
        EXPECT_FALSE(src->next_cta(cta));
    }
}

TEST(MacSimSource, NvbitLocalAccessesBecomeWarpWindowOffsets) {
    // NVBit's local address is the thread's own, the same in every lane. STL of 8 B at
    // thread offset 8: word 2, lane l at 2 x 128 + 8 l (lane 31 at 504); LDL of 4 B at
    // offset 4: word 1, lane l at 128 + 4 l (lane 3 at 140).
    NvbitFixture f;
    f.w0.clear();
    nvbit(f.w0, {nvbit_op("MOV"), false, 0xffffffff, 0x100});
    nvbit(f.w0, {nvbit_op("STL"), false, 0xffffffff, 0x110, 0x8, 8, 1});
    nvbit(f.w0, {nvbit_op("LDL"), true, 0x0000000f, 0x120, 0x4, 4, 1});
    nvbit(f.w0, {nvbit_op("EXIT"), false, 0xffffffff, 0x130});
    f.write();
    auto src = open_foreign_trace(ForeignFormat::MacSim, f.d.path().string());
    const auto kernels = decode_all(*src);
    const auto& w0 = kernels.at(0).ctas.at(0).warps.at(0);
    ASSERT_EQ(w0.size(), 3u);
    EXPECT_EQ(w0[0].space, trace::MemSpace::Local);
    EXPECT_EQ(w0[0].lane_addr(0), 256u);
    EXPECT_EQ(w0[0].lane_addr(31), 504u);
    EXPECT_EQ(w0[1].space, trace::MemSpace::Local);
    EXPECT_EQ(w0[1].lane_addr(0), 128u);
    EXPECT_EQ(w0[1].lane_addr(3), 140u);
}

TEST(MacSimSource, NvbitChildRecordsShareOutSegments) {
    NvbitFixture f;
    f.w0.clear();
    // A parent at 0x1000 and three children (same PC and opcode) at +128 B steps:
    // 32 active lanes over 4 segments, 8 lanes of 4 B each.
    nvbit(f.w0, {nvbit_op("LDG"), true, 0xffffffff, 0x110, 0x1000, 16, 3});
    for (uint64_t s = 1; s < 4; ++s) nvbit(f.w0, {nvbit_op("LDG"), true, 0xffffffff, 0x110, 0x1000 + 128 * s, 4, 3});
    nvbit(f.w0, {nvbit_op("EXIT"), false, 0xffffffff, 0x130});
    f.info = "0 2\n1 2\n65536 1\n";
    f.write();
    ImportReport report;
    auto src = open_foreign_trace(ForeignFormat::MacSim, f.d.path().string(), &report);
    const auto kernels = decode_all(*src);
    const auto& r = kernels.at(0).ctas.at(0).warps.at(0).at(0);
    EXPECT_EQ(r.access_size, 4);
    EXPECT_EQ(r.lane_addr(0), 0x1000u);
    EXPECT_EQ(r.lane_addr(7), 0x1000u + 7 * 4);
    EXPECT_EQ(r.lane_addr(8), 0x1080u);
    EXPECT_EQ(r.lane_addr(31), 0x1180u + 7 * 4);
    EXPECT_EQ(report.macsim_child_records, 3u);
    EXPECT_EQ(report.instructions, 2u + 2u + 1u);
}

TEST(MacSimSource, PtxRecordsWithAddressRecords) {
    TempDir d;
    write_text(d.file("kernel_config.txt"), "newptx 14 -1 ./K/Trace.txt\n");
    write_text(d.file("K/Trace.txt"), "newptx 14 8 1\n0 0\n");
    std::vector<uint64_t> lanes(32, 0);
    lanes[0] = 0x4000;
    lanes[2] = 0x4010;
    lanes[31] = 0x40f0;
    std::vector<uint8_t> raw;
    ptx(raw, {ptx_op("ADD")});
    ptx(raw, {ptx_op("MEM_LD_SM"), true, 0x80000005u, 0x10, 0, 4}, &lanes);
    std::vector<uint64_t> store_lanes(32, 0);
    store_lanes[0] = 0x5000;  // lane 0 only
    ptx(raw, {ptx_op("MEM_ST_GM"), false, 0x1u, 0x20, 0, 8}, &store_lanes);
    ptx(raw, {ptx_op("BAR_SYNC")});
    ptx(raw, {ptx_op("EXIT")});
    write_gzip(d.file("K/Trace_0.raw"), raw);
    ImportReport report;
    auto src = open_foreign_trace(ForeignFormat::MacSim, d.file("kernel_config.txt"), &report);
    const auto kernels = decode_all(*src);
    const auto& w = kernels.at(0).ctas.at(0).warps.at(0);
    ASSERT_EQ(w.size(), 4u);
    EXPECT_EQ(w[0].kind, RecordKind::Load);
    EXPECT_EQ(w[0].space, MemSpace::Shared);
    EXPECT_EQ(w[0].compute, 1u);
    EXPECT_EQ(w[0].lane_addr(0), 0x4000u);
    EXPECT_EQ(w[0].lane_addr(2), 0x4010u);
    EXPECT_EQ(w[0].lane_addr(31), 0x40f0u);
    EXPECT_EQ(w[1].kind, RecordKind::Store);
    EXPECT_EQ(w[1].space, MemSpace::Global);
    EXPECT_EQ(w[1].access_size, 8);
    EXPECT_EQ(w[1].lane_addr(0), 0x5000u);
    EXPECT_EQ(w[2].kind, RecordKind::Barrier);
    EXPECT_EQ(w[3].kind, RecordKind::Exit);
    EXPECT_EQ(report.instructions, 5u);  // address records are not instructions
    EXPECT_EQ(report.unknown_opcodes, 0u);
}

TEST(MacSimSource, MalformedInputNamesFileAndRecord) {
    {
        NvbitFixture f;
        f.write();
        std::vector<uint8_t> cut(f.w0.begin(), f.w0.begin() + kNvbitRecordBytes + 10);
        write_gzip(f.d.file("K0/trace_0.raw"), cut);
        expect_import_error(f.d.path().string(), {"trace_0.raw", "record 1 is truncated (10 of 64 bytes)"});
    }
    {
        // The gzip stream itself cut short (not just the records inside it).
        NvbitFixture f;
        f.write();
        const std::string raw = f.d.file("K0/trace_0.raw");
        std::string gz;
        {
            std::ifstream in(raw, std::ios::binary);
            gz.assign(std::istreambuf_iterator<char>(in), {});
        }
        write_text(raw, gz.substr(0, gz.size() - 12));
        expect_import_error(f.d.path().string(), {"trace_0.raw", "gzip data ends early"});
    }
    {
        // The records written uncompressed: the stream is refused as what it is, not
        // read as plain bytes until a record comes out short.
        NvbitFixture f;
        f.write();
        write_text(f.d.file("K0/trace_0.raw"), std::string(f.w0.begin(), f.w0.end()));
        expect_import_error(f.d.path().string(), {"trace_0.raw", "not gzip data"});
    }
    {
        NvbitFixture f;
        f.info = "0 5\n1 2\n65536 1\n";
        f.write();
        expect_import_error(f.d.path().string(), {"trace_0.raw", "4 instructions, but trace_info.txt lists 5"});
    }
    {
        NvbitFixture f;
        f.write();
        std::filesystem::remove(f.d.file("K0/trace_1.raw"));
        expect_import_error(f.d.path().string(), {"trace_1.raw", "cannot open"});
    }
    {
        NvbitFixture f;
        f.write();
        write_text(f.d.file("K0/trace.txt"), "nvbit\n13\n16\n3\n0 0\n1 0\n65536 0\n");
        expect_import_error(f.d.path().string(), {"trace.txt:2", "trace version 13"});
        write_text(f.d.file("K0/trace.txt"), "nvbit\n14\n16\n3\n0 0\n1 0\n");
        expect_import_error(f.d.path().string(), {"trace.txt:6", "file ends before the warp id"});
        write_text(f.d.file("K0/trace.txt"), "nvbit\n14\n16\n3\n0 0\n1 0\n1 0\n");
        expect_import_error(f.d.path().string(), {"trace_info.txt:3", "warp 65536 is not listed"});
        write_text(f.d.file("kernel_config.txt"), "cpu\n14\n-1\n./K0/trace.txt\n");
        expect_import_error(f.d.path().string(), {"kernel_config.txt:1", "not a GPU trace type"});
    }
    {
        NvbitFixture f;
        f.w0.clear();
        nvbit(f.w0, {nvbit_op("LDG"), true, 0xffffffff, 0x110, 0x1000, 3, 3});
        f.info = "0 1\n1 2\n65536 1\n";
        f.write();
        expect_import_error(f.d.path().string(), {"trace_0.raw: record 0", "access size 3"});
    }
    {
        TempDir d;
        write_text(d.file("kernel_config.txt"), "ptx 14 -1 ./K/trace.txt\n");
        write_text(d.file("K/trace.txt"), "ptx 14 1\n0 0\n");
        std::vector<uint64_t> lanes(32, 0);
        lanes[3] = 0x10;  // lane 3 is not active
        std::vector<uint8_t> raw;
        ptx(raw, {ptx_op("MEM_LD_GM"), true, 0x1u, 0x10, 0, 4}, &lanes);
        write_gzip(d.file("K/trace_0.raw"), raw);
        expect_import_error(d.path().string(), {"trace_0.raw: record 0", "lane 3", "not in active mask"});
        raw.resize(kPtxRecordBytes * 2);
        write_gzip(d.file("K/trace_0.raw"), raw);
        expect_import_error(d.path().string(), {"trace_0.raw: record 0", "lacks its 4 address records"});
    }
}

TEST(MacSimSource, ConfigThatIsItselfTheKernelHeader) {
    // Third field not -1: kernel_config.txt is the only kernel's trace.txt, and its warp
    // streams are kernel_config_<id>.raw beside it (MacSim's file-name base rule).
    TempDir d;
    write_text(d.file("kernel_config.txt"), "nvbit 14 16 1\n131073 0\n");
    std::vector<uint8_t> raw;
    nvbit(raw, {nvbit_op("EXIT"), false, 0xffffffff, 0x10});
    write_gzip(d.file("kernel_config_131073.raw"), raw);
    auto src = open_foreign_trace(ForeignFormat::MacSim, d.path().string());
    const auto kernels = decode_all(*src);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].info.grid.x, 3u);    // block 2 (131073 >> 16)
    EXPECT_EQ(kernels[0].info.block.x, 64u);  // warp index 1
    ASSERT_EQ(kernels[0].ctas.size(), 1u);
    EXPECT_EQ(kernels[0].ctas[0].id, 2u);
    EXPECT_EQ(kernels[0].ctas[0].warps[1].at(0).kind, RecordKind::Exit);
}

TEST(MacSimSource, UnknownOpcodeNumbersAreCounted) {
    NvbitFixture f;
    f.w1.clear();
    nvbit(f.w1, {255, false, 0xffffffff, 0x200});
    nvbit(f.w1, {nvbit_op("EXIT"), false, 0xffffffff, 0x210});
    f.write();
    ImportReport report;
    auto src = open_foreign_trace(ForeignFormat::MacSim, f.d.path().string(), &report);
    decode_all(*src);
    EXPECT_EQ(report.unknown_opcodes, 1u);
    EXPECT_EQ(report.unknown_by_name.at("nvbit#255"), 1u);
}

}  // namespace
}  // namespace zng::importers
