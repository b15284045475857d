#include "storage/gpu/gpu_dma_port.hpp"

#include "sim/config/registry.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const auto kBandwidth =
    Param<Bandwidth>("bandwidth", "0B/s",
                     "GPU memory bandwidth the storage DMA writes take (0: not a limit; A100 40 GB HBM2: 1555 GB/s, "
                     "NVIDIA A100 datasheet)")
        .min(0);
const Param<Time> kLatency{"latency", "0ns", "from the GPU link's last byte to the data being in GPU memory"};
}  // namespace

const ComponentSchema& GpuDmaPortSettings::schema() {
    static const CataloguedSchema s{{.slot = "storage",
                                     .name = "gpu_dma",
                                     .description = "The GPU memory port storage DMA writes into (and reads out "
                                                    "of): a bandwidth server that SM traffic can share.",
                                     .params = {kBandwidth, kLatency},
                                     .ports = {}}};
    return s.schema;
}

GpuDmaPortSettings GpuDmaPortSettings::read(const Params& p) {
    GpuDmaPortSettings s;
    s.bandwidth = p[kBandwidth];
    s.latency = p[kLatency];
    return s;
}

}  // namespace zng::storage
