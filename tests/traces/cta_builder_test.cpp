// CtaBuilder rules (warp range, nothing after Exit, appended Exits, validation of
// encoded input) and VectorTraceSource streaming, rewinding and loading.
#include <gtest/gtest.h>

#include "traces/cta_builder.hpp"
#include "traces/vector_trace_source.hpp"

namespace zng::trace {
namespace {

WarpRecord barrier(uint64_t pc) {
    WarpRecord r;
    r.kind = RecordKind::Barrier;
    r.pc = pc;
    return r;
}

std::vector<WarpRecord> decode_warp(const std::vector<uint8_t>& bytes) {
    std::vector<WarpRecord> out;
    WarpRecord r;
    for (WarpCursor c(bytes); !c.done();) {
        c.next(r);
        out.push_back(r);
    }
    return out;
}

TEST(CtaBuilder, AppendsExitsAndCountsInstructions) {
    CtaBuilder b;
    b.begin(7, 3, 70);   // warps of 32, 32 and 6 threads
    WarpRecord r = barrier(0x10);
    r.compute = 4;
    b.add(0, r);   // 5 instructions
    WarpRecord exit;
    exit.kind = RecordKind::Exit;
    exit.pc = 0x20;
    exit.active_mask = 0x3;
    b.add(1, exit);   // already exited: nothing appended
    CtaTrace cta = b.finish();
    EXPECT_EQ(cta.cta_id, 7u);
    EXPECT_EQ(cta.records, 4u);   // barrier + appended exit, exit, appended exit
    // 5 + 1 (appended) + 1 + 1 (appended).
    EXPECT_EQ(b.instructions(), 8u);
    auto w0 = decode_warp(cta.warps[0]);
    ASSERT_EQ(w0.size(), 2u);
    EXPECT_EQ(w0[1].kind, RecordKind::Exit);
    EXPECT_EQ(w0[1].pc, 0x10u);
    auto w1 = decode_warp(cta.warps[1]);
    ASSERT_EQ(w1.size(), 1u);
    EXPECT_EQ(w1[0].active_mask, 0x3u);
    auto w2 = decode_warp(cta.warps[2]);
    ASSERT_EQ(w2.size(), 1u);
    EXPECT_EQ(w2[0].active_mask, 0x3fu);   // 70 - 64 = 6 lanes
    EXPECT_EQ(w2[0].pc, 0u);
}

TEST(CtaBuilder, RejectsBadUse) {
    CtaBuilder b;
    EXPECT_THROW(b.add(0, barrier(0)), TraceError);   // not begun
    EXPECT_THROW(b.finish(), TraceError);
    EXPECT_THROW(b.begin(0, 0, 0), TraceError);
    EXPECT_THROW(b.begin(0, CtaBuilder::kMaxWarps + 1, 32), TraceError);
    EXPECT_THROW(b.begin(0, 1, 33), TraceError);      // 33 threads in one warp
    b.begin(0, 2, 64);
    EXPECT_THROW(b.begin(1, 2, 64), TraceError);      // still open
    EXPECT_THROW(b.add(2, barrier(0)), TraceError);
    WarpRecord bad;
    bad.kind = RecordKind::Load;
    bad.access_size = 3;
    EXPECT_THROW(b.add(0, bad), TraceError);
    WarpRecord exit;
    exit.kind = RecordKind::Exit;
    b.add(0, exit);
    EXPECT_THROW(b.add(0, barrier(0)), TraceError);   // after Exit
    const std::vector<uint8_t> one_barrier = {0x04, 0x00};
    EXPECT_THROW(b.add_encoded(0, one_barrier.data(), one_barrier.size()), TraceError);
    const std::vector<uint8_t> exit_then_barrier = {0x05, 0x00, 0x04, 0x00};
    EXPECT_THROW(b.add_encoded(1, exit_then_barrier.data(), exit_then_barrier.size()), TraceError);
    const std::vector<uint8_t> malformed = {0x07, 0x00};
    EXPECT_THROW(b.add_encoded(1, malformed.data(), malformed.size()), TraceError);
    EXPECT_TRUE(b.warps() == 2 && b.records() == 1) << "rejected input leaves the CTA unchanged";
    b.add_encoded(1, one_barrier.data(), one_barrier.size());
    EXPECT_EQ(b.finish().records, 3u);   // exit, barrier + appended exit
}

TEST(CtaBuilder, RecyclesBuffersBetweenCtas) {
    CtaBuilder b;
    CtaTrace cta;
    const uint8_t* first_buffers[2] = {nullptr, nullptr};
    for (int round = 0; round < 4; ++round) {
        b.begin(static_cast<uint64_t>(round), 2, 64);
        for (int i = 0; i < 100; ++i) b.add(static_cast<uint32_t>(i % 2), barrier(static_cast<uint64_t>(i)));
        b.finish(cta);
        EXPECT_EQ(cta.records, 102u);
        EXPECT_EQ(decode_warp(cta.warps[0]).size(), 51u);
        if (round == 1) {
            first_buffers[0] = cta.warps[0].data();
            first_buffers[1] = cta.warps[1].data();
        }
        if (round == 3) {   // two CTAs later, the same two buffer sets alternate
            EXPECT_EQ(cta.warps[0].data(), first_buffers[0]);
            EXPECT_EQ(cta.warps[1].data(), first_buffers[1]);
        }
    }
}

TEST(VectorTraceSource, StreamsRewindsAndLoads) {
    TraceHeader h;
    h.workload = "v";
    VectorTraceSource t(h, {}, "vec");
    KernelInfo k;
    k.name = "a";
    CtaBuilder b;
    for (int kernel = 0; kernel < 2; ++kernel) {
        KernelTrace& kt = t.add_kernel(k);
        for (uint64_t c = 0; c < 3; ++c) {
            b.begin(c, k);
            kt.ctas.push_back(b.finish());
        }
    }
    CtaTrace cta;
    EXPECT_FALSE(t.next_cta(cta)) << "no kernel started yet";
    for (int pass = 0; pass < 2; ++pass) {
        KernelInfo got;
        int kernels = 0, ctas = 0;
        while (t.next_kernel(got)) {
            ++kernels;
            while (t.next_cta(cta)) ++ctas;
        }
        EXPECT_EQ(kernels, 2);
        EXPECT_EQ(ctas, 6);
        t.rewind();
    }
    VectorTraceSource copy = VectorTraceSource::read_all(t);
    EXPECT_EQ(copy.describe(), "vec");
    EXPECT_EQ(copy.header().workload, "v");
    ASSERT_EQ(copy.kernels().size(), 2u);
    EXPECT_EQ(copy.kernels()[1].ctas.size(), 3u);
    EXPECT_EQ(copy.kernels()[1].ctas[2].cta_id, 2u);
}

}  // namespace
}  // namespace zng::trace
