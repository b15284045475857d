#include "sim/app/memory_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "gpu_model/cache/l1_data_cache.hpp"
#include "gpu_model/common/mshr_table.hpp"
#include "gpu_model/common/tag_array.hpp"
#include "gpu_model/gpu.hpp"
#include "gpu_model/l2/l2_cache.hpp"
#include "gpu_model/l2/l2_config.hpp"
#include "gpu_model/l2/line_marks.hpp"
#include "gpu_model/tlb/l1_tlb.hpp"
#include "gpu_model/tlb/mmu.hpp"
#include "sim/config/params.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/hash_map.hpp"

namespace zng::cli {

std::vector<MemoryDemand> estimate_upfront_memory(const ConfigNode& root) {
    std::vector<MemoryDemand> out;
    const ConfigNode* gpu_section = root.find("gpu");
    Params gpu(gpu_section, gpu::Gpu::schema(), "gpu");
    const uint64_t sms = gpu.u32("sms");
    // Tag arrays hold a TagLine and a key and LRU stamp per line of capacity, allocated
    // when the cache is built (gpu::TagArray::upfront_bytes).
    using gpu::TagArray;
    Params l2p(gpu.section("l2"), gpu::L2Config::schema(), "gpu.l2");
    const gpu::L2Config l2 = gpu::L2Config::from(l2p);
    // Beside each L2 tag array, one byte of policy marks per line (gpu::LineMarksArray).
    out.push_back({l2p.where("size"), "L2 tag arrays",
                   uint64_t{l2.banks} * (TagArray::upfront_bytes(l2.sets_per_bank(), l2.ways) +
                                         uint64_t{l2.sets_per_bank()} * l2.ways * sizeof(gpu::LineMarks))});
    Params l1p(gpu.section("l1d"), gpu::L1Config::schema(), "gpu.l1d");
    const gpu::L1Config l1 = gpu::L1Config::from(l1p);
    out.push_back({l1p.where("size"), fmt::format("L1D tag arrays of {} SMs", sms),
                   sms * TagArray::upfront_bytes(l1.sets(), l1.ways)});
    // MSHR tables preallocate an entry and mshr_merge waiter slots per MSHR entry, as in
    // hardware: a bank of 65,536 entries merging 4,096 requests is 2 GiB of slots.
    out.push_back({l2p.where("mshr_entries"), fmt::format("MSHR tables of {} L2 banks", l2.banks),
                   l2.banks * gpu::MshrTable::upfront_bytes(l2.mshr_entries, l2.mshr_merge)});
    // The L2's unit fetches: one per MSHR entry of every bank, and an index of the lines
    // they still have to install (up to two 64-line blocks each).
    const uint64_t units = uint64_t{l2.banks} * l2.mshr_entries;
    out.push_back({l2p.where("mshr_entries"), "L2 unit fetch tables",
                   units * (sizeof(gpu::L2Cache::UnitFetch) + sizeof(uint32_t)) +
                       gpu::UnitLineIndex::bytes(units)});
    out.push_back({l1p.where("mshr_entries"), fmt::format("L1D MSHR tables of {} SMs", sms),
                   sms * gpu::MshrTable::upfront_bytes(l1.mshr_entries, l1.mshr_merge)});
    Params tlbp(gpu.section("l1_tlb"), gpu::L1TlbConfig::schema(), "gpu.l1_tlb");
    const gpu::L1TlbConfig tlb = gpu::L1TlbConfig::from(tlbp);
    out.push_back({tlbp.where("entries"), fmt::format("L1 TLBs of {} SMs", sms),
                   sms * (TagArray::upfront_bytes(tlb.entries / tlb.ways, tlb.ways) +
                          gpu::MshrTable::upfront_bytes(tlb.mshr_entries, tlb.mshr_merge))});
    Params mmup(gpu.section("mmu"), gpu::MmuConfig::schema(), "gpu.mmu");
    const gpu::MmuConfig mmu = gpu::MmuConfig::from(mmup);
    out.push_back({mmup.where("l2_tlb_entries"), "MMU's L2 TLB and page walk cache",
                   TagArray::upfront_bytes(mmu.l2_tlb_entries / mmu.l2_tlb_ways, mmu.l2_tlb_ways) +
                       TagArray::upfront_bytes(mmu.walk_cache_entries / mmu.walk_cache_ways, mmu.walk_cache_ways)});
    std::sort(out.begin(), out.end(), [](const MemoryDemand& a, const MemoryDemand& b) { return a.bytes > b.bytes; });
    return out;
}

namespace {
std::string gib(uint64_t bytes) { return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1ull << 30)); }
}  // namespace

uint64_t check_memory_estimate(const ConfigNode& root, uint64_t limit, const std::string& limit_where) {
    const std::vector<MemoryDemand> demands = estimate_upfront_memory(root);
    uint64_t total = 0;
    for (const auto& d : demands) total += d.bytes;
    if (limit == 0 || total <= limit) return total;
    const MemoryDemand& top = demands.front();
    throw ConfigError(fmt::format("{}: the {} need {} of host memory ({} in all before simulating), more than "
                                  "run.memory_limit = {} allows ({})",
                                  top.where, top.what, gib(top.bytes), gib(total), gib(limit), limit_where));
}

}  // namespace zng::cli
