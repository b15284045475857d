// Seed 004's benchmarks (traces/workloads/cache_vol): the records of small instances,
// counted by hand.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "dense_test_support.hpp"
#include "storage/cache_vol/file_close.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {
namespace {

// Per warp, in order: (kind, lane 0's storage offset or the phase's duration).
std::vector<std::vector<std::pair<trace::RecordKind, uint64_t>>> records(const std::string& name,
                                                                          const WorkloadOptions& o) {
    // One file per test: ctest runs the tests of this file in parallel.
    const std::string path =
        testing::tmp_trace(name + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    generate_workload(name, o, path);
    auto src = trace::open_trace(path);
    trace::KernelInfo k;
    trace::CtaTrace cta;
    std::vector<std::vector<std::pair<trace::RecordKind, uint64_t>>> out;
    while (src->next_kernel(k))
        while (src->next_cta(cta))
            for (const auto& w : cta.warps) {
                out.emplace_back();
                trace::WarpCursor c(w);
                trace::WarpRecord r;
                while (!c.done()) {
                    c.next(r);
                    if (r.kind == trace::RecordKind::IoSubmit) {
                        EXPECT_EQ(r.active_mask, 1u);  // lane 0 makes the rank's calls
                        out.back().emplace_back(r.kind, r.lane_addr(0));
                    } else if (r.kind == trace::RecordKind::Phase) {
                        out.back().emplace_back(r.kind, r.duration_ps);
                    } else if (r.kind == trace::RecordKind::IoWait || r.kind == trace::RecordKind::Barrier) {
                        out.back().emplace_back(r.kind, 0);
                    }
                }
            }
    return out;
}

TEST(CheckpointWorkload, EachIterationWritesItsDatasetComputesClosesAndMeets) {
    // 2 ranks x 2 iterations, 3 writes of 1 MiB each, 5 ms of compute: per rank and
    // iteration 3 x (submit, wait), a phase, the close's (submit, wait), a barrier:
    // 10 records, 20 per rank.
    WorkloadOptions o;
    o.program = {{"ranks", 2}, {"writes", 3}, {"write_mib", 1}, {"iterations", 2}, {"compute_ms", 5}};
    const auto warps = records("checkpoint", o);
    ASSERT_EQ(warps.size(), 2u);  // one CTA, a warp per rank
    using K = trace::RecordKind;
    for (uint64_t r = 0; r < 2; ++r) {
        const auto& w = warps[r];
        ASSERT_EQ(w.size(), 20u);
        for (uint64_t it = 0; it < 2; ++it) {
            const auto* p = &w[it * 10];
            for (uint64_t k = 0; k < 3; ++k) {
                EXPECT_EQ(p[2 * k].first, K::IoSubmit);
                // Rank r's k-th write of dataset `it`: (r x 3 + k) MiB into file `it`.
                EXPECT_EQ(p[2 * k].second, it << 40 | (r * 3 + k) << 20);
                EXPECT_EQ(p[2 * k + 1].first, K::IoWait);
            }
            EXPECT_EQ(p[6], std::make_pair(K::Phase, uint64_t{5'000'000'000}));  // 5 ms in ps
            EXPECT_EQ(p[7], std::make_pair(K::IoSubmit, storage::cache_vol::close_io_offset(it)));
            EXPECT_EQ(p[8].first, K::IoWait);
            EXPECT_EQ(p[9].first, K::Barrier);
        }
    }
}

TEST(CheckpointWorkload, VpicWrites256MiBPerRankPerStep) {
    // vpic=1: 8 writes of 32 MiB = 256 MiB per rank per time step (seed 004: "a total
    // of 256 MB"), 200 s of compute; 1 iteration asked for.
    WorkloadOptions o;
    o.program = {{"ranks", 1}, {"vpic", 1}, {"iterations", 1}};
    const auto warps = records("checkpoint", o);
    ASSERT_EQ(warps.size(), 1u);
    uint64_t writes = 0, last = 0, phase = 0;
    for (const auto& [kind, v] : warps[0]) {
        if (kind == trace::RecordKind::IoSubmit && !storage::cache_vol::is_close(v)) {
            ++writes;
            last = v;
        }
        if (kind == trace::RecordKind::Phase) phase = v;
    }
    EXPECT_EQ(writes, 8u);
    EXPECT_EQ(last, uint64_t{7} * (32 << 20));  // the 8th write starts at 224 MiB
    EXPECT_EQ(phase, uint64_t{200'000} * 1'000'000'000);
}

TEST(EpochReaderWorkload, EveryEpochReadsEachBatchOnceAndShufflingChangesTheOrder) {
    // 64 MiB in 16 MiB batches: 4 batches; 2 ranks read 2 each per epoch, 3 epochs.
    for (int random : {0, 1}) {
        WorkloadOptions o;
        o.program = {{"ranks", 2}, {"dataset_mib", 64}, {"batch_mib", 16}, {"epochs", 3}, {"random", random}};
        const auto warps = records("epoch_reader", o);
        ASSERT_EQ(warps.size(), 2u);
        std::vector<std::vector<uint64_t>> epoch_batches(3);  // per epoch, the batches read
        std::vector<std::vector<uint64_t>> rank_order(2);
        for (uint64_t r = 0; r < 2; ++r) {
            uint64_t reads = 0, barriers = 0;
            for (const auto& [kind, v] : warps[r]) {
                barriers += kind == trace::RecordKind::Barrier;
                if (kind != trace::RecordKind::IoSubmit) continue;
                epoch_batches[reads / 2].push_back(v >> 24);  // 16 MiB = 2^24 B
                rank_order[r].push_back(v >> 24);
                ++reads;
            }
            EXPECT_EQ(reads, 6u);     // 2 per epoch
            EXPECT_EQ(barriers, 6u);  // one per step (2 ranks)
        }
        for (auto& e : epoch_batches) EXPECT_EQ(std::set<uint64_t>(e.begin(), e.end()).size(), 4u);
        if (random == 0) {
            // Each rank re-reads its own batches: rank 0 batches 0, 2; rank 1 batches 1, 3.
            EXPECT_EQ(rank_order[0], (std::vector<uint64_t>{0, 2, 0, 2, 0, 2}));
            EXPECT_EQ(rank_order[1], (std::vector<uint64_t>{1, 3, 1, 3, 1, 3}));
        } else {
            // Seed 1's shuffles give rank 0 different batches in some epoch.
            EXPECT_NE(rank_order[0], (std::vector<uint64_t>{0, 2, 0, 2, 0, 2}));
        }
    }
}

}  // namespace
}  // namespace zng::workloads
