// Clock conversions per second. Every event a component schedules on its clock edge
// converts ticks to cycles and back (edge_after: two of each), so this is on the
// simulator's hot path. The fast path (reduced fraction, libdivide) is measured beside
// the 128-bit reference formulas it must equal.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "sim/core/clock_domain.hpp"

namespace zng {
namespace {

template <bool kFast>
void BM_EdgeAfter(benchmark::State& st) {
    const ClockDomain gpu("gpu", static_cast<uint64_t>(st.range(0)));
    Tick t = 123'456'789;
    for (auto _ : st) {
        for (int i = 0; i < 1000; ++i) {
            // A request arriving mid-cycle waits for the next edge plus 3 cycles.
            if constexpr (kFast) {
                t = gpu.cycle_to_tick(gpu.tick_to_cycle(t) + 3) + 7;
            } else {
                t = gpu.exact_cycle_to_tick(gpu.exact_tick_to_cycle(t) + 3) + 7;
            }
        }
        benchmark::DoNotOptimize(t);
    }
    st.counters["conversions/s"] =
        benchmark::Counter(static_cast<double>(st.iterations() * 2000), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EdgeAfter<true>)->Name("BM_EdgeAfter/fast")->Arg(1'200'000'000)->Arg(1'000'000'000);
BENCHMARK(BM_EdgeAfter<false>)->Name("BM_EdgeAfter/exact128")->Arg(1'200'000'000)->Arg(1'000'000'000);

}  // namespace
}  // namespace zng
