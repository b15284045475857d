#include "traces/trace_file_format.hpp"

#include <fmt/format.h>

#include "traces/cta_builder.hpp"

namespace zng::trace::ztr {

std::string kernel_info_problem(const KernelInfo& k) {
    if (k.name.size() > kMaxNameBytes)
        return fmt::format("kernel name is {} bytes (at most {})", k.name.size(), kMaxNameBytes);
    if (k.grid.x == 0 || k.grid.y == 0 || k.grid.z == 0)
        return fmt::format("grid ({},{},{}) has a zero dimension", k.grid.x, k.grid.y, k.grid.z);
    if (k.block.x == 0 || k.block.y == 0 || k.block.z == 0)
        return fmt::format("block ({},{},{}) has a zero dimension", k.block.x, k.block.y, k.block.z);
    const uint64_t xy = uint64_t(k.grid.x) * k.grid.y;   // cannot overflow: both < 2^32
    if (xy > UINT64_MAX / k.grid.z) return "grid has more than 2^64 CTAs";
    if (k.block.count() > uint64_t(CtaBuilder::kMaxWarps) * kWarpSize)
        return fmt::format("block of {} threads exceeds {} warps", k.block.count(), CtaBuilder::kMaxWarps);
    return {};
}

std::string header_problem(const TraceHeader& h) {
    if (h.workload.size() > kMaxNameBytes) return fmt::format("workload name exceeds {} bytes", kMaxNameBytes);
    if (h.source.size() > kMaxNameBytes) return fmt::format("source name exceeds {} bytes", kMaxNameBytes);
    if (h.arrays.size() > kMaxArrays) return fmt::format("{} arrays (at most {})", h.arrays.size(), kMaxArrays);
    for (const auto& a : h.arrays)
        if (a.name.size() > kMaxNameBytes) return fmt::format("array name exceeds {} bytes", kMaxNameBytes);
    return {};
}

}  // namespace zng::trace::ztr
