// A whole GPU on a fixed-latency memory back end, configured from YAML text.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "gpu_model/gpu.hpp"
#include "gpu_model/register.hpp"
#include "gpu_model/tlb/first_touch_translator.hpp"
#include "sim/config/config_node.hpp"
#include "support/fixed_latency_backend.hpp"

namespace zng::gpu::testing {

struct GpuHarness {
    // `yaml` holds a `gpu:` section (may be empty for Table I defaults).
    GpuHarness(const std::string& yaml, std::vector<AppSpec> apps, uint32_t memory_latency_cycles = 100,
               uint32_t max_outstanding = 0, uint64_t page_size = 4096)
        : root(parse_config_text(yaml.empty() ? "{}" : yaml, "test.yaml")) {
        register_gpu_model_components();
        translator = std::make_unique<FirstTouchTranslator>(page_size, 0);
        gpu = std::make_unique<Gpu>(sim, root.find("gpu"), *translator, std::move(apps));
        memory = std::make_unique<FixedLatencyBackend>(sim, gpu->clock(), gpu->l2_banks(), memory_latency_cycles,
                                                       max_outstanding);
        for (uint32_t b = 0; b < gpu->l2_banks(); ++b) gpu->memory_port(b).bind(memory->port(b));
    }
    Simulator::RunResult run() {
        gpu->start();
        return sim.run();
    }
    double stat(const std::string& name) { return sim.stats().value(name); }

    Simulator sim;
    ConfigNode root;
    std::unique_ptr<FirstTouchTranslator> translator;
    std::unique_ptr<Gpu> gpu;
    std::unique_ptr<FixedLatencyBackend> memory;
};

inline std::vector<AppSpec> one_app(std::unique_ptr<trace::TraceSource> t, std::vector<uint32_t> sms = {}) {
    std::vector<AppSpec> v;
    v.push_back(AppSpec{"app", std::move(t), std::move(sms)});
    return v;
}

}  // namespace zng::gpu::testing
