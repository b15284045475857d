#include "traces/workloads/kernel_emitter.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace zng::workloads {
namespace {

using trace::MemSpace;
using trace::RecordKind;

TEST(DetectStride, FindsBaseAndStrideOfActiveLanes) {
    LaneAddrs a{};
    for (int i = 0; i < 32; ++i) a[i] = 1000 + 4 * i;
    uint64_t base = 0;
    int64_t stride = 0;
    ASSERT_TRUE(detect_stride(kFullMask, a, base, stride));
    EXPECT_EQ(base, 1000u);
    EXPECT_EQ(stride, 4);

    // Only lanes 3 and 7 active: 12 and 28 apart by 16 over 4 lanes -> stride 4, base 0.
    LaneAddrs b{};
    b[3] = 12;
    b[7] = 28;
    b[0] = 999;   // inactive lane: ignored
    ASSERT_TRUE(detect_stride((1u << 3) | (1u << 7), b, base, stride));
    EXPECT_EQ(base, 0u);
    EXPECT_EQ(stride, 4);

    // Negative stride.
    for (int i = 0; i < 32; ++i) a[i] = 5000 - 8 * i;
    ASSERT_TRUE(detect_stride(kFullMask, a, base, stride));
    EXPECT_EQ(base, 5000u);
    EXPECT_EQ(stride, -8);

    // A lone lane is stride 0 around its own address.
    ASSERT_TRUE(detect_stride(1u << 9, a, base, stride));
    EXPECT_EQ(stride, 0);
    EXPECT_EQ(base, a[9]);

    // Lanes 0 and 2 three bytes apart: no integer stride.
    LaneAddrs c{};
    c[0] = 0;
    c[2] = 3;
    EXPECT_FALSE(detect_stride(0b101u, c, base, stride));

    // One lane off the line breaks it.
    for (int i = 0; i < 32; ++i) a[i] = 1000 + 4 * i;
    a[17] += 1;
    EXPECT_FALSE(detect_stride(kFullMask, a, base, stride));
    EXPECT_FALSE(detect_stride(0, a, base, stride));
}

TEST(LanesBelow, Masks) {
    EXPECT_EQ(lanes_below(0), 0u);
    EXPECT_EQ(lanes_below(-3), 0u);
    EXPECT_EQ(lanes_below(1), 1u);
    EXPECT_EQ(lanes_below(16), 0xffffu);
    EXPECT_EQ(lanes_below(32), kFullMask);
    EXPECT_EQ(lanes_below(40), kFullMask);
}

std::string tmp_path(const std::string& name) {
    return (std::filesystem::path(ZNG_TEST_TMP_DIR) / name).string();
}

// Emits a hand-made kernel and reads it back through the trace reader.
TEST(KernelEmitter, RecordsRoundTripThroughTheTraceFile) {
    const std::string path = tmp_path("emitter_roundtrip.ztr");
    {
        trace::TraceWriter w(path, trace::TraceHeader{"unit", "zngsim-gen", {}});
        trace::KernelInfo k;
        k.name = "k";
        k.grid = {2, 1, 1};
        k.block = {48, 1, 1};   // 2 warps, the second half full
        {
            KernelEmitter ke(w, k);
            EXPECT_EQ(ke.warps_per_cta(), 2u);
            EXPECT_THROW(ke.warp(0), std::logic_error);   // outside a CTA
            ke.begin_cta(1);
            EXPECT_THROW(ke.warp(2), std::out_of_range);
            WarpEmitter& w0 = ke.warp(0);
            LaneAddrs a{};
            for (int i = 0; i < 32; ++i) a[i] = 0x1000 + 4 * i;
            w0.compute(3);
            w0.load(0x10, kFullMask, a, 4);
            a[5] = 0x9000;   // scattered
            w0.store(0x18, kFullMask, a, 4);
            w0.load(0x20, 0, a, 4);   // branched around: nothing
            w0.barrier(0x28);
            w0.compute(2);            // trailing: folded into Exit
            WarpEmitter& w1 = ke.warp(1);
            w1.atomic_strided(0x30, lanes_below(16), 0x2000, 8, 8, MemSpace::Shared);
            EXPECT_EQ(w1.live_lanes(), 0xffffu);   // 48 threads: second warp half full
            w1.barrier(0x28);
            EXPECT_THROW(w1.load(0x40, 1, a, 3), std::invalid_argument);
            EXPECT_EQ(w0.instructions(), 3u + 1 + 1 + 1);   // Exit not yet counted
            ke.end_cta();
            EXPECT_THROW(ke.begin_cta(2), std::out_of_range);
            ke.end();
            EXPECT_THROW(ke.end(), std::logic_error);
            EXPECT_THROW(ke.begin_cta(0), std::logic_error);
        }
        w.finish();
    }
    auto src = trace::open_trace(path);
    EXPECT_EQ(src->header().workload, "unit");
    trace::KernelInfo k;
    ASSERT_TRUE(src->next_kernel(k));
    EXPECT_EQ(k.name, "k");
    trace::CtaTrace cta;
    ASSERT_TRUE(src->next_cta(cta));
    EXPECT_EQ(cta.cta_id, 1u);
    ASSERT_EQ(cta.warps.size(), 2u);

    trace::WarpRecord r;
    trace::WarpCursor c0(cta.warps[0]);
    ASSERT_FALSE(c0.done());
    c0.next(r);
    EXPECT_EQ(r.kind, RecordKind::Load);
    EXPECT_EQ(r.pc, 0x10u);
    EXPECT_EQ(r.compute, 3u);
    EXPECT_TRUE(r.strided);
    EXPECT_EQ(r.lane_addr(31), 0x1000u + 124);
    c0.next(r);
    EXPECT_EQ(r.kind, RecordKind::Store);
    EXPECT_EQ(r.compute, 0u);
    EXPECT_FALSE(r.strided);
    EXPECT_EQ(r.lane_addr(5), 0x9000u);
    EXPECT_EQ(r.lane_addr(6), 0x1000u + 24);
    c0.next(r);
    EXPECT_EQ(r.kind, RecordKind::Barrier);
    c0.next(r);
    EXPECT_EQ(r.kind, RecordKind::Exit);
    EXPECT_EQ(r.compute, 2u);
    EXPECT_TRUE(c0.done());

    trace::WarpCursor c1(cta.warps[1]);
    c1.next(r);
    EXPECT_EQ(r.kind, RecordKind::Atomic);
    EXPECT_EQ(r.space, MemSpace::Shared);
    EXPECT_EQ(r.active_mask, 0xffffu);
    EXPECT_EQ(r.access_size, 8);
    EXPECT_EQ(r.lane_addr(15), 0x2000u + 120);
    c1.next(r);
    EXPECT_EQ(r.kind, RecordKind::Barrier);
    EXPECT_EQ(r.active_mask, 0xffffu);
    c1.next(r);
    EXPECT_EQ(r.kind, RecordKind::Exit);   // appended by the writer
    EXPECT_TRUE(c1.done());
    EXPECT_FALSE(src->next_cta(cta));
    EXPECT_FALSE(src->next_kernel(k));
}

}  // namespace
}  // namespace zng::workloads
