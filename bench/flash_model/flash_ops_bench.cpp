// Simulated flash operations per wall second: the paper's geometry (configs/fragments/
// znand.yaml values, mesh network) under a stream of 128 B line reads and writes spread
// over all channels, with a bounded number outstanding. Reports flash ops (senses +
// programs) and requests per wall second.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>

#include "flash_model/register.hpp"
#include "flash_model/controller/zng_flash_backend.hpp"
#include "sim/config/config_node.hpp"
#include "sim/mem/port.hpp"

namespace {

using namespace zng;

class Driver final : public MemRequester {
public:
    Driver(Simulator& sim, MemoryBackend& be, uint64_t total, uint32_t outstanding, uint32_t write_every)
        : sim_(sim), port_(*this, "bench"), total_(total), window_(outstanding), write_every_(write_every) {
        port_.bind(be.port(0));
    }
    void start() { pump(); }
    void recv_response(MemRequest* r, RequestPort&) override {
        sim_.requests().put(r);
        --live_;
        pump();
    }
    void recv_retry(RequestPort&) override { pump(); }

private:
    void pump() {
        while (sent_ < total_ && live_ < window_ && !port_.waiting_retry()) {
            MemRequest* r = sim_.requests().get();
            // A deterministic scatter over the first 1 GiB of flash addresses, 128 B lines.
            x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
            r->paddr = (x_ >> 20) % (1ull << 30) & ~127ull;
            r->size = 128;
            r->op = (sent_ % write_every_ == 0) ? MemOp::Write : MemOp::Read;
            if (!port_.send(r)) {
                sim_.requests().put(r);
                return;
            }
            ++sent_;
            ++live_;
        }
    }
    Simulator& sim_;
    RequestPort port_;
    uint64_t total_, sent_ = 0, live_ = 0;
    uint32_t window_, write_every_;
    uint64_t x_ = 12345;
};

void BM_FlashOps(benchmark::State& state) {
    register_flash_model_components();
    const uint32_t write_every = static_cast<uint32_t>(state.range(0));
    double ops = 0, requests = 0, sim_us = 0;
    for (auto _ : state) {
        Simulator sim;
        ConfigNode root = parse_config_text(
            "flash: {registers_per_plane: 8, register_grouping: package, decoder_search: 10ns}\n"
            "memory: {type: zng_flash, queue_depth: 256, plane_depth: 2, network: {type: mesh}}\n",
            "bench.yaml");
        BackendContext ctx;
        ctx.root = &root;
        ctx.ports = 1;
        auto be = memory_backend_slot().create(root.find("memory"), "memory", "zng_flash", sim, ctx);
        const uint64_t total = 200000;
        Driver d(sim, *be, total, 2048, write_every);
        d.start();
        sim.run();
        ops += sim.stats().value("memory.senses") + sim.stats().value("memory.programs");
        requests += static_cast<double>(total);
        sim_us += ticks_to_seconds(sim.now()) * 1e6;
    }
    state.counters["flash_ops_per_s"] = benchmark::Counter(ops, benchmark::Counter::kIsRate);
    state.counters["requests_per_s"] = benchmark::Counter(requests, benchmark::Counter::kIsRate);
    state.counters["sim_us_per_iter"] = sim_us / static_cast<double>(state.iterations());
}
// Argument: one write every N requests (N = 1000000: practically read-only).
BENCHMARK(BM_FlashOps)->Arg(1000000)->Arg(10)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
