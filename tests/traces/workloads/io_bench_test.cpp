// io_bench: each thread's requests as io_submit + io_wait pairs, offsets and buffers as
// the options say, counted by hand.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "dense_test_support.hpp"
#include "traces/workloads/device_allocator.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

struct Seen {
    uint64_t ctas = 0, submits = 0, waits = 0, lanes = 0;
    std::vector<trace::WarpRecord> submit_records;
};

Seen read_all(const std::string& path) {
    Seen s;
    auto src = trace::open_trace(path);
    trace::KernelInfo k;
    trace::CtaTrace cta;
    while (src->next_kernel(k))
        while (src->next_cta(cta)) {
            ++s.ctas;
            for (const auto& w : cta.warps) {
                trace::WarpCursor c(w);
                trace::WarpRecord r;
                while (!c.done()) {
                    c.next(r);
                    if (r.kind == trace::RecordKind::IoSubmit) {
                        ++s.submits;
                        s.lanes += static_cast<uint64_t>(std::popcount(r.active_mask));
                        s.submit_records.push_back(r);
                    }
                    if (r.kind == trace::RecordKind::IoWait) ++s.waits;
                }
            }
        }
    return s;
}

TEST(IoBench, SequentialReadsCoverTheGridInOrder) {
    // 1024 requests, 64 threads per CTA, 8 CTAs: 512 threads, 2 requests each. Each
    // warp submits twice and waits twice: 16 warps x 2 = 32 submits of 32 lanes.
    WorkloadOptions o;
    o.program = {{"requests", 1024}, {"threads", 64}, {"ctas", 8}, {"random", 0}, {"request_size", 8192}};
    const std::string path = testing::tmp_trace("io_bench_seq");
    generate_workload("io_bench", o, path);
    const Seen s = read_all(path);
    EXPECT_EQ(s.ctas, 8u);
    EXPECT_EQ(s.submits, 32u);
    EXPECT_EQ(s.waits, 32u);
    EXPECT_EQ(s.lanes, 1024u);
    // Request r of thread t reads (r x 512 + t) x 8192; every block read exactly once.
    std::set<uint64_t> offsets;
    for (const auto& r : s.submit_records) {
        EXPECT_EQ(r.io_bytes, 8192u);
        EXPECT_FALSE(r.io_write);
        EXPECT_EQ(r.io_dest_stride, 8192);
        for (int l = 0; l < trace::kWarpSize; ++l) offsets.insert(r.lane_addr(l));
    }
    ASSERT_EQ(offsets.size(), 1024u);
    EXPECT_EQ(*offsets.begin(), 0u);
    EXPECT_EQ(*offsets.rbegin(), 1023u * 8192);
    // The first warp's buffers start the GPU buffer, the first allocation.
    EXPECT_EQ(s.submit_records[0].io_dest, kDeviceBase);
}

TEST(IoBench, RandomOffsetsAreAlignedAndInsideTheSpan) {
    WorkloadOptions o;
    o.program = {{"requests", 512}, {"span_mib", 1}, {"request_size", 4096}, {"write", 1}, {"scatter", 1}};
    const std::string path = testing::tmp_trace("io_bench_rand");
    generate_workload("io_bench", o, path);
    const Seen s = read_all(path);
    EXPECT_EQ(s.lanes, 512u);
    for (const auto& r : s.submit_records) {
        EXPECT_TRUE(r.io_write);
        EXPECT_EQ(r.io_dest_stride, 2 * 4096);  // scatter: a request-sized gap
        for (int l = 0; l < trace::kWarpSize; ++l) {
            EXPECT_EQ(r.lane_addr(l) % 4096, 0u);
            EXPECT_LT(r.lane_addr(l), uint64_t{1} << 20);
        }
    }
}

TEST(IoBench, RejectsRequestsThatDoNotFillTheGrid) {
    WorkloadOptions o;
    o.program = {{"requests", 100}, {"threads", 64}, {"ctas", 1}};
    EXPECT_THROW(generate_workload("io_bench", o, testing::tmp_trace("io_bench_bad")), std::invalid_argument);
}

}  // namespace
}  // namespace zng::workloads
