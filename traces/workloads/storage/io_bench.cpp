#include "traces/workloads/storage/io_bench.hpp"

#include <stdexcept>
#include <string>

#include "traces/workloads/graph/random_stream.hpp"
#include "traces/workloads/storage/file_bench.hpp"
#include "traces/workloads/storage/file_graph.hpp"
#include "traces/workloads/storage/file_query.hpp"
#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/storage/storage_workload.hpp"
#include "traces/workloads/storage/gemm_ooc.hpp"
#include "traces/workloads/storage/gnn_gather.hpp"
#include "traces/workloads/storage/merge_sort.hpp"
#include "traces/workloads/storage/preprocess.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kRequestSize{"request_size", "bytes per request, a power of two (512 B - 128 KiB)", 512, 131072,
                                 "4096"};
const ProgramOption kRequests{"requests", "requests of the whole grid", 1, int64_t{1} << 30,
                              "the preset's: small 8192, paper 262144"};
const ProgramOption kThreads{"threads", "threads per CTA, a multiple of 32", 32, 1024, "256"};
const ProgramOption kCtas{"ctas", "CTAs (each thread issues requests / (ctas x threads))", 1, 1 << 20,
                          "requests / threads: one request per thread"};
const ProgramOption kRandom{"random", "1: random offsets, 0: sequential", 0, 1, "1"};
const ProgramOption kWrite{"write", "1: writes, 0: reads", 0, 1, "0"};
const ProgramOption kSpanMib{"span_mib", "MiB of storage the random offsets cover", 1, int64_t{1} << 32,
                             "65536 (64 GiB)"};
const ProgramOption kScatter{"scatter", "1: neighbouring threads' buffers are not adjacent (a gap of one request)",
                             0, 1, "0"};

constexpr uint64_t kSubmitPc = 0x100;
constexpr uint64_t kWaitPc = 0x110;
constexpr uint32_t kAddressCompute = 6;  // request index, offset and buffer arithmetic

void generate_io_bench(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "io_bench");
    const uint64_t size = static_cast<uint64_t>(option_or(ctx, kRequestSize, 4096));
    if (size & (size - 1)) throw std::invalid_argument("io_bench: option 'request_size' must be a power of two");
    const uint64_t requests = static_cast<uint64_t>(option_or(ctx, kRequests, o.preset == "paper" ? 262144 : 8192));
    const uint32_t threads = static_cast<uint32_t>(option_or(ctx, kThreads, 256));
    if (threads % trace::kWarpSize) throw std::invalid_argument("io_bench: option 'threads' must be a multiple of 32");
    const uint64_t ctas = static_cast<uint64_t>(option_or(ctx, kCtas, static_cast<int64_t>((requests + threads - 1) / threads)));
    const uint64_t grid_threads = ctas * threads;
    if (requests % grid_threads)
        throw std::invalid_argument("io_bench: 'requests' (" + std::to_string(requests) +
                                    ") must be a multiple of ctas x threads (" + std::to_string(grid_threads) + ")");
    const uint64_t per_thread = requests / grid_threads;
    const bool random = option_or(ctx, kRandom, 1) != 0;
    const bool write = option_or(ctx, kWrite, 0) != 0;
    const uint64_t span = static_cast<uint64_t>(option_or(ctx, kSpanMib, 65536)) << 20;
    if (span < size) throw std::invalid_argument("io_bench: option 'span_mib' is below one request");
    const int64_t dest_stride = static_cast<int64_t>(size) * (option_or(ctx, kScatter, 0) ? 2 : 1);
    const uint64_t buffer = ctx.allocator().alloc("io_buffer", grid_threads * static_cast<uint64_t>(dest_stride));

    trace::TraceWriter& w = ctx.writer();
    trace::KernelInfo k;
    k.name = write ? "io_bench_write" : "io_bench_read";
    k.grid = {static_cast<uint32_t>(ctas), 1, 1};
    k.block = {threads, 1, 1};
    k.regs_per_thread = 32;
    KernelEmitter ke(w, k);
    graph::RandomStream rng(o.seed);
    const uint32_t warps = threads / trace::kWarpSize;
    for (uint64_t cta = 0; cta < ctas; ++cta) {
        ke.begin_cta(static_cast<uint32_t>(cta));
        for (uint32_t wi = 0; wi < warps; ++wi) {
            WarpEmitter& we = ke.warp(wi);
            const uint64_t tid0 = cta * threads + uint64_t{wi} * trace::kWarpSize;
            const uint64_t dest = buffer + tid0 * static_cast<uint64_t>(dest_stride);
            for (uint64_t r = 0; r < per_thread; ++r) {
                we.compute(kAddressCompute);
                if (random) {
                    LaneAddrs off{};
                    for (int l = 0; l < trace::kWarpSize; ++l) off[l] = rng.next_below(span / size) * size;
                    we.io_submit(kSubmitPc, kFullMask, write, static_cast<uint32_t>(size), wi, off, dest, dest_stride);
                } else {
                    const uint64_t first = (r * grid_threads + tid0) * size;
                    we.io_submit_strided(kSubmitPc, kFullMask, write, static_cast<uint32_t>(size), wi, first,
                                         static_cast<int64_t>(size), dest, dest_stride);
                }
                we.io_wait(kWaitPc, wi);
            }
        }
        ke.end_cta();
    }
    ke.end();
}

}  // namespace

void register_storage_workloads(WorkloadRegistry& registry) {
    register_gnn_gather(registry);
    register_gemm_ooc(registry);
    register_merge_sort(registry);
    registry.add({"io_bench", "storage",
                  "GPU threads each issuing storage requests (io_submit, then io_wait), random or sequential, "
                  "reads or writes (seed 000 IV-B)",
                  0, 1, {kRequestSize, kRequests, kThreads, kCtas, kRandom, kWrite, kSpanMib, kScatter}},
                 generate_io_bench);
    register_file_bench(registry);
    register_preprocess(registry);
    register_file_query(registry);
    register_file_graph(registry);
}

}  // namespace zng::workloads
