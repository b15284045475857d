// file_bench: each thread reads or writes whole files, file f at storage offset f << 40,
// counted by hand.
#include <gtest/gtest.h>

#include <bit>
#include <set>

#include "dense_test_support.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

TEST(FileBench, EveryFileIsSubmittedOnceWholeAtItsFileOffset) {
    // 40 files of 16 KiB, 32 threads per CTA, 1 CTA: warp 0 submits files 0..31 (all
    // lanes), then files 32..39 (lanes 0..7): 2 submits, 2 waits, 40 lanes.
    WorkloadOptions o;
    o.program = {{"files", 40}, {"threads", 32}, {"ctas", 1}, {"write", 1}};
    const std::string path = testing::tmp_trace("file_bench");
    generate_workload("file_bench", o, path);
    auto src = trace::open_trace(path);
    trace::KernelInfo k;
    trace::CtaTrace cta;
    uint64_t submits = 0, waits = 0, lanes = 0;
    std::set<uint64_t> offsets;
    std::vector<uint32_t> masks;
    while (src->next_kernel(k))
        while (src->next_cta(cta))
            for (const auto& w : cta.warps) {
                trace::WarpCursor c(w);
                trace::WarpRecord r;
                while (!c.done()) {
                    c.next(r);
                    if (r.kind == trace::RecordKind::IoWait) ++waits;
                    if (r.kind != trace::RecordKind::IoSubmit) continue;
                    ++submits;
                    masks.push_back(r.active_mask);
                    lanes += static_cast<uint64_t>(std::popcount(r.active_mask));
                    EXPECT_EQ(r.io_bytes, 16384u);
                    EXPECT_TRUE(r.io_write);
                    for (int l = 0; l < trace::kWarpSize; ++l)
                        if (r.active_mask >> l & 1) offsets.insert(r.lane_addr(l));
                }
            }
    EXPECT_EQ(submits, 2u);
    EXPECT_EQ(waits, 2u);
    EXPECT_EQ(lanes, 40u);
    ASSERT_EQ(masks.size(), 2u);
    EXPECT_EQ(masks[1], 0xffu);
    ASSERT_EQ(offsets.size(), 40u);
    EXPECT_EQ(*offsets.begin(), 0u);
    EXPECT_EQ(*offsets.rbegin(), uint64_t{39} << 40);  // file 39, offset 0
}

}  // namespace
}  // namespace zng::workloads
