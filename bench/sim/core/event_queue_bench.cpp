// Events scheduled and fired per second: `pending` components each keep one event in
// flight and reschedule it a pseudo-random 1..64 ns ahead when it fires, the pattern of
// a model with that many busy parts.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "sim/core/event_queue.hpp"

namespace zng {
namespace {

struct Busy : Event {
    EventQueue& q;
    uint64_t state;
    explicit Busy(EventQueue& q, uint64_t seed) : Event("busy"), q(q), state(seed) {}
    void process() override {
        state = state * 6364136223846793005ull + 1442695040888963407ull;  // LCG: cheap, deterministic
        q.schedule(*this, q.now() + 1000 * (1 + ((state >> 33) & 63)));
    }
};

void BM_EventQueue(benchmark::State& st) {
    const int pending = static_cast<int>(st.range(0));
    EventQueue q;
    std::vector<std::unique_ptr<Busy>> parts;
    for (int i = 0; i < pending; ++i) {
        parts.push_back(std::make_unique<Busy>(q, i + 1));
        q.schedule(*parts.back(), i);
    }
    for (auto _ : st) {
        for (int i = 0; i < 1000; ++i) q.step();
    }
    st.SetItemsProcessed(st.iterations() * 1000);
    st.counters["events/s"] = benchmark::Counter(static_cast<double>(st.iterations() * 1000), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EventQueue)->Arg(16)->Arg(256)->Arg(4096)->Arg(65536);

}  // namespace
}  // namespace zng
