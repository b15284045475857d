#include "traces/importers/sass_opcodes.hpp"

#include <gtest/gtest.h>

#include "traces/importers/macsim_records.hpp"

namespace zng::importers {
namespace {

using trace::MemSpace;
using trace::RecordKind;

TEST(SassOpcodes, WidthSuffixGivesBytesPerLane) {
    // Bit counts divided by 8; typed widths (U/S/F/B + bits) likewise.
    EXPECT_EQ(sass_width_suffix_bytes("LDG.E.64"), 8);
    EXPECT_EQ(sass_width_suffix_bytes("LDG.E.128.SYS"), 16);
    EXPECT_EQ(sass_width_suffix_bytes("LDS.U.32"), 4);
    EXPECT_EQ(sass_width_suffix_bytes("STG.E.U8"), 1);
    EXPECT_EQ(sass_width_suffix_bytes("LDG.E.S16"), 2);
    EXPECT_EQ(sass_width_suffix_bytes("ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU"), 4);
    EXPECT_EQ(sass_width_suffix_bytes("RED.E.ADD.F64.RN"), 8);
    // No width modifier, or one that is not a lane width.
    EXPECT_EQ(sass_width_suffix_bytes("LDG.E.CG"), 0);
    EXPECT_EQ(sass_width_suffix_bytes("STG.E"), 0);
    EXPECT_EQ(sass_width_suffix_bytes("LDG"), 0);
    EXPECT_EQ(sass_width_suffix_bytes("LD.E.U4"), 0);
    EXPECT_EQ(sass_width_suffix_bytes("LDS.U"), 0);
}

TEST(SassOpcodes, MemoryOpcodesMapToKindAndSpace) {
    struct Case {
        const char* op;
        RecordKind kind;
        MemSpace space;
        bool generic;
    } cases[] = {
        {"LDG.E.CG", RecordKind::Load, MemSpace::Global, false},
        {"STG.E", RecordKind::Store, MemSpace::Global, false},
        {"ATOMG.E.ADD.STRONG.GPU", RecordKind::Atomic, MemSpace::Global, false},
        {"RED.E.ADD.STRONG.GPU", RecordKind::Atomic, MemSpace::Global, false},
        {"ATOM.E.ADD", RecordKind::Atomic, MemSpace::Global, true},
        {"ATOMS.ADD", RecordKind::Atomic, MemSpace::Shared, false},
        {"LDS.U.32", RecordKind::Load, MemSpace::Shared, false},
        {"STS.128", RecordKind::Store, MemSpace::Shared, false},
        {"LDL.64", RecordKind::Load, MemSpace::Local, false},
        {"STL", RecordKind::Store, MemSpace::Local, false},
        {"LDC.64", RecordKind::Load, MemSpace::Constant, false},
        {"ULDC", RecordKind::Load, MemSpace::Constant, false},
        {"LD.E.64", RecordKind::Load, MemSpace::Global, true},
        {"ST.E", RecordKind::Store, MemSpace::Global, true},
        {"BAR.SYNC", RecordKind::Barrier, MemSpace::Global, false},
        {"EXIT", RecordKind::Exit, MemSpace::Global, false},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.op);
        const OpcodeClass k = classify_sass(c.op);
        EXPECT_TRUE(k.known);
        EXPECT_EQ(k.kind, c.kind);
        if (k.is_memory()) {
            EXPECT_EQ(k.space, c.space);
            EXPECT_EQ(k.generic, c.generic);
        }
    }
    EXPECT_FALSE(classify_sass("LDC").needs_address);  // NVBit traces constant loads without address
    EXPECT_TRUE(classify_sass("LDG.E").needs_address);
}

TEST(SassOpcodes, ComputeUnknownAndBarrierArrive) {
    for (const char* op : {"FFMA", "XMAD.PSL.CBCC", "ISETP.GE.AND", "MEMBAR.CTA", "S2R", "BRA", "NOP", "IMAD.WIDE.U32"}) {
        SCOPED_TRACE(op);
        const OpcodeClass k = classify_sass(op);
        EXPECT_TRUE(k.known);
        EXPECT_EQ(k.kind, RecordKind::Compute);
    }
    EXPECT_FALSE(classify_sass("FOO.BAR").known);
    EXPECT_EQ(classify_sass("FOO.BAR").kind, RecordKind::Compute);
    const OpcodeClass arv = classify_sass("BAR.ARV");
    EXPECT_EQ(arv.kind, RecordKind::Compute);
    EXPECT_TRUE(arv.barrier_arrive);
}

TEST(SassOpcodes, EveryMacSimNvbitOpcodeIsKnown) {
    // MacSim's NVBIT_OPCODE enum has 163 names (NVBIT_OPCODE_LAST); numbers past it are unknown.
    int named = 0;
    for (int op = 0; op < 256; ++op) {
        const std::string_view name = nvbit_opcode_name(static_cast<uint8_t>(op));
        if (name.empty()) continue;
        ++named;
        EXPECT_TRUE(classify_sass(name).known) << name;
    }
    EXPECT_EQ(named, 163);
    EXPECT_EQ(nvbit_opcode_name(73), "LDG");   // the numbers seen in the vectormultadd traces
    EXPECT_EQ(nvbit_opcode_name(78), "STG");
    EXPECT_EQ(nvbit_opcode_name(139), "EXIT");
    EXPECT_EQ(nvbit_opcode_name(159), "S2R");
    EXPECT_EQ(ptx_opcode_name(0), "INVALID");
    EXPECT_EQ(ptx_opcode_name(152), "DATA_XFER_SM");
    EXPECT_TRUE(ptx_opcode_name(153).empty());
}

TEST(SassOpcodes, CacheReturnsTheSameClassification) {
    SassOpcodeCache cache;
    const OpcodeClass& a = cache.get("LDG.E.64");
    const OpcodeClass& b = cache.get(std::string("LDG.E.64"));
    EXPECT_EQ(&a, &b);
    EXPECT_EQ(a.suffix_bytes, 8);
    EXPECT_EQ(cache.get("STS").kind, RecordKind::Store);
}

}  // namespace
}  // namespace zng::importers
