// Streams sequential 128 B requests through six ports (one per L2 bank) into each
// shipped memory configuration and reports, as benchmark counters:
//   achieved_GBps  bandwidth between the first request and the last response
//   bound_GBps     the model's analytical bound (channels x bus for GDDR5; DIMMs x
//                  partitions x 256 B / tRCD for Optane reads, / tRP for writes)
//   ratio          achieved / bound
//   requests/s     simulated requests per second of CPU time (simulation speed)
// Optane writes are acknowledged once in the DIMM's write-combining buffer, so a run also
// sees the buffers (6 x 16 KiB) filled at bus speed on top of the media's program rate:
// the write stream is long enough for that to stay under 1%.
#include <benchmark/benchmark.h>

#include <string>

#include "memory/fixed_latency_memory.hpp"
#include "memory/gddr5_memory.hpp"
#include "memory/optane_memory.hpp"
#include "memory/register_memory.hpp"
#include "memory/streaming_reader.hpp"
#include "sim/config/config_node.hpp"

namespace zng::memory {
namespace {

enum class Kind { Gddr5, OptaneRead, OptaneWrite, FixedLatency };

double bound_of(const MemoryBackend& m, Kind k) {
    switch (k) {
        case Kind::Gddr5: return dynamic_cast<const Gddr5Memory&>(m).peak_bandwidth();
        case Kind::OptaneRead: return dynamic_cast<const OptaneMemory&>(m).peak_read_bandwidth();
        case Kind::OptaneWrite: return dynamic_cast<const OptaneMemory&>(m).peak_write_bandwidth();
        case Kind::FixedLatency: return dynamic_cast<const FixedLatencyMemory&>(m).peak_bandwidth();
    }
    return 0;
}

ConfigNode config_of(Kind k) {
    const std::string dir = ZNG_CONFIG_DIR "/fragments/";
    switch (k) {
        case Kind::Gddr5: return load_config_file(dir + "gddr5.yaml");
        case Kind::OptaneRead:
        case Kind::OptaneWrite: return load_config_file(dir + "optane.yaml");
        case Kind::FixedLatency:
            return parse_config_text("memory: {type: fixed_latency, latency: 200ns, bandwidth: 16GB/s, queue: 64}",
                                     "bench");
    }
    return {};
}

void BM_StreamingBandwidth(benchmark::State& state, Kind kind, uint64_t bytes) {
    register_gpu_memory_components();
    const ConfigNode root = config_of(kind);
    double achieved = 0, bound = 0;
    uint64_t requests = 0;
    for (auto _ : state) {
        Simulator sim;
        BackendContext ctx;
        ctx.ports = 6;
        ctx.root = &root;
        auto mem = memory_backend_slot().create(root.find("memory"), "memory", "gddr5", sim, ctx);
        StreamingReader::Config cfg;
        cfg.bytes = bytes;
        cfg.outstanding_per_port = 64;
        cfg.op = kind == Kind::OptaneWrite ? MemOp::Writeback : MemOp::Read;
        StreamingReader reader(sim, *mem, cfg);
        reader.start();
        sim.run();
        if (!reader.finished() || mem->in_flight() != 0) state.SkipWithError("stream did not complete");
        achieved = reader.result().bytes_per_second();
        bound = bound_of(*mem, kind);
        requests += reader.result().requests;
    }
    state.counters["achieved_GBps"] = achieved / 1e9;
    state.counters["bound_GBps"] = bound / 1e9;
    state.counters["ratio"] = bound > 0 ? achieved / bound : 0;
    state.counters["requests"] = benchmark::Counter(static_cast<double>(requests), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_StreamingBandwidth, gddr5_read, Kind::Gddr5, 32ull << 20)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StreamingBandwidth, optane_read, Kind::OptaneRead, 16ull << 20)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StreamingBandwidth, optane_write, Kind::OptaneWrite, 32ull << 20)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StreamingBandwidth, fixed_latency_read, Kind::FixedLatency, 16ull << 20)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zng::memory
