#include "traces/workloads/storage/preprocess.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/storage/batch_calls.hpp"
#include "traces/workloads/storage/storage_workload.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kDirs{"dirs", "input directories (each gets an output directory)", 1, 1 << 20,
                          "the preset's: small 8, paper 96"};
const ProgramOption kFilesPerDir{"files_per_dir", "files per directory", 1, 1 << 16, "256"};
const ProgramOption kInKib{"in_kib", "KiB per input file, a multiple of 4", 4, 1 << 16,
                           "128 (ImageNet: 167 GB over about 1.33 M images, seed 001 Table 1)"};
const ProgramOption kOutKib{"out_kib", "KiB written per output file, a multiple of 4, at most in_kib", 4, 1 << 16,
                            "12 (seed 001 Table 1: the preprocessed ImageNet has \"12KB file size\")"};
const ProgramOption kTransformOps{"transform_ops",
                                  "warp instructions per KiB read that the transform spends (assumption: decode, "
                                  "resize and normalise; the seed gives no count)",
                                  0, 1 << 20, "64"};
const ProgramOption kHostTransform{"host_transform",
                                   "1: the host's CPU cores transform the files (seed 001's Host-Only), the GPU "
                                   "only sequences the calls; 0: the GPU transforms them",
                                   0, 1, "0"};
const ProgramOption kCtas{"ctas", "CTAs of 256 threads, each taking every ctas-th directory", 1, 1 << 16,
                          "min(dirs, 64)"};

constexpr uint32_t kThreads = 256;
constexpr uint32_t kWarps = kThreads / trace::kWarpSize;
constexpr uint64_t kOpenPc = 0x100, kReadPc = 0x104, kCreatePc = 0x108, kWritePc = 0x10c, kWaitPc = 0x110;
constexpr uint64_t kLoadPc = 0x120, kBarrierPc = 0x130;
struct Job {
    uint64_t dirs = 0, per_dir = 0, in_bytes = 0, out_bytes = 0, ops_per_kib = 0, ctas = 0;
    bool host = false;  // host_transform: data calls of kind HostTransform, no GPU work
    BatchCall data() const { return host ? BatchCall::HostTransform : BatchCall::Data; }
    uint64_t in_buffer[2] = {0, 0};  // per CTA: dirs' input, double-buffered
    uint64_t out_buffer = 0;
    uint64_t dir_in() const { return per_dir * in_bytes; }
};

// The leading thread's calls; tags 0, 1: the input buffer halves; 2: open/create/write.
void open_and_read(WarpEmitter& we, const Job& j, uint64_t dir, uint32_t cta, uint32_t half) {
    batch_submit(we, kOpenPc, BatchCall::Open, false, dir * j.per_dir, j.per_dir, 0, 2, 0);
    we.io_wait(kWaitPc, 2);
    batch_submit(we, kReadPc, j.data(), false, dir * j.per_dir, j.per_dir, j.dir_in(), half,
                 j.in_buffer[half] + uint64_t{cta} * j.dir_in());
}

void generate_preprocess(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "preprocess");
    Job j;
    j.dirs = static_cast<uint64_t>(option_or(ctx, kDirs, o.preset == "paper" ? 96 : 8));
    j.per_dir = static_cast<uint64_t>(option_or(ctx, kFilesPerDir, 256));
    j.in_bytes = static_cast<uint64_t>(option_or(ctx, kInKib, 128)) << 10;
    j.out_bytes = static_cast<uint64_t>(option_or(ctx, kOutKib, 12)) << 10;
    j.ops_per_kib = static_cast<uint64_t>(option_or(ctx, kTransformOps, 64));
    j.ctas = static_cast<uint64_t>(option_or(ctx, kCtas, static_cast<int64_t>(std::min<uint64_t>(j.dirs, 64))));
    j.host = option_or(ctx, kHostTransform, 0) == 1;
    if (j.in_bytes % 4096 || j.out_bytes % 4096 || j.out_bytes > j.in_bytes)
        throw std::invalid_argument("preprocess: 'in_kib' and 'out_kib' must be multiples of 4, out_kib <= in_kib");
    if (j.dir_in() >= uint64_t{1} << 32)
        throw std::invalid_argument("preprocess: a directory's input (files_per_dir x in_kib) must be below 4 GiB");
    j.ctas = std::min(j.ctas, j.dirs);
    if (!j.host) {  // on the host, the files stay in host memory
        j.in_buffer[0] = ctx.allocator().alloc("input0", j.ctas * j.dir_in());
        j.in_buffer[1] = ctx.allocator().alloc("input1", j.ctas * j.dir_in());
        j.out_buffer = ctx.allocator().alloc("output", j.ctas * j.per_dir * j.out_bytes);
    }

    trace::KernelInfo k;
    k.name = "preprocess";
    k.grid = {static_cast<uint32_t>(j.ctas), 1, 1};
    const uint32_t warps = j.host ? 1 : kWarps;  // on the host, one warp only issues the calls
    k.block = {warps * trace::kWarpSize, 1, 1};
    k.regs_per_thread = 64;
    KernelEmitter ke(ctx.writer(), k);
    const uint64_t blocks = j.dir_in() / 4096;
    const uint64_t ops = j.dir_in() / 1024 * j.ops_per_kib;
    for (uint32_t c = 0; c < j.ctas; ++c) {
        ke.begin_cta(c);
        for (uint32_t wi = 0; wi < warps; ++wi) {
            WarpEmitter& we = ke.warp(wi);
            if (wi == 0) open_and_read(we, j, c, c, 0);
            uint32_t step = 0;
            for (uint64_t d = c; d < j.dirs; d += j.ctas, ++step) {
                const uint32_t half = step % 2;
                if (wi == 0) {
                    we.io_wait(kWaitPc, half);
                    if (d + j.ctas < j.dirs) open_and_read(we, j, d + j.ctas, c, 1 - half);
                }
                if (!j.host) {
                    we.barrier(kBarrierPc);
                    // The transform: warp wi reads 4 KiB blocks wi, wi + 8, ... and
                    // spends its share of the instructions.
                    compute_on_blocks(we, wi, kWarps, ops, blocks, j.in_buffer[half] + c * j.dir_in(), kLoadPc);
                    we.barrier(kBarrierPc);
                }
                if (wi == 0) {
                    const uint64_t out_first = (j.dirs + d) * j.per_dir;
                    batch_submit(we, kCreatePc, BatchCall::Create, true, out_first, j.per_dir, 0, 2, 0);
                    we.io_wait(kWaitPc, 2);
                    batch_submit(we, kWritePc, j.data(), true, out_first, j.per_dir, j.per_dir * j.out_bytes,
                                 2, j.out_buffer + c * j.per_dir * j.out_bytes);
                    we.io_wait(kWaitPc, 2);
                }
            }
        }
        ke.end_cta();
    }
    ke.end();
}

}  // namespace

void register_preprocess(WorkloadRegistry& registry) {
    registry.add({"preprocess", "storage",
                  "dataset preprocessing: per directory, batch_open and batch_read the input files, transform them "
                  "on the GPU, create the output files and batch_write them (seed 001 Table 2)",
                  0, 1, {kDirs, kFilesPerDir, kInKib, kOutKib, kTransformOps, kHostTransform, kCtas}},
                 generate_preprocess);
}

}  // namespace zng::workloads
