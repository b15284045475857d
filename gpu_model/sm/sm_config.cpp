#include "gpu_model/sm/sm_config.hpp"

#include "gpu_model/common/schema_helpers.hpp"
#include "gpu_model/common/warp_mask.hpp"

namespace zng::gpu {

const ComponentSchema& SmConfig::schema() {
    static const ComponentSchema s{
        .slot = "gpu.sm",
        .name = "sm",
        .description = "streaming multiprocessor: CTA/warp slots, warp schedulers, issue, LD/ST unit",
        .params =
            {
                uint_param("max_warps", "80", "resident warps per SM", 1, WarpMask::kMaxWarps),
                uint_param("max_ctas", "8", "resident CTAs per SM", 1, 1024),
                uint_param("registers", "32768", "32-bit registers per SM (limits CTAs whose trace gives "
                                                 "registers per thread)", 1, 1u << 30),
                typed_param("shared_memory", ParamType::Size, "16KiB", "shared memory per SM (limits CTAs)", 0,
                            static_cast<double>(1u << 30)),
                uint_param("schedulers", "2", "warp schedulers per SM (warp slot s belongs to scheduler s mod n)",
                           1, 64),
                uint_param("issue_width", "1", "instructions each scheduler issues per cycle (distinct warps)", 1,
                           64),
                uint_param("compute_latency", "4",
                           "cycles from issuing a compute instruction to the warp's next issue (pipelined: other "
                           "warps issue meanwhile)",
                           1, 100000),
                uint_param("shared_latency", "24", "shared-memory access latency, cycles (no memory traffic)", 1,
                           100000),
                uint_param("constant_latency", "8", "constant-cache access latency, cycles (no memory traffic)", 1,
                           100000),
                uint_param("ldst_queue", "64",
                           "line requests queued in the LD/ST unit; a memory instruction issues only if all its "
                           "line requests fit",
                           64, 1 << 20),
                uint_param("ldst_width", "1", "line requests entering address translation per cycle", 1, 64),
                // 1 KiB per thread holds the largest local array of the built-in workloads
                // (the graph kernels' uint64_t local_worklist[128]).
                typed_param("local_frame", ParamType::Size, "32KiB",
                            "local memory of one warp slot (32 threads x bytes per thread): each (SM, warp slot) "
                            "owns one such frame; a Local access outside it is a trace error",
                            128, static_cast<double>(uint64_t{1} << 34)),
            },
        .ports = {}};
    return s;
}

SmConfig SmConfig::from(const Params& p) {
    SmConfig c;
    c.max_warps = p.u32("max_warps");
    c.max_ctas = p.u32("max_ctas");
    c.registers = p.u32("registers");
    c.shared_memory = static_cast<uint32_t>(p.size("shared_memory"));
    c.schedulers = p.u32("schedulers");
    c.issue_width = p.u32("issue_width");
    c.compute_latency = p.u32("compute_latency");
    c.shared_latency = p.u32("shared_latency");
    c.constant_latency = p.u32("constant_latency");
    c.ldst_queue = p.u32("ldst_queue");
    c.ldst_width = p.u32("ldst_width");
    c.local_frame = p.size("local_frame");
    if (c.local_frame % 128 != 0) p.fail("local_frame", "must be a multiple of 128 B (frames start on a line)");
    if (c.schedulers > c.max_warps) p.fail("schedulers", "exceeds max_warps");
    return c;
}

}  // namespace zng::gpu
