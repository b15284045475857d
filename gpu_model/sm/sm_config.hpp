// Parameters of a streaming multiprocessor (the `gpu.sm` section).
#pragma once
#include <cstdint>

#include "sim/config/params.hpp"

namespace zng::gpu {

struct SmConfig {
    uint32_t max_warps = 80;
    uint32_t max_ctas = 8;
    uint32_t registers = 32768;        // 32-bit registers per SM; CTAs need regs/thread x threads
    uint32_t shared_memory = 16384;    // bytes per SM
    uint32_t schedulers = 2;
    uint32_t issue_width = 1;          // instructions per scheduler per cycle
    uint32_t compute_latency = 4;      // cycles before a warp's next instruction after a compute one
    uint32_t shared_latency = 24;      // cycles, shared-memory access
    uint32_t constant_latency = 8;     // cycles, constant-cache access
    uint32_t ldst_queue = 64;          // line requests waiting for the TLB/L1
    uint32_t ldst_width = 1;           // line requests entering the TLB/L1 per cycle
    uint64_t local_frame = 32 * 1024;  // bytes of local memory per warp slot (32 threads)

    static const ComponentSchema& schema();
    static SmConfig from(const Params& p);
};

}  // namespace zng::gpu
