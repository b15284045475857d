// Loading a config with an include and reading a component section through its schema.
#include <benchmark/benchmark.h>

#include "sim/config/config_node.hpp"
#include "sim/config/params.hpp"

namespace zng {
namespace {

void BM_ConfigLoad(benchmark::State& st) {
    ComponentSchema s;
    s.slot = "cache";
    s.name = "bench";
    s.params = {{"size", ParamType::Size, "1MiB", "capacity"},
                {"ways", ParamType::UInt, "4", "associativity"},
                {"latency", ParamType::Time, "1ns", "latency"},
                {"policy", "lru", {"lru", "fifo"}, "replacement"}};
    const std::string path = std::string(ZNG_TEST_DATA_DIR) + "/platform.yaml";
    for (auto _ : st) {
        ConfigNode root = load_config_file(path);
        apply_override(root, "cache.size=24MiB");
        Params p(root.find("cache"), s, "cache");
        benchmark::DoNotOptimize(p.size("size") + p.u64("ways") + p.time("latency"));
    }
}
BENCHMARK(BM_ConfigLoad);

}  // namespace
}  // namespace zng
