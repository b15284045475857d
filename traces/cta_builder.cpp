#include "traces/cta_builder.hpp"

#include <fmt/format.h>

#include <utility>

#include "traces/warp_scan.hpp"

namespace zng::trace {

void CtaBuilder::begin(uint64_t cta_id, uint32_t warps, uint64_t threads) {
    if (open_) throw TraceError(fmt::format("CTA {}: begin while CTA {} is still open", cta_id, cta_.cta_id));
    if (warps == 0 || warps > kMaxWarps)
        throw TraceError(fmt::format("CTA {}: {} warps is outside 1..{}", cta_id, warps, kMaxWarps));
    if (threads == 0 || threads > uint64_t(warps) * kWarpSize)
        throw TraceError(fmt::format("CTA {}: {} threads do not fit {} warps", cta_id, threads, warps));
    cta_.cta_id = cta_id;
    cta_.records = 0;
    cta_.warps.resize(warps);
    for (auto& w : cta_.warps) w.clear();
    tails_.assign(warps, WarpTail{});
    threads_ = threads;
    instructions_ = 0;
    open_ = true;
}

void CtaBuilder::begin(uint64_t cta_id, const KernelInfo& k) { begin(cta_id, k.warps_per_cta(), k.block.count()); }

void CtaBuilder::check_warp(uint32_t warp) const {
    if (!open_) throw TraceError("record added outside a CTA");
    if (warp >= cta_.warps.size())
        throw TraceError(fmt::format("CTA {}: warp {} does not exist (CTA has {} warps)", cta_.cta_id, warp,
                                     cta_.warps.size()));
    if (tails_[warp].exited)
        throw TraceError(fmt::format("CTA {}: record added to warp {} after its exit record", cta_.cta_id, warp));
}

void CtaBuilder::add(uint32_t warp, const WarpRecord& r) {
    check_warp(warp);
    try {
        encode_record(r, cta_.warps[warp]);
    } catch (const TraceError& e) {
        throw TraceError(fmt::format("CTA {} warp {}: {}", cta_.cta_id, warp, e.what()));
    }
    ++cta_.records;
    instructions_ += r.instructions();
    tails_[warp] = WarpTail{r.kind == RecordKind::Exit, r.pc};
}

void CtaBuilder::add_encoded(uint32_t warp, const uint8_t* data, size_t size) {
    check_warp(warp);
    if (size == 0) return;
    WarpScan s;
    try {
        s = scan_warp(data, size);
    } catch (const TraceError& e) {
        throw TraceError(fmt::format("CTA {} warp {}: {}", cta_.cta_id, warp, e.what()));
    }
    auto& bytes = cta_.warps[warp];
    bytes.insert(bytes.end(), data, data + size);
    cta_.records += s.records;
    instructions_ += s.instructions;
    tails_[warp] = WarpTail{s.ends_with_exit, s.last_pc};
}

void CtaBuilder::finish(CtaTrace& out) {
    if (!open_) throw TraceError("CTA finished without being begun");
    WarpRecord exit;
    exit.kind = RecordKind::Exit;
    for (uint32_t w = 0; w < cta_.warps.size(); ++w) {
        if (tails_[w].exited) continue;
        const uint64_t first_thread = uint64_t(w) * kWarpSize;
        const uint64_t lanes = threads_ > first_thread ? threads_ - first_thread : 0;
        exit.active_mask = lanes >= kWarpSize ? kFullWarpMask : (1u << lanes) - 1u;
        exit.pc = tails_[w].last_pc;
        encode_record(exit, cta_.warps[w]);
        ++cta_.records;
        instructions_ += exit.instructions();
        tails_[w].exited = true;
    }
    open_ = false;
    std::swap(out.warps, cta_.warps);
    out.cta_id = cta_.cta_id;
    out.records = cta_.records;
}

CtaTrace CtaBuilder::finish() {
    CtaTrace out;
    finish(out);
    return out;
}

}  // namespace zng::trace
