#include "traces/importers/accelsim_instruction.hpp"

#include <gtest/gtest.h>

namespace zng::importers {
namespace {

AccelSimInstruction parse(std::string_view line, unsigned version = 4, bool lineinfo = false) {
    AccelSimInstruction ins;
    parse_accelsim_instruction(line, AccelSimLineFormat{version, lineinfo}, ins);
    return ins;
}

void expect_error(std::string_view line, const char* fragment, unsigned version = 4) {
    try {
        parse(line, version);
        ADD_FAILURE() << "no error for: " << line;
    } catch (const trace::TraceError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

TEST(AccelSimInstruction, ComputeLine) {
    const auto ins = parse("0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 ");
    EXPECT_EQ(ins.pc, 0x28u);
    EXPECT_EQ(ins.mask, 0xffffffffu);
    EXPECT_EQ(ins.opcode, "XMAD.MRG");
    EXPECT_FALSE(ins.has_addresses);
}

TEST(AccelSimInstruction, ListAllGivesOneAddressPerActiveLane) {
    // Mask 0x16 = lanes 1, 2, 4.
    const auto ins = parse("0100 00000016 1 R4 LDG.E.64 1 R2 8 0 0x1000 0x2000 0x3008");
    EXPECT_EQ(ins.mem_width, 8u);
    EXPECT_EQ(ins.mode, AccelSimAddressMode::ListAll);
    EXPECT_EQ(ins.addr[1], 0x1000u);
    EXPECT_EQ(ins.addr[2], 0x2000u);
    EXPECT_EQ(ins.addr[4], 0x3008u);
    EXPECT_EQ(ins.addr[0], 0u);
    EXPECT_EQ(ins.addr[3], 0u);
}

TEST(AccelSimInstruction, BaseStrideStartsAtTheFirstActiveLane) {
    // Lanes 4..7 active: lane 4 at 0x1000, then +8 per lane; compact base = 0x1000 - 4*8.
    const auto ins = parse("0098 000000f0 1 R4 LDG.E.64 1 R4 8 1 0x1000 8 ");
    EXPECT_EQ(ins.mode, AccelSimAddressMode::BaseStride);
    EXPECT_EQ(ins.addr[4], 0x1000u);
    EXPECT_EQ(ins.addr[7], 0x1018u);
    EXPECT_EQ(ins.stride, 8);
    EXPECT_EQ(ins.stride_base, 0x1000u - 32);
    // Negative strides run downwards.
    const auto down = parse("0098 00000003 1 R4 LDS 1 R4 4 1 0x100 -4 ");
    EXPECT_EQ(down.addr[0], 0x100u);
    EXPECT_EQ(down.addr[1], 0xfcu);
}

TEST(AccelSimInstruction, BaseDeltaChainsFromThePreviousActiveLane) {
    // Lanes 0, 3, 5: 0x2000, 0x2000+16, 0x2010-32.
    const auto ins = parse("0100 00000029 0 STG.E 2 R6 R0 4 2 0x2000 16 -32");
    EXPECT_EQ(ins.mode, AccelSimAddressMode::BaseDelta);
    EXPECT_EQ(ins.addr[0], 0x2000u);
    EXPECT_EQ(ins.addr[3], 0x2010u);
    EXPECT_EQ(ins.addr[5], 0x1ff0u);
    // A single active lane is written as base+delta with no deltas.
    const auto one = parse("0100 80000000 0 STG.E 2 R6 R0 4 2 0x40 ");
    EXPECT_EQ(one.addr[31], 0x40u);
}

TEST(AccelSimInstruction, LineInfoAndVersion5Immediate) {
    const auto ins = parse("17 0098 ffffffff 1 R4 LDG.E 1 R4 4 1 0x1000 4 -5", 5, true);
    EXPECT_EQ(ins.pc, 0x98u);
    EXPECT_EQ(ins.addr[31], 0x1000u + 31 * 4);
    const auto c = parse("0048 ffffffff 0 DEPBAR.LE 0 0 1", 5);
    EXPECT_EQ(c.opcode, "DEPBAR.LE");
}

TEST(AccelSimInstruction, OldTracersPrefixBlockAndWarp) {
    const auto ins = parse("0 0 0 3 0010 ffffffff 1 R0 S2R 0 0", 2);
    EXPECT_EQ(ins.pc, 0x10u);
    EXPECT_EQ(ins.opcode, "S2R");
}

TEST(AccelSimInstruction, MalformedLinesNameTheProblem) {
    expect_error("0100 00000007 1 R4 LDG.E 1 R2 4 0 0x1000 0x2000", "lane address");  // 3 lanes, 2 addresses
    expect_error("0100 00000003 1 R4 LDG.E 1 R2 4 0 0x1000 0x2000 0x3000", "more addresses than active lanes");
    expect_error("0100 00000005 1 R4 LDG.E 1 R2 4 1 0x1000 4", "non-contiguous");
    expect_error("0100 00000001 1 R4 LDG.E 1 R2 4 7 0x1000", "unknown address encoding 7");
    expect_error("01z0 00000001 0 NOP 0 0", "bad PC");
    expect_error("0100 1ffffffff 0 NOP 0 0", "bad active mask");
    expect_error("0100 ffffffff 0 NOP 0", "memory width");
    expect_error("0100 ffffffff 0 NOP 0 0", "immediate", 5);
    expect_error("0100 ffffffff 99 R1 NOP 0 0", "implausible");
    expect_error("0100 00000003 0 STG.E 1 R6 4 2 0x2000 16 8", "more addresses");  // 2 lanes, 2 deltas
}

}  // namespace
}  // namespace zng::importers
