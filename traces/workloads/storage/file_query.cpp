#include "traces/workloads/storage/file_query.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "traces/workloads/storage/batch_calls.hpp"
#include "traces/workloads/storage/storage_workload.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kBatches{"batches", "batches (directories) the query scores", 1, 1 << 20,
                             "the preset's: small 4, paper 16"};
const ProgramOption kBatchFiles{"batch_files", "files per batch, a multiple of ctas", 1, 1 << 22,
                                "the preset's: small 1024, paper 8192"};
const ProgramOption kFileKib{"file_kib", "KiB per file, a multiple of 4", 4, 1 << 16,
                             "12 (seed 001 Table 1: \"12KB file size\")"};
const ProgramOption kOpsPerFile{"ops_per_file",
                                "warp instructions the DNN spends per sample (assumption: the seed gives no count)", 0,
                                1 << 24, "1024"};
const ProgramOption kCtas{"ctas", "CTAs of 256 threads, each fetching and scoring its share of every batch", 1,
                          1 << 16, "64"};
const ProgramOption kBatch{"batch", "1: batch_open + batch_read per CTA and batch; 0: one read per file", 0, 1, "1"};

constexpr uint32_t kThreads = 256;
constexpr uint32_t kWarps = kThreads / trace::kWarpSize;
constexpr uint64_t kOpenPc = 0x100, kReadPc = 0x104, kWaitPc = 0x110, kLoadPc = 0x120, kBarrierPc = 0x130;
constexpr uint32_t kAddressCompute = 6;  // a lane's file number and buffer slot
constexpr uint32_t kOpenTag = 2;

struct Query {
    uint64_t batches = 0, batch_files = 0, file_bytes = 0, ops_per_file = 0, ctas = 0, share = 0;
    bool batched = true;
    uint64_t buffer[2] = {0, 0};  // per CTA: its share of a batch
    uint64_t share_bytes() const { return share * file_bytes; }
};

// CTA c's fetch of batch b into buffer half `half`, as warp wi issues it.
void fetch(WarpEmitter& we, const Query& q, uint64_t b, uint32_t c, uint32_t wi, uint32_t half) {
    const uint64_t first = b * q.batch_files + c * q.share;
    const uint64_t dest = q.buffer[half] + c * q.share_bytes();
    if (q.batched) {
        if (wi != 0) return;
        batch_submit(we, kOpenPc, BatchCall::Open, false, first, q.share, 0, kOpenTag, 0);
        we.io_wait(kWaitPc, kOpenTag);
        batch_submit(we, kReadPc, BatchCall::Data, false, first, q.share, q.share_bytes(), half, dest);
        return;
    }
    // Thread t reads files t, t + 256, ... of the CTA's share.
    for (uint64_t k = uint64_t{wi} * trace::kWarpSize; k < q.share; k += kThreads) {
        const uint64_t active = std::min<uint64_t>(trace::kWarpSize, q.share - k);
        const uint32_t mask = active == trace::kWarpSize ? kFullMask : (1u << active) - 1;
        we.compute(kAddressCompute);
        we.io_submit_strided(kReadPc, mask, false, static_cast<uint32_t>(q.file_bytes), half,
                             file_offset(first + k, 0), int64_t{1} << 40, dest + k * q.file_bytes,
                             static_cast<int64_t>(q.file_bytes));
    }
}

// Warp wi's share of scoring the CTA's files in buffer half `half`.
void score(WarpEmitter& we, const Query& q, uint32_t c, uint32_t wi, uint32_t half) {
    const uint64_t blocks = q.share_bytes() / 4096;
    const uint64_t ops = q.share * q.ops_per_file;
    compute_on_blocks(we, wi, kWarps, ops, blocks, q.buffer[half] + c * q.share_bytes(), kLoadPc);
}

void generate_file_query(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "file_query");
    const bool paper = o.preset == "paper";
    Query q;
    q.batches = static_cast<uint64_t>(option_or(ctx, kBatches, paper ? 16 : 4));
    q.batch_files = static_cast<uint64_t>(option_or(ctx, kBatchFiles, paper ? 8192 : 1024));
    q.file_bytes = static_cast<uint64_t>(option_or(ctx, kFileKib, 12)) << 10;
    q.ops_per_file = static_cast<uint64_t>(option_or(ctx, kOpsPerFile, 1024));
    q.ctas = static_cast<uint64_t>(option_or(ctx, kCtas, 64));
    q.batched = option_or(ctx, kBatch, 1) != 0;
    if (q.file_bytes % 4096) throw std::invalid_argument("file_query: option 'file_kib' must be a multiple of 4");
    if (q.batch_files % q.ctas)
        throw std::invalid_argument("file_query: 'batch_files' (" + std::to_string(q.batch_files) +
                                    ") must be a multiple of 'ctas' (" + std::to_string(q.ctas) + ")");
    q.share = q.batch_files / q.ctas;
    if (q.share_bytes() >= uint64_t{1} << 32)
        throw std::invalid_argument("file_query: a CTA's share of a batch must be below 4 GiB");
    q.buffer[0] = ctx.allocator().alloc("batch0", q.ctas * q.share_bytes());
    q.buffer[1] = ctx.allocator().alloc("batch1", q.ctas * q.share_bytes());

    trace::KernelInfo k;
    k.name = q.batched ? "file_query_batched" : "file_query";
    k.grid = {static_cast<uint32_t>(q.ctas), 1, 1};
    k.block = {kThreads, 1, 1};
    k.regs_per_thread = 64;
    KernelEmitter ke(ctx.writer(), k);
    for (uint32_t c = 0; c < q.ctas; ++c) {
        ke.begin_cta(c);
        for (uint32_t wi = 0; wi < kWarps; ++wi) {
            WarpEmitter& we = ke.warp(wi);
            fetch(we, q, 0, c, wi, 0);
            for (uint64_t b = 0; b < q.batches; ++b) {
                const uint32_t half = static_cast<uint32_t>(b % 2);
                if (q.batched ? wi == 0 : true) we.io_wait(kWaitPc, half);
                we.barrier(kBarrierPc);  // batch b is in; half 1 - half is free again
                if (b + 1 < q.batches) fetch(we, q, b + 1, c, wi, 1 - half);
                score(we, q, c, wi, half);
            }
        }
        ke.end_cta();
    }
    ke.end();
}

}  // namespace

void register_file_query(WorkloadRegistry& registry) {
    registry.add({"file_query", "storage",
                  "intelligent queries: batches of small files fetched (batched calls or a read per file) into a "
                  "double buffer and scored by a DNN, the next batch's fetch pipelined with the scoring (seed 001 "
                  "§4.3.1)",
                  0, 1, {kBatches, kBatchFiles, kFileKib, kOpsPerFile, kCtas, kBatch}},
                 generate_file_query);
}

}  // namespace zng::workloads
