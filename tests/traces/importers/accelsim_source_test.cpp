// The Accel-Sim importer on small hand-written traces: structure, folding, address
// spaces, the report, and malformed input.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "importer_test_support.hpp"
#include "traces/importers/importers.hpp"

namespace zng::importers {
namespace {

using namespace testing;
using trace::MemSpace;
using trace::RecordKind;

// Header lines 1-13, a blank line, the format comment, a blank line: bodies start at line 17.
std::string kernel_header(const std::string& grid, const std::string& block, int version = 4, int lineinfo = 0) {
    return "-kernel name = k\n-kernel id = 1\n-grid dim = " + grid + "\n-block dim = " + block +
           "\n-shmem = 0\n-nregs = 16\n-binary version = 61\n-cuda stream id = 0\n"
           "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
           "-nvbit version = 1.5.5\n-accelsim tracer version = " +
           std::to_string(version) + "\n-enable lineinfo = " + std::to_string(lineinfo) +
           "\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
           "[adrrescompress?] [mem_addresses]\n\n";
}

// A one-kernel trace in `d` (kernelslist.g naming kernel-1.traceg: `header`, then warp 0
// of block 0 running the `count` instruction lines `insts`), imported; warp 0's records.
std::vector<trace::WarpRecord> import_one_warp(const TempDir& d, const std::string& header, int count,
                                               const std::string& insts, ImportReport* report = nullptr) {
    write_text(d.file("kernelslist.g"), "kernel-1.traceg\n");
    write_text(d.file("kernel-1.traceg"), header + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " +
                                              std::to_string(count) + "\n" + insts + "#END_TB\n");
    auto src = open_foreign_trace(ForeignFormat::AccelSim, d.file("kernelslist.g"), report);
    return decode_all(*src).at(0).ctas.at(0).warps.at(0);
}

void expect_import_error(const std::string& dir, const std::vector<std::string>& fragments) {
    try {
        ImportReport r;
        auto src = open_foreign_trace(ForeignFormat::AccelSim, dir, &r);
        decode_all(*src);
        ADD_FAILURE() << "no error";
    } catch (const trace::TraceError& e) {
        for (const auto& f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
    }
}

// Two kernels; the second has a 2x2 grid of 64-thread blocks and is xz-compressed.
TEST(AccelSimSource, KernelsBlocksWarpsAndFolding) {
    TempDir d;
    write_text(d.file("kernelslist.g"),
               "MemcpyHtoD,0x0000000000010000,4096\nkernel-1.traceg\nMemcpyDtoH,0x10000,4096\nkernel-2.traceg.xz\n");
    write_text(d.file("kernel-1.traceg"), kernel_header("(1,1,1)", "(40,1,1)") +
                                              "#BEGIN_TB\n\nthread block = 0,0,0\n\n"
                                              "warp = 0\ninsts = 5\n"
                                              "0008 ffffffff 1 R1 MOV 0 0\n"
                                              "0010 ffffffff 1 R0 S2R 0 0\n"
                                              "0018 ffffffff 1 R4 LDG.E.64 1 R2 8 1 0x10000 8\n"
                                              "0020 ffffffff 0 BAR.SYNC 0 0\n"
                                              "0028 ffffffff 0 EXIT 0 0\n"
                                              "\nwarp = 1\ninsts = 3\n"
                                              "0008 000000ff 1 R1 MOV 0 0\n"
                                              "0010 000000ff 0 STS 2 R1 R2 4 1 0x7f0000000100 4\n"
                                              "0028 000000ff 0 EXIT 0 0\n"
                                              "#END_TB\n");
    std::string k2 = kernel_header("(2,2,1)", "(64,1,1)");
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x)
            k2 += "#BEGIN_TB\nthread block = " + std::to_string(x) + "," + std::to_string(y) +
                  ",0\nwarp = 1\ninsts = 2\n0008 ffffffff 1 R1 FFMA 0 0\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n";
    write_xz(d.file("kernel-2.traceg.xz"), k2);

    ImportReport report;
    auto src = open_foreign_trace(ForeignFormat::AccelSim, d.path().string(), &report);
    ASSERT_EQ(src->header().arrays.size(), 1u);
    EXPECT_EQ(src->header().arrays[0].base, 0x10000u);
    EXPECT_EQ(src->header().arrays[0].size, 4096u);
    EXPECT_EQ(src->header().source, "accelsim-import");
    const auto kernels = decode_all(*src);
    ASSERT_EQ(kernels.size(), 2u);

    // Kernel 1: 40 threads = 2 warps; warp 1 has 8 lanes.
    const auto& c = kernels[0].ctas.at(0);
    ASSERT_EQ(c.warps.size(), 2u);
    const auto& w0 = c.warps[0];
    ASSERT_EQ(w0.size(), 3u);  // LDG (2 compute folded), BAR, EXIT
    EXPECT_EQ(w0[0].kind, RecordKind::Load);
    EXPECT_EQ(w0[0].compute, 2u);
    EXPECT_EQ(w0[0].access_size, 8);  // from the .64 suffix
    EXPECT_EQ(w0[0].lane_addr(3), 0x10000u + 3 * 8);
    EXPECT_EQ(w0[1].kind, RecordKind::Barrier);
    EXPECT_EQ(w0[2].kind, RecordKind::Exit);
    const auto& w1 = c.warps[1];
    ASSERT_EQ(w1.size(), 2u);
    EXPECT_EQ(w1[0].kind, RecordKind::Store);
    EXPECT_EQ(w1[0].space, MemSpace::Shared);
    EXPECT_EQ(w1[0].active_mask, 0xffu);
    EXPECT_EQ(w1[0].compute, 1u);

    // Kernel 2: CTA ids are x + 2*y; warp 0 of each block was never listed.
    ASSERT_EQ(kernels[1].ctas.size(), 4u);
    EXPECT_EQ(kernels[1].info.grid.x, 2u);
    EXPECT_EQ(kernels[1].ctas[2].id, 2u);
    const auto& b = kernels[1].ctas[3];
    ASSERT_EQ(b.warps.size(), 2u);
    ASSERT_EQ(b.warps[1].size(), 1u);
    EXPECT_EQ(b.warps[1][0].kind, RecordKind::Exit);
    EXPECT_EQ(b.warps[1][0].compute, 1u);
    ASSERT_EQ(b.warps[0].size(), 1u);  // appended Exit
    EXPECT_EQ(b.warps[0][0].kind, RecordKind::Exit);

    EXPECT_EQ(report.kernels, 2u);
    EXPECT_EQ(report.ctas, 5u);
    EXPECT_EQ(report.warps, 2u + 4u);
    EXPECT_EQ(report.instructions, 5u + 3u + 4u * 2u);
    EXPECT_EQ(report.memory_instructions, 2u);
    EXPECT_EQ(report.memcpy_lines, 2u);
    EXPECT_EQ(report.appended_exits, 4u);  // warp 0 of each kernel-2 block
    EXPECT_NE(report.warnings().find("4 warps did not end with EXIT"), std::string::npos);
}

TEST(AccelSimSource, SpacesUnknownOpcodesAndInactiveLanes) {
    TempDir d;
    ImportReport report;
    const auto w = import_one_warp(d, kernel_header("(1,1,1)", "(32,1,1)", 5, 1), 9,
                                   // generic loads: in the shared window, the local window, and global memory
                                   "1 0010 00000001 1 R1 LD.E 1 R2 4 0 0x00007f0000000040 0\n"
                                   "2 0020 00000001 1 R1 LD.E.64 1 R2 8 0 0x00007e0000000080 0\n"
                                   "3 0030 00000001 1 R1 LD.E 1 R2 4 0 0x0000000000001000 0\n"
                                   // constant load without address, a load with no active lane
                                   "4 0040 ffffffff 1 R1 LDC.64 0 0 7\n"
                                   "5 0050 00000000 1 R1 LDG.E 1 R2 4 1 0x0 0 0\n"
                                   // unknown opcodes, with and without addresses; BAR.ARV runs on
                                   "6 0060 ffffffff 1 R1 FROB.X 0 0 0\n"
                                   "7 0070 00000003 1 R1 ZAP.128 0 16 0 0x100 0x200 0\n"
                                   "8 0078 ffffffff 0 BAR.ARV 0 0 0\n"
                                   "9 0080 ffffffff 0 EXIT 0 0 0\n",
                                   &report);
    ASSERT_EQ(w.size(), 6u);
    EXPECT_EQ(w[0].space, MemSpace::Shared);
    EXPECT_EQ(w[1].space, MemSpace::Local);
    EXPECT_EQ(w[1].access_size, 8);
    // Thread offset 0x7e0000000080 - local base 0x7e0000000000 = 0x80 = word 32: lane 0
    // of the warp's window at 32 x 128 = 0x1000.
    EXPECT_EQ(w[1].lane_addr(0), 0x1000u);
    EXPECT_EQ(w[2].space, MemSpace::Global);
    EXPECT_EQ(w[3].kind, RecordKind::Load);
    EXPECT_EQ(w[3].space, MemSpace::Constant);
    EXPECT_EQ(w[3].access_size, 8);
    EXPECT_EQ(w[4].kind, RecordKind::Load);  // ZAP.128 kept as a global load of 16 B per lane
    EXPECT_EQ(w[4].compute, 2u);             // the inactive LDG and FROB.X
    EXPECT_EQ(w[4].access_size, 16);
    EXPECT_EQ(w[4].lane_addr(1), 0x200u);
    EXPECT_EQ(w[5].kind, RecordKind::Exit);
    EXPECT_EQ(w[5].compute, 1u);  // BAR.ARV
    EXPECT_EQ(report.unknown_opcodes, 2u);
    EXPECT_EQ(report.unknown_by_name.at("FROB"), 1u);
    EXPECT_EQ(report.unknown_by_name.at("ZAP"), 1u);
    EXPECT_EQ(report.inactive_memory, 1u);
    EXPECT_NE(report.warnings().find("FROB x1"), std::string::npos);
}

TEST(AccelSimSource, LocalAccessesBecomeWarpWindowOffsets) {
    // NVBit traces STL/LDL with each thread's own local address, the same in all lanes
    // (base+stride mode, stride 0). Thread offset 8, 8 B: word 2, so lane l is at
    // 2 x 128 + 8 l in the warp's window (lane 31 at 256 + 248 = 504); 4 B at offset 4:
    // word 1, lane l at 128 + 4 l (lane 3 at 140).
    TempDir d;
    const auto w = import_one_warp(d, kernel_header("(1,1,1)", "(32,1,1)", 5, 1), 3,
                                   "1 0010 ffffffff 0 STL.64 2 R1 R2 8 1 0x8 0 0\n"
                                   "2 0020 0000000f 1 R3 LDL 1 R1 4 1 0x4 0 0\n"
                                   "3 0030 ffffffff 0 EXIT 0 0 0\n");
    ASSERT_EQ(w.size(), 3u);
    EXPECT_EQ(w[0].space, MemSpace::Local);
    EXPECT_EQ(w[0].lane_addr(0), 256u);
    EXPECT_EQ(w[0].lane_addr(31), 504u);
    EXPECT_EQ(w[1].space, MemSpace::Local);
    EXPECT_EQ(w[1].lane_addr(0), 128u);
    EXPECT_EQ(w[1].lane_addr(3), 140u);
}

TEST(AccelSimSource, SingleTraceFileAndRoundTripThroughZtr) {
    TempDir d;
    write_text(d.file("kernel-7.traceg"), kernel_header("(3,1,1)", "(32,1,1)") +
                                              "#BEGIN_TB\nthread block = 2,0,0\nwarp = 0\ninsts = 2\n"
                                              "0008 ffffffff 1 R4 LDG.E 1 R4 4 2 0x1000 4 4 4 4 4 4 4 4 4 4 4 4 4 4 "
                                              "4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4\n"
                                              "0010 ffffffff 0 EXIT 0 0\n#END_TB\n");
    auto direct = open_foreign_trace(ForeignFormat::AccelSim, d.file("kernel-7.traceg"));
    const auto expected = decode_all(*direct);
    ASSERT_EQ(expected.at(0).ctas.at(0).id, 2u);
    EXPECT_EQ(expected[0].ctas[0].warps[0][0].lane_addr(31), 0x1000u + 31 * 4);

    ImportReport report;
    import_trace(ForeignFormat::AccelSim, d.file("kernel-7.traceg"), d.file("out.ztr"), &report);
    auto back = trace::open_trace(d.file("out.ztr"));
    EXPECT_EQ(back->header().source, "accelsim-import");
    const auto got = decode_all(*back);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_EQ(got[0].ctas.size(), 1u);
    const auto& a = expected[0].ctas[0].warps[0];
    const auto& b = got[0].ctas[0].warps[0];
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(trace::equivalent(a[i], b[i])) << "record " << i;
    EXPECT_EQ(report.instructions, 2u);
}

TEST(AccelSimSource, HeaderMayRunStraightIntoTheFirstBlock) {
    TempDir d;
    write_text(d.file("kernel-1.traceg"),
               "-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n"
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0008 ffffffff 0 EXIT 0 0\n#END_TB\n"
               "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n0008 ffffffff 0 EXIT 0 0\n#END_TB\n");
    auto src = open_foreign_trace(ForeignFormat::AccelSim, d.file("kernel-1.traceg"));
    const auto kernels = decode_all(*src);
    ASSERT_EQ(kernels.size(), 1u);
    ASSERT_EQ(kernels[0].ctas.size(), 2u);
    EXPECT_EQ(kernels[0].ctas[1].id, 1u);
}

TEST(AccelSimSource, SameInputGivesTheSameZtrBytes) {
    TempDir d;
    write_text(d.file("kernel-1.traceg"),
               kernel_header("(2,1,1)", "(64,1,1)") +
                   "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 3\n0008 ffffffff 1 R1 MOV 0 0\n"
                   "0010 0000000f 1 R4 LDG.E 1 R2 4 2 0x1000 64 -32 8\n0018 ffffffff 0 EXIT 0 0\n#END_TB\n");
    import_trace(ForeignFormat::AccelSim, d.file("kernel-1.traceg"), d.file("a.ztr"), nullptr);
    import_trace(ForeignFormat::AccelSim, d.file("kernel-1.traceg"), d.file("b.ztr"), nullptr);
    auto bytes = [](const std::string& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string a = bytes(d.file("a.ztr"));
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, bytes(d.file("b.ztr")));
}

TEST(AccelSimSource, MalformedInputNamesFileAndLine) {
    TempDir d;
    const std::string tb_head = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n";
    auto setup = [&](const std::string& body) {
        write_text(d.file("kernelslist.g"), "kernel-1.traceg\n");
        write_text(d.file("kernel-1.traceg"), body);
    };
    const std::string kfile = d.file("kernel-1.traceg");

    write_text(d.file("kernelslist.g"), "kernel-9.traceg\n");
    expect_import_error(d.path().string(), {"kernel-9.traceg", "cannot open"});

    write_text(d.file("kernelslist.g"), "kernel-1.traceg\nlaunch something\n");
    expect_import_error(d.path().string(), {"kernelslist.g:2", "unrecognised command"});

    write_text(d.file("kernelslist.g"), "MemcpyHtoD,0x10,oops\n");
    expect_import_error(d.path().string(), {"kernelslist.g:1", "bad copy size"});

    setup("-kernel name = k\n-block dim = (32,1,1)\n#x\n");
    expect_import_error(d.path().string(), {kfile, "lacks '-grid dim'"});

    setup(kernel_header("(1,70000,1)", "(32,1,1)"));
    expect_import_error(d.path().string(), {kfile + ":3", "grid dim (1,70000,1) exceeds"});

    setup(kernel_header("(1,1,1)", "(4294967295,4294967295,4294967295)"));
    expect_import_error(d.path().string(), {kfile + ":4", "block dim", "exceeds"});

    setup("-grid dim = (1,1)\n");
    expect_import_error(d.path().string(), {kfile + ":1", "bad grid dim"});

    setup(kernel_header("(1,1,1)", "(32,1,1)") + tb_head + "insts = 2\n0008 ffffffff 0 EXIT 0 0\n#END_TB\n");
    expect_import_error(d.path().string(), {kfile + ":22", "insts = 2 but has 1"});

    setup(kernel_header("(1,1,1)", "(32,1,1)") + tb_head + "insts = 1\n0008 ffffffff 0 NOP 0 0\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n");
    expect_import_error(d.path().string(), {kfile + ":22", "more instruction lines"});

    setup(kernel_header("(1,1,1)", "(32,1,1)") + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 0\n#END_TB\n");
    expect_import_error(d.path().string(), {kfile + ":19", "warp 1 does not exist"});

    setup(kernel_header("(1,1,1)", "(32,1,1)") + "#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n");
    expect_import_error(d.path().string(), {kfile + ":18", "outside the grid"});

    setup(kernel_header("(1,1,1)", "(32,1,1)") + tb_head + "insts = 1\n0008 ffffffff 0 EXIT 0 0\n");
    expect_import_error(d.path().string(), {kfile, "no #END_TB"});

    setup(kernel_header("(1,1,1)", "(32,1,1)") + tb_head +
          "insts = 1\n0008 00000003 1 R1 LDG.E 1 R2 4 0 0x10\n#END_TB\n");
    expect_import_error(d.path().string(), {kfile + ":21", "line ends before the lane address"});

    setup(kernel_header("(1,1,1)", "(32,1,1)") + "0008 ffffffff 0 EXIT 0 0\n");
    expect_import_error(d.path().string(), {kfile + ":17", "outside a thread block"});

    write_text(d.file("kernelslist.g"), "kernel-1.traceg.xz\n");
    write_text(d.file("kernel-1.traceg.xz"), "this is not xz");
    expect_import_error(d.path().string(), {"kernel-1.traceg.xz", "not an xz file"});

    expect_import_error(d.file("missing-dir"), {"missing-dir", "no such file"});
}

TEST(AccelSimSource, TruncatedXzIsAnError) {
    TempDir d;
    std::string body = kernel_header("(1,1,1)", "(32,1,1)") + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                                                              "0008 ffffffff 0 EXIT 0 0\n#END_TB\n";
    write_xz(d.file("full.xz"), body);
    std::string bytes;
    {
        std::ifstream in(d.file("full.xz"), std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    write_text(d.file("kernel-1.traceg.xz"), bytes.substr(0, bytes.size() - 20));
    write_text(d.file("kernelslist.g"), "kernel-1.traceg.xz\n");
    expect_import_error(d.path().string(), {"kernel-1.traceg.xz"});
}

}  // namespace
}  // namespace zng::importers
