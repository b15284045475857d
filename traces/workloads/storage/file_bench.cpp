#include "traces/workloads/storage/file_bench.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/storage/storage_workload.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kFiles{"files", "files the grid reads or writes, each once", 1, int64_t{1} << 24,
                           "the preset's: small 4096, paper 100000 (seed 001: \"100K 16KB small files\")"};
const ProgramOption kFileKib{"file_kib", "KiB per file, each read or written in one request", 4, 4096, "16"};
const ProgramOption kThreads{"threads", "threads per CTA, a multiple of 32", 32, 1024, "256"};
const ProgramOption kCtas{"ctas", "CTAs (each thread handles files / (ctas x threads) files)", 1, 1 << 20,
                          "files / threads: one file per thread"};
const ProgramOption kWrite{"write", "1: writes, 0: reads", 0, 1, "0"};

constexpr uint32_t kFileShift = 40;  // storage/gofs/file_offset.hpp: offset = file << 40 | offset in the file
constexpr uint64_t kSubmitPc = 0x100;
constexpr uint64_t kWaitPc = 0x110;
constexpr uint32_t kAddressCompute = 6;  // file index, offset and buffer arithmetic

void generate_file_bench(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "file_bench");
    const uint64_t files = static_cast<uint64_t>(option_or(ctx, kFiles, o.preset == "paper" ? 100000 : 4096));
    const uint64_t size = static_cast<uint64_t>(option_or(ctx, kFileKib, 16)) << 10;
    const uint32_t threads = static_cast<uint32_t>(option_or(ctx, kThreads, 256));
    if (threads % trace::kWarpSize) throw std::invalid_argument("file_bench: option 'threads' must be a multiple of 32");
    const uint64_t ctas = static_cast<uint64_t>(option_or(ctx, kCtas, static_cast<int64_t>((files + threads - 1) / threads)));
    const uint64_t grid_threads = ctas * threads;
    const bool write = option_or(ctx, kWrite, 0) != 0;
    const uint64_t buffer = ctx.allocator().alloc("file_buffer", grid_threads * size);

    trace::TraceWriter& w = ctx.writer();
    trace::KernelInfo k;
    k.name = write ? "file_bench_write" : "file_bench_read";
    k.grid = {static_cast<uint32_t>(ctas), 1, 1};
    k.block = {threads, 1, 1};
    k.regs_per_thread = 32;
    KernelEmitter ke(w, k);
    const uint32_t warps = threads / trace::kWarpSize;
    for (uint64_t cta = 0; cta < ctas; ++cta) {
        ke.begin_cta(static_cast<uint32_t>(cta));
        for (uint32_t wi = 0; wi < warps; ++wi) {
            WarpEmitter& we = ke.warp(wi);
            const uint64_t tid0 = cta * threads + uint64_t{wi} * trace::kWarpSize;
            const uint64_t dest = buffer + tid0 * size;
            // Rounds of one file per thread; the last round's tail lanes have none.
            for (uint64_t first = tid0; first < files; first += grid_threads) {
                const uint64_t active = std::min<uint64_t>(trace::kWarpSize, files - first);
                const uint32_t mask = active == trace::kWarpSize ? kFullMask : (1u << active) - 1;
                we.compute(kAddressCompute);
                we.io_submit_strided(kSubmitPc, mask, write, static_cast<uint32_t>(size), wi, first << kFileShift,
                                     int64_t{1} << kFileShift, dest, static_cast<int64_t>(size));
                we.io_wait(kWaitPc, wi);
            }
        }
        ke.end_cta();
    }
    ke.end();
}

}  // namespace

void register_file_bench(WorkloadRegistry& registry) {
    registry.add({"file_bench", "storage",
                  "GPU threads each reading or writing whole small files (io_submit of file f at storage offset "
                  "f << 40, then io_wait), seed 001's multi-file microbenchmark",
                  0, 1, {kFiles, kFileKib, kThreads, kCtas, kWrite}},
                 generate_file_bench);
}

}  // namespace zng::workloads
