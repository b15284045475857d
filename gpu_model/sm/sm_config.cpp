#include "gpu_model/sm/sm_config.hpp"

#include "gpu_model/common/warp_mask.hpp"

namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kMaxWarps = Param<UInt32>("max_warps", "80", "resident warps per SM").range(1, WarpMask::kMaxWarps);
const auto kMaxCtas = Param<UInt32>("max_ctas", "8", "resident CTAs per SM").range(1, 1024);
const auto kRegisters =
    Param<UInt32>("registers", "32768", "32-bit registers per SM (limits CTAs whose trace gives registers per thread)")
        .range(1, 1u << 30);
const auto kSharedMemory = Param<Size>("shared_memory", "16KiB", "shared memory per SM (limits CTAs)")
                               .range(0, static_cast<double>(1u << 30));
const auto kSchedulers =
    Param<UInt32>("schedulers", "2", "warp schedulers per SM (warp slot s belongs to scheduler s mod n)").range(1, 64);
const auto kIssueWidth =
    Param<UInt32>("issue_width", "1", "instructions each scheduler issues per cycle (distinct warps)").range(1, 64);
const auto kComputeLatency = Param<UInt32>("compute_latency", "4",
                                           "cycles from issuing a compute instruction to the warp's next issue "
                                           "(pipelined: other warps issue meanwhile)")
                                 .range(1, 100000);
const auto kSharedLatency =
    Param<UInt32>("shared_latency", "24", "shared-memory access latency, cycles (no memory traffic)").range(1, 100000);
const auto kConstantLatency =
    Param<UInt32>("constant_latency", "8", "constant-cache access latency, cycles (no memory traffic)")
        .range(1, 100000);
const auto kLdstQueue = Param<UInt32>("ldst_queue", "64",
                                      "line requests queued in the LD/ST unit; a memory instruction issues only if "
                                      "all its line requests fit")
                            .range(64, 1 << 20);
const auto kLdstWidth =
    Param<UInt32>("ldst_width", "1", "line requests entering address translation per cycle").range(1, 64);
// 1 KiB per thread holds the largest local array of the built-in workloads (the graph
// kernels' uint64_t local_worklist[128]).
const auto kLocalFrame = Param<Size>("local_frame", "32KiB",
                                     "local memory of one warp slot (32 threads x bytes per thread): each (SM, warp "
                                     "slot) owns one such frame; a Local access outside it is a trace error")
                             .range(128, static_cast<double>(uint64_t{1} << 34));
}  // namespace

const ComponentSchema& SmConfig::schema() {
    static const ComponentSchema s{
        .slot = "gpu.sm",
        .name = "sm",
        .description = "streaming multiprocessor: CTA/warp slots, warp schedulers, issue, LD/ST unit",
        .params = {kMaxWarps, kMaxCtas, kRegisters, kSharedMemory, kSchedulers, kIssueWidth, kComputeLatency,
                   kSharedLatency, kConstantLatency, kLdstQueue, kLdstWidth, kLocalFrame},
        .ports = {}};
    return s;
}

SmConfig SmConfig::from(const Params& p) {
    SmConfig c;
    c.max_warps = p[kMaxWarps];
    c.max_ctas = p[kMaxCtas];
    c.registers = p[kRegisters];
    c.shared_memory = static_cast<uint32_t>(p[kSharedMemory]);
    c.schedulers = p[kSchedulers];
    c.issue_width = p[kIssueWidth];
    c.compute_latency = p[kComputeLatency];
    c.shared_latency = p[kSharedLatency];
    c.constant_latency = p[kConstantLatency];
    c.ldst_queue = p[kLdstQueue];
    c.ldst_width = p[kLdstWidth];
    c.local_frame = p[kLocalFrame];
    if (c.local_frame % 128 != 0)
        p.fail(kLocalFrame.key(), "must be a multiple of 128 B (frames start on a line)");
    if (c.schedulers > c.max_warps) p.fail(kSchedulers.key(), "exceeds max_warps");
    return c;
}

}  // namespace zng::gpu
