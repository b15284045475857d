#include "traces/workloads/cache_vol/cache_vol_workloads.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "storage/cache_vol/file_close.hpp"
#include "traces/workloads/graph/random_stream.hpp"
#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/storage/storage_workload.hpp"

namespace zng::workloads {
namespace {

const ProgramOption kRanks{"ranks", "MPI processes on the simulated node, one warp each of one CTA", 1, 32,
                           "16 (seed 004 IV: \"16 MPI processes per node on Theta\"); epoch_reader: 1"};
const ProgramOption kWriteMib{"write_mib", "MiB per write call", 1, 1024,
                              "16 (seed 004: \"Each process is writing 16 MB\"); vpic: 32 (256 MB in 8 properties)"};
const ProgramOption kWrites{"writes", "write calls per rank per iteration", 1, 1 << 20, "8"};
const ProgramOption kIterations{"iterations", "iterations, each writing and closing its own dataset", 1, 1 << 20,
                                "the preset's: small 2, paper 32 (vpic: 20 time steps)"};
const ProgramOption kComputeMs{"compute_ms", "emulated compute per iteration, between the writes and the close (ms)",
                               0, int64_t{1} << 30, "0 (vpic: 200000, seed 004's 200 s sleep on Theta)"};
const ProgramOption kVpic{"vpic", "1: VPIC-IO's defaults (32 MiB x 8 per rank, 20 steps, 200 s compute)", 0, 1, "0"};

const ProgramOption kDatasetMib{"dataset_mib", "MiB of the shared file read once per epoch", 1, int64_t{1} << 30,
                                "the preset's: small 1024, paper 262144 (seed 004 Table III(a): 256 GB)"};
const ProgramOption kBatchMib{"batch_mib", "MiB per batch (one read call)", 1, 1024,
                              "16 (the cache_vol plane's default chunk_size)"};
const ProgramOption kEpochs{"epochs", "passes over the dataset", 1, 1 << 20, "4 (seed 004 Table III: 4 iterations)"};
const ProgramOption kStepMs{"step_ms", "training step after each batch (ms)", 0, int64_t{1} << 30, "0"};
const ProgramOption kRandom{"random", "1: batches shuffled anew every epoch, 0: each rank re-reads its own", 0, 1,
                            "1"};

constexpr uint64_t kWritePc = 0x100, kComputePc = 0x110, kClosePc = 0x120, kReadPc = 0x130, kWaitPc = 0x140,
                   kBarrierPc = 0x150;
constexpr uint64_t kMs = 1'000'000'000;  // ps per ms
constexpr uint32_t kTag = 0;

uint64_t mib(int64_t v) { return static_cast<uint64_t>(v) << 20; }

// The ranks are the warps of one CTA, so that a CTA barrier can be their collective
// call: parallel HDF5's H5Dcreate and H5Dclose are collective (every process of the
// file's communicator makes them), and a training step ends in an allreduce.
trace::KernelInfo rank_kernel(const char* name, uint64_t ranks) {
    trace::KernelInfo k;
    k.name = name;
    k.grid = {1, 1, 1};
    k.block = {static_cast<uint32_t>(ranks) * trace::kWarpSize, 1, 1};
    k.regs_per_thread = 32;
    return k;
}

// One blocking call of lane 0: the request, then the wait for it.
void blocking_io(WarpEmitter& we, uint64_t pc, bool write, uint64_t bytes, uint64_t offset, uint64_t dest) {
    we.io_submit_strided(pc, 1u, write, static_cast<uint32_t>(bytes), kTag, offset, 0, dest, 0);
    we.io_wait(kWaitPc, kTag);
}

void generate_checkpoint(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "checkpoint");
    const bool vpic = option_or(ctx, kVpic, 0) != 0;
    const uint64_t ranks = static_cast<uint64_t>(option_or(ctx, kRanks, 16));
    const uint64_t size = mib(option_or(ctx, kWriteMib, vpic ? 32 : 16));
    const uint64_t writes = static_cast<uint64_t>(option_or(ctx, kWrites, 8));
    const uint64_t iterations =
        static_cast<uint64_t>(option_or(ctx, kIterations, vpic ? 20 : o.preset == "paper" ? 32 : 2));
    const uint64_t compute = static_cast<uint64_t>(option_or(ctx, kComputeMs, vpic ? 200000 : 0)) * kMs;
    if (compute > trace::kMaxPhasePs) throw std::invalid_argument("checkpoint: option 'compute_ms' is too long");
    const uint64_t buffer = ctx.allocator().alloc("checkpoint_buffer", ranks * size);

    KernelEmitter ke(ctx.writer(), rank_kernel(vpic ? "vpic_io" : "checkpoint", ranks));
    ke.begin_cta(0);
    for (uint64_t r = 0; r < ranks; ++r) {
        WarpEmitter& we = ke.warp(static_cast<uint32_t>(r));
        for (uint64_t it = 0; it < iterations; ++it) {
            // Rank r's w-th write lands at its own place in the shared dataset.
            for (uint64_t w = 0; w < writes; ++w)
                blocking_io(we, kWritePc, true, size, storage::gofs::file_io_offset(it, (r * writes + w) * size),
                            buffer + r * size);
            if (compute != 0) we.phase(kComputePc, compute);
            blocking_io(we, kClosePc, false, storage::cache_vol::kCloseBytes, storage::cache_vol::close_io_offset(it),
                        buffer + r * size);
            we.barrier(kBarrierPc);
        }
    }
    ke.end_cta();
    ke.end();
}

void generate_epoch_reader(WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    refuse_graph_inputs(ctx, "epoch_reader");
    const uint64_t ranks = static_cast<uint64_t>(option_or(ctx, kRanks, 1));
    const uint64_t batch = mib(option_or(ctx, kBatchMib, 16));
    const uint64_t dataset = mib(option_or(ctx, kDatasetMib, o.preset == "paper" ? 262144 : 1024));
    const uint64_t epochs = static_cast<uint64_t>(option_or(ctx, kEpochs, 4));
    const uint64_t step = static_cast<uint64_t>(option_or(ctx, kStepMs, 0)) * kMs;
    const bool random = option_or(ctx, kRandom, 1) != 0;
    if (dataset % batch != 0)
        throw std::invalid_argument("epoch_reader: 'dataset_mib' must be a multiple of 'batch_mib'");
    const uint64_t batches = dataset / batch;
    if (batches % ranks != 0)
        throw std::invalid_argument("epoch_reader: the dataset's " + std::to_string(batches) +
                                    " batches must divide evenly over 'ranks'");
    const uint64_t buffer = ctx.allocator().alloc("batch_buffer", ranks * batch);

    // order[e][k]: the batch read at position k of epoch e; position k goes to rank k mod ranks.
    std::vector<std::vector<uint32_t>> order(epochs, std::vector<uint32_t>(batches));
    graph::RandomStream rng(o.seed);
    for (auto& e : order) {
        std::iota(e.begin(), e.end(), 0u);
        if (!random) continue;
        for (uint64_t i = batches - 1; i > 0; --i) std::swap(e[i], e[rng.next_below(i + 1)]);
    }
    KernelEmitter ke(ctx.writer(), rank_kernel("epoch_reader", ranks));
    ke.begin_cta(0);
    for (uint64_t r = 0; r < ranks; ++r) {
        WarpEmitter& we = ke.warp(static_cast<uint32_t>(r));
        for (const auto& e : order)
            for (uint64_t k = r; k < batches; k += ranks) {
                blocking_io(we, kReadPc, false, batch, uint64_t{e[k]} * batch, buffer + r * batch);
                if (step != 0) we.phase(kComputePc, step);
                if (ranks > 1) we.barrier(kBarrierPc);
            }
    }
    ke.end_cta();
    ke.end();
}

}  // namespace

void register_cache_vol_workloads(WorkloadRegistry& registry) {
    registry.add({"checkpoint", "storage",
                  "ranks writing a shared dataset per iteration (writes, a compute phase, the dataset's close), "
                  "seed 004's check-pointing microbenchmark and VPIC-IO (vpic=1); for control plane cache_vol",
                  0, 1, {kRanks, kWriteMib, kWrites, kIterations, kComputeMs, kVpic}},
                 generate_checkpoint);
    registry.add({"epoch_reader", "storage",
                  "ranks reading a shared file batch by batch, every epoch, with a training step per batch, seed "
                  "004's read streaming microbenchmark; for control plane cache_vol",
                  0, 1, {kRanks, kDatasetMib, kBatchMib, kEpochs, kStepMs, kRandom}},
                 generate_epoch_reader);
}

}  // namespace zng::workloads
