#include "traces/workloads/streamer/streamer_ml.hpp"

#include <stdexcept>
#include <string>

#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/storage/storage_workload.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kPartitions{"partitions", "cached partitions (RDD partitions)", 1, 1 << 20,
                                "the preset's: small 16, paper 2304 (288 GiB, 1.6x seed 002's 192 GB DRAM cache)"};
const ProgramOption kPartitionMib{"partition_mib", "MiB per partition, a multiple of sblock_kib", 1, 1 << 20,
                                  "the preset's: small 16, paper 128"};
const ProgramOption kIterations{"iterations", "passes re-reading every partition after the caching pass", 1, 1000,
                                "the preset's: small 3, paper 10"};
const ProgramOption kTasks{"tasks",
                           "concurrent task slots (seed 002: two Xeon E5-2640v3 per node, 2 x 8 cores x 2 threads)",
                           1, 65535, "32"};
const ProgramOption kComputePs{"compute_ps_per_byte",
                               "compute time per byte of a partition, each pass (assumption: 2 ns/B)", 1,
                               1'000'000, "2000"};
const ProgramOption kWriteBack{"write_back", "1: each pass also writes an updated partition (a second stream)", 0,
                               1, "0"};
const ProgramOption kSblockKib{"sblock_kib", "KiB per request, the tier's sblock_size", 4, 1 << 20, "4096"};

constexpr uint32_t kStreamShift = 40;  // storage/streamer/stream_offset.hpp: offset = stream << 40 | offset
constexpr uint64_t kCloseOffset = (uint64_t{1} << kStreamShift) - 4096;  // kStreamCloseOffset there
constexpr uint32_t kCloseBytes = 512;
constexpr uint64_t kReadPc = 0x100, kWritePc = 0x104, kClosePc = 0x108, kWaitPc = 0x110, kComputePc = 0x120;

struct Job {
    uint64_t partitions = 0, sblocks = 0, sblock = 0, compute = 0;
    uint32_t tasks = 0;
    uint64_t buffer = 0;
    bool write_back = false;
};

void request(WarpEmitter& we, const Job& j, uint32_t task, uint64_t pc, bool write, uint32_t bytes, uint64_t offset) {
    we.io_submit_strided(pc, 1u, write, bytes, 0, offset, 0, j.buffer + task * j.sblock, 0);
    we.io_wait(kWaitPc, 0);
}

void write_stream(WarpEmitter& we, const Job& j, uint32_t task, uint64_t stream, uint64_t k) {
    request(we, j, task, kWritePc, true, static_cast<uint32_t>(j.sblock), stream << kStreamShift | k * j.sblock);
}

void close_stream(WarpEmitter& we, const Job& j, uint32_t task, uint64_t stream) {
    request(we, j, task, kClosePc, true, kCloseBytes, stream << kStreamShift | kCloseOffset);
}

void task_pass(WarpEmitter& we, const Job& j, uint32_t task, bool caching) {
    for (uint64_t p = task; p < j.partitions; p += j.tasks) {
        for (uint64_t k = 0; k < j.sblocks; ++k) {
            if (!caching)
                request(we, j, task, kReadPc, false, static_cast<uint32_t>(j.sblock), p << kStreamShift | k * j.sblock);
            we.phase(kComputePc, j.compute * j.sblock);
            if (caching) write_stream(we, j, task, p, k);
            if (!caching && j.write_back) write_stream(we, j, task, j.partitions + p, k);
        }
        if (caching) close_stream(we, j, task, p);
        if (!caching && j.write_back) close_stream(we, j, task, j.partitions + p);
    }
}

void generate_streamer_ml(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "streamer_ml");
    const bool paper = o.preset == "paper";
    Job j;
    j.partitions = static_cast<uint64_t>(option_or(ctx, kPartitions, paper ? 2304 : 16));
    const uint64_t partition = static_cast<uint64_t>(option_or(ctx, kPartitionMib, paper ? 128 : 16)) << 20;
    j.sblock = static_cast<uint64_t>(option_or(ctx, kSblockKib, 4096)) << 10;
    if (partition % j.sblock != 0)
        throw std::invalid_argument("streamer_ml: option 'partition_mib' must be a multiple of 'sblock_kib'");
    if (j.sblock > trace::kMaxIoBytes) throw std::invalid_argument("streamer_ml: option 'sblock_kib' is too large");
    j.sblocks = partition / j.sblock;
    j.tasks = static_cast<uint32_t>(option_or(ctx, kTasks, 32));
    j.compute = static_cast<uint64_t>(option_or(ctx, kComputePs, 2000));
    j.write_back = option_or(ctx, kWriteBack, 0) != 0;
    const uint64_t iterations = static_cast<uint64_t>(option_or(ctx, kIterations, paper ? 10 : 3));
    j.buffer = ctx.allocator().alloc("task_buffers", uint64_t{j.tasks} * j.sblock);

    for (uint64_t it = 0; it <= iterations; ++it) {
        trace::KernelInfo k;
        k.name = it == 0 ? "cache" : "iterate";
        k.grid = {j.tasks, 1, 1};
        k.block = {trace::kWarpSize, 1, 1};
        k.regs_per_thread = 32;
        KernelEmitter ke(ctx.writer(), k);
        for (uint32_t t = 0; t < j.tasks; ++t) {
            ke.begin_cta(t);
            task_pass(ke.warp(0), j, t, it == 0);
            ke.end_cta();
        }
        ke.end();
    }
}

}  // namespace

void register_streamer_workloads(WorkloadRegistry& registry) {
    registry.add({"streamer_ml", "storage",
                  "iterative ML over cached partitions larger than host DRAM: a caching pass writes each partition "
                  "sblock by sblock, then every pass re-reads them, computing on each sblock (seed 002)",
                  0, 0, {kPartitions, kPartitionMib, kIterations, kTasks, kComputePs, kWriteBack, kSblockKib}},
                 generate_streamer_ml);
}

}  // namespace zng::workloads
