// Writing a run's statistics: stats.json's tree and stats.meta.json, for registries the
// size of the platforms' (about 800 statistics on a GPU platform, 4,300 on gofs, whose
// GPU has 80 L2 slices). Time per statistic should not grow with the count.
#include <benchmark/benchmark.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/stats/stats.hpp"

namespace zng {
namespace {

// Components of 12 statistics each, registered a component at a time as platforms do:
// the first half gpu.sm<i>.<name>, the second memory.channel<i>.<name>.
void fill(StatRegistry& r, int64_t n) {
    static const char* kNames[] = {"hits", "misses", "merges", "fills", "evictions", "writebacks",
                                   "reads", "writes", "stalls", "refusals", "busy_cycles", "requests"};
    for (int64_t i = 0; i < n; ++i) {
        const bool memory = i >= n / 2;
        const std::string group = fmt::format("{}.{}{}", memory ? "memory" : "gpu", memory ? "channel" : "sm", i / 12);
        r.counter(fmt::format("{}.{}", group, kNames[i % 12]), "a statistic of the benchmark", "events") +=
            static_cast<uint64_t>(i);
    }
}

// `write` is StatRegistry::to_json (stats.json's tree) or meta_json (stats.meta.json).
void BM_WriteStats(benchmark::State& st, nlohmann::ordered_json (StatRegistry::*write)() const) {
    StatRegistry r;
    fill(r, st.range(0));
    for (auto _ : st) benchmark::DoNotOptimize((r.*write)().dump(1));
    st.SetItemsProcessed(st.iterations() * st.range(0));
}
BENCHMARK_CAPTURE(BM_WriteStats, stats_json, &StatRegistry::to_json)
    ->Arg(800)
    ->Arg(4300)
    ->Arg(16000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WriteStats, meta_json, &StatRegistry::meta_json)
    ->Arg(800)
    ->Arg(4300)
    ->Arg(16000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zng
