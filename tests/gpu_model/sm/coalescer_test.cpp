// Coalescing of warp accesses into 128 B line requests with 32 B sector masks. Every
// expectation is worked out by hand from the lane addresses.
#include <gtest/gtest.h>

#include <string>

#include "gpu_model/sm/coalescer.hpp"
#include "support/trace_helpers.hpp"

namespace zng::gpu::testing {
namespace {

struct Result {
    uint32_t n;
    LineAccess lines[Coalescer::kMaxLines];
};
Result run(const WarpRecord& r) {
    Coalescer c(128, 32);
    Result out{};
    out.n = c.coalesce(r, out.lines);
    return out;
}

TEST(Coalescer, UnitStrideFourBytesIsOneFullLine) {
    // Lanes 0..31 read 4 B at 0x1000 + 4i: bytes 0x1000..0x107f, one line, all 4 sectors.
    Result r = run(load(0x10, 0x1000, 4, 4));
    ASSERT_EQ(r.n, 1u);
    EXPECT_EQ(r.lines[0].line, 0x1000u);
    EXPECT_EQ(r.lines[0].sectors, 0xfu);
}

TEST(Coalescer, EightByteStrideSpansTwoLines) {
    // 8 B per lane: lanes 0..15 cover 0x1000..0x107f, lanes 16..31 cover 0x1080..0x10ff.
    Result r = run(load(0x10, 0x1000, 8, 8));
    ASSERT_EQ(r.n, 2u);
    EXPECT_EQ(r.lines[0].line, 0x1000u);
    EXPECT_EQ(r.lines[1].line, 0x1080u);
    EXPECT_EQ(r.lines[0].sectors, 0xfu);
    EXPECT_EQ(r.lines[1].sectors, 0xfu);
}

TEST(Coalescer, LineStrideGivesOneRequestPerLane) {
    // Stride 128: lane i alone in line 0x4000 + 128 i, first sector only.
    Result r = run(load(0x10, 0x4000, 128, 4));
    ASSERT_EQ(r.n, 32u);
    for (uint32_t i = 0; i < 32; ++i) {
        EXPECT_EQ(r.lines[i].line, 0x4000u + 128u * i);
        EXPECT_EQ(r.lines[i].sectors, 0x1u);
    }
}

TEST(Coalescer, StrideOf48BytesTouchesSectorsByHand) {
    // Lane i at 48 i, 4 B: offsets 0,48,96 | 144,192,240 | ... Line 0 (0..127) holds
    // lanes 0,1,2 at offsets 0,48,96 -> sectors 0,1,3 = 0b1011.
    Result r = run(load(0x10, 0, 48, 4));
    EXPECT_EQ(r.lines[0].line, 0u);
    EXPECT_EQ(r.lines[0].sectors, 0b1011u);
    // Line 128 holds lanes 3,4,5 at 144,192,240 -> offsets 16,64,112 -> sectors 0,2,3.
    EXPECT_EQ(r.lines[1].line, 128u);
    EXPECT_EQ(r.lines[1].sectors, 0b1101u);
    // 32 lanes x 48 B = 1536 B = 12 lines.
    EXPECT_EQ(r.n, 12u);
}

TEST(Coalescer, BroadcastIsOneSector) {
    // Stride 0: every lane reads the same 4 B.
    Result r = run(load(0x10, 0x2044, 0, 4));
    ASSERT_EQ(r.n, 1u);
    EXPECT_EQ(r.lines[0].line, 0x2000u);
    EXPECT_EQ(r.lines[0].sectors, 0x4u);  // offset 0x44 = 68 -> sector 2
}

TEST(Coalescer, ScatteredLanesInFirstTouchOrder) {
    WarpRecord r = load(0x10, 0, 0, 4);
    r.strided = false;
    r.active_mask = 0b10111;  // lanes 0,1,2,4
    r.addr[0] = 0x9000;       // line 0x9000 sector 0
    r.addr[1] = 0x1000 + 100; // line 0x1000 sector 3
    r.addr[2] = 0x9000 + 40;  // line 0x9000 sector 1
    r.addr[4] = 0x1000 + 4;   // line 0x1000 sector 0
    Result out = run(r);
    ASSERT_EQ(out.n, 2u);
    EXPECT_EQ(out.lines[0].line, 0x9000u);
    EXPECT_EQ(out.lines[0].sectors, 0b11u);
    EXPECT_EQ(out.lines[1].line, 0x1000u);
    EXPECT_EQ(out.lines[1].sectors, 0b1001u);
}

TEST(Coalescer, ScatteredGatherRevisitingLinesMergesThemInFirstTouchOrder) {
    // Lanes 0..15 each touch a line of their own: lane i reads 4 B at 0x100000 + i * 4096
    // + 32, sector 1 of line 0x100000 + i * 4096 (16 lines, more than a short list holds).
    // Lanes 16..31 revisit them backwards: lane 16 + j reads 4 B at the line of lane
    // 15 - j + 96, sector 3. So 16 requests in lane order 0..15, each with sectors 1
    // and 3 (mask 0b1010).
    WarpRecord r = load(0x10, 0, 0, 4);
    r.strided = false;
    r.active_mask = ~0u;
    for (uint32_t i = 0; i < 16; ++i) r.addr[i] = 0x100000 + i * 4096 + 32;
    for (uint32_t j = 0; j < 16; ++j) r.addr[16 + j] = 0x100000 + (15 - j) * 4096 + 96;
    Result out = run(r);
    ASSERT_EQ(out.n, 16u);
    for (uint32_t i = 0; i < 16; ++i) {
        EXPECT_EQ(out.lines[i].line, 0x100000u + i * 4096u) << i;
        EXPECT_EQ(out.lines[i].sectors, 0b1010u) << i;
    }
}

TEST(Coalescer, InactiveLanesMakeNoRequest) {
    WarpRecord r = load(0x10, 0x1000, 128, 4);
    r.active_mask = 0;
    EXPECT_EQ(run(r).n, 0u);
    r.active_mask = 1u << 31;  // only lane 31: 0x1000 + 31 * 128
    Result out = run(r);
    ASSERT_EQ(out.n, 1u);
    EXPECT_EQ(out.lines[0].line, 0x1000u + 31u * 128u);
}

TEST(Coalescer, AccessStraddlingALineBoundaryTouchesBothLines) {
    // One lane, 8 B at 0x107c: bytes 0x107c..0x1083 -> sector 3 of 0x1000, sector 0 of 0x1080.
    WarpRecord r = mem(RecordKind::Load, 0x10, 0x107c, 0, 8, 1u);
    Result out = run(r);
    ASSERT_EQ(out.n, 2u);
    EXPECT_EQ(out.lines[0].line, 0x1000u);
    EXPECT_EQ(out.lines[0].sectors, 0x8u);
    EXPECT_EQ(out.lines[1].line, 0x1080u);
    EXPECT_EQ(out.lines[1].sectors, 0x1u);
    // All 32 lanes straddling distinct line pairs: the 64-request worst case.
    WarpRecord w = mem(RecordKind::Load, 0x10, 0x107c, 256, 8);
    EXPECT_EQ(run(w).n, 64u);
}

TEST(Coalescer, StridedRecordsGiveTheLaneWalksResult) {
    // Broadcasts and runs of overlapping lanes are coalesced in closed form: each must
    // equal the walk of the same lanes given as scattered addresses, for line sizes of
    // one sector and more, runs and holes in the mask, straddled lines and the top of
    // the address space.
    const uint32_t masks[] = {~0u, 1u, 0x80000000u, 0x0000ffffu, 0x00ffff00u, 0xfffffffeu, 0x0f0f0f0fu, 0x80000001u};
    const int64_t strides[] = {0, 1, 2, 4, 8, 12, 16, 17, 32, -4};
    const uint8_t sizes[] = {1, 2, 4, 8, 16};
    const uint64_t bases[] = {0x1000, 0x107c, 0x20f3, 0xffffffffffffff00ull, 0xfffffffffffffff8ull};
    for (uint32_t line : {32u, 128u, 256u}) {
        Coalescer c(line, 32);
        for (uint32_t mask : masks)
            for (int64_t stride : strides)
                for (uint8_t size : sizes)
                    for (uint64_t base : bases) {
                        WarpRecord strided = mem(RecordKind::Load, 0x10, base, stride, size, mask);
                        WarpRecord scattered = strided;
                        scattered.strided = false;
                        for (uint32_t lane = 0; lane < trace::kWarpSize; ++lane)
                            scattered.addr[lane] = base + static_cast<uint64_t>(static_cast<int64_t>(lane) * stride);
                        LineAccess a[Coalescer::kMaxLines], b[Coalescer::kMaxLines];
                        const uint32_t na = c.coalesce(strided, a);
                        const uint32_t nb = c.coalesce(scattered, b);
                        const std::string what = "line " + std::to_string(line) + " mask " + std::to_string(mask) +
                                                 " stride " + std::to_string(stride) + " size " +
                                                 std::to_string(size) + " base " + std::to_string(base);
                        ASSERT_EQ(na, nb) << what;
                        for (uint32_t i = 0; i < na; ++i) {
                            EXPECT_EQ(a[i].line, b[i].line) << what << " request " << i;
                            EXPECT_EQ(a[i].sectors, b[i].sectors) << what << " request " << i;
                        }
                    }
    }
}

TEST(Coalescer, BytesCountSectors) {
    Coalescer c(128, 32);
    EXPECT_EQ(c.bytes(0xf), 128u);
    EXPECT_EQ(c.bytes(0b101), 64u);
}

}  // namespace
}  // namespace zng::gpu::testing
