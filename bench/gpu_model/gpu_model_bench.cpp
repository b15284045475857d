// Whole-GPU simulation speed: Table I's GPU (16 SMs, 80 warps, L1D, TLBs, crossbar,
// 6 L2 banks) running a synthetic kernel of 10.4 M warp instructions built in memory,
// on a fixed-latency back end (200 GPU cycles). Reports simulated warp instructions per
// wall second ("warp_instr/s") and the process's peak resident memory.
//
// The kernel mimics a streaming GPU code: each warp loops over coalesced loads of its
// own slice (4 B per lane, one 128 B line), folded arithmetic, a store every fourth
// iteration, and a scattered load (a gather over a 64 MiB table) every eighth.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <memory>
#include <random>

#include "gpu_model/gpu.hpp"
#include "gpu_model/register.hpp"
#include "gpu_model/tlb/first_touch_translator.hpp"
#include "support/fixed_latency_backend.hpp"
#include "traces/cta_builder.hpp"
#include "traces/vector_trace_source.hpp"

namespace {

using namespace zng;
using namespace zng::trace;

constexpr uint32_t kCtas = 2400;
constexpr uint32_t kWarpsPerCta = 8;
constexpr uint32_t kIterations = 40;

// Built once: the benchmark measures simulation, not trace construction.
const VectorTraceSource& synthetic_trace(uint64_t& instructions) {
    static uint64_t total = 0;
    static std::unique_ptr<VectorTraceSource> src = [] {
        auto s = std::make_unique<VectorTraceSource>();
        KernelInfo k;
        k.name = "stream";
        k.grid.x = kCtas;
        k.block.x = kWarpsPerCta * kWarpSize;
        KernelTrace& kt = s->add_kernel(k);
        std::mt19937_64 rng(42);
        CtaBuilder b;
        for (uint32_t c = 0; c < kCtas; ++c) {
            b.begin(c, k);
            for (uint32_t w = 0; w < kWarpsPerCta; ++w) {
                const uint64_t slice = 0x100000000ull + (uint64_t{c} * kWarpsPerCta + w) * kIterations * 128;
                for (uint32_t i = 0; i < kIterations; ++i) {
                    WarpRecord ld;
                    ld.pc = 0x100;
                    ld.kind = RecordKind::Load;
                    ld.access_size = 4;
                    ld.active_mask = kFullWarpMask;
                    ld.compute = 6;
                    ld.strided = true;
                    ld.base = slice + i * 128;
                    ld.stride = 4;
                    b.add(w, ld);
                    WarpRecord cp;
                    cp.pc = 0x180;
                    cp.kind = RecordKind::Compute;
                    cp.active_mask = kFullWarpMask;
                    cp.compute = 14;
                    b.add(w, cp);
                    if (i % 4 == 3) {
                        WarpRecord st = ld;
                        st.pc = 0x200;
                        st.kind = RecordKind::Store;
                        st.compute = 1;
                        st.base = slice + 0x40000000ull + i * 128;
                        b.add(w, st);
                    }
                    if (i % 8 == 5) {
                        WarpRecord g = ld;
                        g.pc = 0x280;
                        g.strided = false;
                        g.compute = 2;
                        for (int l = 0; l < kWarpSize; ++l) g.addr[l] = 0x200000000ull + (rng() % (16u << 20)) * 4;
                        b.add(w, g);
                    }
                }
            }
            kt.ctas.push_back(b.finish());
            total += b.instructions();
        }
        return s;
    }();
    instructions = total;
    return *src;
}

void BM_WholeGpu(benchmark::State& state) {
    register_gpu_model_components();
    uint64_t instructions = 0;
    const VectorTraceSource& trace = synthetic_trace(instructions);
    uint64_t simulated = 0;
    double ipc = 0;
    for (auto _ : state) {
        state.PauseTiming();
        Simulator sim;
        gpu::FirstTouchTranslator translator(4096, 0);
        std::vector<gpu::AppSpec> apps;
        apps.push_back(gpu::AppSpec{"stream", std::make_unique<VectorTraceSource>(trace), {}});
        gpu::Gpu g(sim, nullptr, translator, std::move(apps));
        gpu::testing::FixedLatencyBackend memory(sim, g.clock(), g.l2_banks(), 200);
        for (uint32_t b = 0; b < g.l2_banks(); ++b) g.memory_port(b).bind(memory.port(b));
        state.ResumeTiming();
        g.start();
        sim.run();
        state.PauseTiming();
        g.check_invariants();
        simulated += g.instructions();
        ipc = static_cast<double>(g.instructions()) / static_cast<double>(g.cycles());
        state.ResumeTiming();
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    state.counters["warp_instr/s"] = benchmark::Counter(static_cast<double>(simulated), benchmark::Counter::kIsRate);
    state.counters["trace_instr"] = static_cast<double>(instructions);
    state.counters["ipc"] = ipc;
    state.counters["peak_rss_MiB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
}
BENCHMARK(BM_WholeGpu)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
