// Local memory: per-(SM, warp slot) frames and the L1's write-back caching of local
// stores. Addresses and traffic are worked out by hand in each test.
#include <gtest/gtest.h>

#include "gpu_model/sm/local_memory.hpp"
#include "support/gpu_harness.hpp"
#include "support/trace_helpers.hpp"

namespace zng::gpu::testing {
namespace {

using trace::MemSpace;

WarpRecord local_store(uint64_t pc, uint64_t offset, uint8_t size = 4, uint32_t mask = trace::kFullWarpMask) {
    return mem(RecordKind::Store, pc, offset, size, size, mask, MemSpace::Local);
}
WarpRecord local_load(uint64_t pc, uint64_t offset, uint8_t size = 4, uint32_t mask = trace::kFullWarpMask) {
    return mem(RecordKind::Load, pc, offset, size, size, mask, MemSpace::Local);
}

TEST(LocalFrames, BaseIsRegionPlusSmAndSlotTimesFrame) {
    // SM 2 of 80 warp slots, 32 KiB frames: slot 5 owns frame (2 x 80 + 5) = 165, at
    // 0x7e0000000000 + 165 x 32768 = 0x7e0000000000 + 0x528000.
    LocalFrames f(2, 80, 32768);
    EXPECT_EQ(f.base(5), 0x7e0000528000ull);
    // A strided record (lane l at 0x100 + 8 l, 8 B) moves by the frame base.
    WarpRecord r = local_store(0x10, 0x100, 8);
    ASSERT_TRUE(f.relocate(r, 5));
    EXPECT_EQ(r.lane_addr(0), 0x7e0000528100ull);
    EXPECT_EQ(r.lane_addr(31), 0x7e0000528100ull + 31 * 8);
    // A scattered record: each active lane moves, inactive lanes are not read.
    WarpRecord s = local_load(0x20, 0);
    s.strided = false;
    s.active_mask = 0b101;
    s.addr[0] = 0x40;
    s.addr[2] = 0x7ff8;
    ASSERT_TRUE(f.relocate(s, 0));
    EXPECT_EQ(s.addr[0], 0x7e0000500040ull);  // frame 160 = 0x500000
    EXPECT_EQ(s.addr[2], 0x7e0000507ff8ull);
    // The last 4 B of the frame fit; 8 B at the same offset would cross into the next frame.
    WarpRecord edge = local_store(0x30, 32768 - 4, 4, 1u);
    EXPECT_TRUE(f.relocate(edge, 0));
    WarpRecord over = local_store(0x30, 32768 - 4, 8, 1u);
    EXPECT_FALSE(f.relocate(over, 0));
    EXPECT_EQ(over.base, 32768u - 4);  // unchanged when refused
}

TEST(LocalFrames, NoTwoSlotsOfAnySmOverlap) {
    // Every (SM, slot) frame [base, base + frame) ends where the next one begins: the
    // frames of 16 SMs x 80 slots tile the region without overlap.
    const uint64_t frame = 32768;
    uint64_t expect = trace::kLocalRegionBase;
    for (uint32_t sm = 0; sm < 16; ++sm) {
        LocalFrames f(sm, 80, frame);
        for (uint32_t slot = 0; slot < 80; ++slot) {
            EXPECT_EQ(f.base(slot), expect);
            expect += frame;
        }
    }
    EXPECT_LE(expect, trace::kLocalRegionBase + trace::kLocalRegionBytes);
}

const char* kTwoSms = R"(
gpu:
  sms: 2
  sm: {schedulers: 1}
)";

TEST(LocalMemory, WarpsOnDifferentSmsTouchDifferentPages) {
    // Two one-warp CTAs, one per SM, each stores 32 x 4 B at local offset 0. Before
    // relocation both wrote the same 128 B; now SM 0 slot 0 writes frame 0 and SM 1
    // slot 0 writes frame 80 (32 KiB frames, 4 KiB pages): two pages are touched.
    std::vector<CtaRecords> ctas{{{local_store(0x10, 0)}}, {{local_store(0x10, 0)}}};
    GpuHarness h(kTwoSms, one_app(make_trace(ctas, 1)), 10);
    h.run();
    EXPECT_EQ(h.stat("gpu.sm0.stores"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm1.stores"), 1.0);
    EXPECT_EQ(h.translator->frames_used(), 2u);
    EXPECT_EQ(h.gpu->sm(1).local_frame_base(0), trace::kLocalRegionBase + 80 * 32768);
}

TEST(LocalMemory, TwoSlotsOfOneSmTouchDifferentPages) {
    // One CTA of two warps: slots 0 and 1, frames 32 KiB apart, so the same offset is in
    // two pages.
    std::vector<CtaRecords> ctas{{{local_store(0x10, 0)}, {local_store(0x10, 0)}}};
    GpuHarness h("gpu:\n  sms: 1\n", one_app(make_trace(ctas, 2)), 10);
    h.run();
    EXPECT_EQ(h.translator->frames_used(), 2u);
}

TEST(LocalMemory, ALaterCtaInTheSameSlotReusesItsFrame) {
    // One SM holding one CTA at a time: the second CTA runs in slot 0 after the first
    // has exited, so both store into frame 0 and a single page is touched (a frame per
    // CTA would touch two).
    std::vector<CtaRecords> ctas{{{local_store(0x10, 0)}}, {{local_store(0x10, 0)}}};
    GpuHarness h("gpu:\n  sms: 1\n  sm: {max_ctas: 1}\n", one_app(make_trace(ctas, 1)), 10);
    h.run();
    EXPECT_EQ(h.stat("gpu.sm0.stores"), 2.0);
    EXPECT_EQ(h.translator->frames_used(), 1u);
}

TEST(LocalMemory, AnAccessOutsideTheFrameIsATraceError) {
    std::vector<CtaRecords> ctas{{{local_store(0x10, 4096)}}};
    GpuHarness h("gpu:\n  sms: 1\n  sm: {local_frame: 4KiB}\n", one_app(make_trace(ctas, 1)), 10);
    EXPECT_THROW(h.run(), trace::TraceError);
}

// One SM, one scheduler, a one-line L1 (128 B, 1 way), so the next line evicts the last.
const char* kOneLineL1 = R"(
gpu:
  sms: 1
  sm: {schedulers: 1}
  l1d: {size: 128B, ways: 1}
  l2: {banks: 1}
)";

TEST(LocalWriteBack, ALocalLoadAfterALocalStoreOfTheLineHitsWithNoL2Traffic) {
    // 32 lanes x 4 B at offset 0 = the whole 128 B line: the store allocates it dirty
    // without a fetch, the load of the same 32 x 4 B hits. Nothing leaves the L1.
    std::vector<CtaRecords> ctas{{{local_store(0x10, 0), local_load(0x20, 0)}}};
    GpuHarness h(kOneLineL1, one_app(make_trace(ctas, 1)), 100);
    h.run();
    EXPECT_EQ(h.stat("gpu.sm0.l1d.stores"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.hits"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.misses"), 0.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.writebacks"), 0.0);
    EXPECT_EQ(h.gpu->sm(0).l1d().requests_sent(), 0u);
    EXPECT_EQ(h.memory->requests(MemOp::Read) + h.memory->requests(MemOp::Write) +
                  h.memory->requests(MemOp::Writeback),
              0u);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

TEST(LocalWriteBack, EvictingADirtyLocalLineSendsOneLineWriteBack) {
    // Store line 0 of the frame, then line 1 (offset 128): the one-line L1 evicts the
    // dirty line 0, which goes to the L2 as exactly one Writeback of 128 B. The L2 takes
    // a full-line write without fetching (write_misses 1, no memory read); line 1 stays
    // dirty in the L1.
    std::vector<CtaRecords> ctas{{{local_store(0x10, 0), local_store(0x20, 128)}}};
    GpuHarness h(kOneLineL1, one_app(make_trace(ctas, 1)), 100);
    h.run();
    EXPECT_EQ(h.stat("gpu.sm0.l1d.stores"), 2.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.writebacks"), 1.0);
    EXPECT_EQ(h.gpu->sm(0).l1d().requests_sent(), 1u);
    EXPECT_EQ(h.stat("gpu.l2.bank0.write_misses"), 1.0);
    EXPECT_EQ(h.stat("gpu.l2.bank0.misses"), 0.0);
    EXPECT_EQ(h.memory->requests(MemOp::Read), 0u);
    EXPECT_NO_THROW(h.gpu->check_invariants());
}

TEST(LocalWriteBack, ALoadOfSectorsNoStoreWroteFetchesTheLine) {
    // Lanes 0-7 store 4 B each: sector 0 of line 0 only. A full-warp load of the line
    // needs sectors 1-3 too, so it misses and fetches the line from the L2 (one miss,
    // one request sent, no write-back since the line is not evicted).
    std::vector<CtaRecords> ctas{{{local_store(0x10, 0, 4, 0xffu), local_load(0x20, 0)}}};
    GpuHarness h(kOneLineL1, one_app(make_trace(ctas, 1)), 100);
    h.run();
    EXPECT_EQ(h.stat("gpu.sm0.l1d.hits"), 0.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.misses"), 1.0);
    EXPECT_EQ(h.gpu->sm(0).l1d().requests_sent(), 1u);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.writebacks"), 0.0);
}

TEST(LocalWriteBack, AGlobalStoreStillGoesThroughToTheL2) {
    // The same 128 B stored as global data: written through to the L2 (one request, an
    // L2 write miss), not allocated in the L1, so the load after it misses there.
    std::vector<CtaRecords> ctas{{{store(0x10, 0x40000), load(0x20, 0x40000)}}};
    GpuHarness h(kOneLineL1, one_app(make_trace(ctas, 1)), 100);
    h.run();
    EXPECT_EQ(h.stat("gpu.sm0.l1d.stores"), 1.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.writebacks"), 0.0);
    EXPECT_EQ(h.stat("gpu.sm0.l1d.misses"), 1.0);
    EXPECT_EQ(h.stat("gpu.l2.bank0.write_misses"), 1.0);
    EXPECT_EQ(h.gpu->sm(0).l1d().requests_sent(), 2u);  // the store and the load's fill
}

}  // namespace
}  // namespace zng::gpu::testing
