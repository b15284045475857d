#include "memory/register_memory.hpp"

#include "memory/fixed_latency_memory.hpp"
#include "memory/gddr5_memory.hpp"
#include "memory/optane_memory.hpp"

namespace zng::memory {

namespace {
template <class T>
void add_backend() {
    memory_backend_slot().add(T::schema(), [](const Params& p, Simulator& sim, const BackendContext& ctx) {
        return std::unique_ptr<MemoryBackend>(std::make_unique<T>(p, sim, ctx));
    });
}
}  // namespace

void register_gpu_memory_components() {
    add_backend<Gddr5Memory>();
    add_backend<OptaneMemory>();
    add_backend<FixedLatencyMemory>();
}

}  // namespace zng::memory
