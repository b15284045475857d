// streamer_ml: the caching pass's writes and closes, every pass's reads and phases,
// counted by hand.
#include <gtest/gtest.h>

#include <set>

#include "dense_test_support.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

struct Counts {
    uint32_t kernels = 0;
    uint64_t reads = 0, writes = 0, closes = 0, waits = 0, phases = 0, phase_ps = 0;
    std::vector<std::pair<uint64_t, bool>> task0;  // (offset, write) of task 0's requests, in order
};

Counts read_all(const std::string& path) {
    constexpr uint64_t kClose = (uint64_t{1} << 40) - 4096;
    Counts s;
    auto src = trace::open_trace(path);
    trace::KernelInfo k;
    trace::CtaTrace cta;
    while (src->next_kernel(k)) {
        ++s.kernels;
        while (src->next_cta(cta)) {
            trace::WarpCursor c(cta.warps[0]);
            trace::WarpRecord r;
            while (!c.done()) {
                c.next(r);
                if (r.kind == trace::RecordKind::IoSubmit) {
                    const uint64_t off = r.lane_addr(0);
                    if ((off & ((uint64_t{1} << 40) - 1)) == kClose) ++s.closes;
                    else ++(r.io_write ? s.writes : s.reads);
                    if (cta.cta_id == 0) s.task0.emplace_back(off, r.io_write);
                }
                if (r.kind == trace::RecordKind::IoWait) ++s.waits;
                if (r.kind == trace::RecordKind::Phase) {
                    ++s.phases;
                    s.phase_ps += r.duration_ps;
                }
            }
        }
    }
    return s;
}

TEST(StreamerMl, CachesThenReReadsEveryPartitionSblockBySblock) {
    // 3 partitions of 8 MiB = 2 sblocks of 4 MiB, 2 tasks (task 0: partitions 0 and 2,
    // task 1: partition 1), 2 passes after the caching pass: 3 kernels. Caching: 6 sblock
    // writes and 3 closes; passes: 2 x 6 = 12 reads. Every request is waited for: 21
    // waits. Phases: one per sblock per pass, 3 x 6 = 18, each 2,000 ps x 4 MiB =
    // 8,388,608,000 ps.
    WorkloadOptions o;
    o.program = {{"partitions", 3}, {"partition_mib", 8}, {"tasks", 2}, {"iterations", 2}};
    const std::string path = testing::tmp_trace("streamer_ml");
    generate_workload("streamer_ml", o, path);
    const Counts s = read_all(path);
    EXPECT_EQ(s.kernels, 3u);
    EXPECT_EQ(s.writes, 6u);
    EXPECT_EQ(s.closes, 3u);
    EXPECT_EQ(s.reads, 12u);
    EXPECT_EQ(s.waits, 21u);
    EXPECT_EQ(s.phases, 18u);
    EXPECT_EQ(s.phase_ps, 18u * 8'388'608'000u);
    // Task 0 writes partition 0 at offsets 0 and 4 MiB, closes it, then partition 2
    // (stream 2: 2 << 40); its first pass reads stream 0 from offset 0.
    ASSERT_GE(s.task0.size(), 7u);
    EXPECT_EQ(s.task0[0], (std::pair<uint64_t, bool>{0, true}));
    EXPECT_EQ(s.task0[1], (std::pair<uint64_t, bool>{4u << 20, true}));
    EXPECT_EQ(s.task0[3], (std::pair<uint64_t, bool>{uint64_t{2} << 40, true}));
    EXPECT_EQ(s.task0[6], (std::pair<uint64_t, bool>{0, false}));
}

TEST(StreamerMl, WriteBackRewritesASecondStreamEachPass) {
    // write_back 1: each pass also writes stream partitions + p, sblock by sblock, and
    // closes it: 1 partition of 1 sblock, 1 task, 2 passes: 1 + 2 writes, 1 + 2 closes.
    WorkloadOptions o;
    o.program = {{"partitions", 1}, {"partition_mib", 4}, {"tasks", 1}, {"iterations", 2}, {"write_back", 1}};
    const std::string path = testing::tmp_trace("streamer_ml_wb");
    generate_workload("streamer_ml", o, path);
    const Counts s = read_all(path);
    EXPECT_EQ(s.writes, 3u);
    EXPECT_EQ(s.closes, 3u);
    EXPECT_EQ(s.reads, 2u);
    EXPECT_EQ(s.task0[3].first, uint64_t{1} << 40);  // pass 1's updated partition: stream 1
}

TEST(StreamerMl, RefusesAPartitionThatIsNotWholeSblocks) {
    WorkloadOptions o;
    o.program = {{"partition_mib", 6}};
    EXPECT_THROW(generate_workload("streamer_ml", o, testing::tmp_trace("streamer_ml_bad")), std::invalid_argument);
}

}  // namespace
}  // namespace zng::workloads
