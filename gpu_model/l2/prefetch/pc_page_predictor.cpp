#include "gpu_model/l2/prefetch/pc_page_predictor.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace zng::gpu {

PcPagePredictor::PcPagePredictor(const PcPagePredictorConfig& cfg) : cfg_(cfg) {
    if (cfg.entries == 0) throw std::invalid_argument("predictor needs at least one entry");
    if (cfg.warps == 0 || cfg.warps > kMaxWarps)
        throw std::invalid_argument("predictor tracks 1.." + std::to_string(kMaxWarps) + " warps per entry");
    if (cfg.counter_bits == 0 || cfg.counter_bits > 8)
        throw std::invalid_argument("predictor counter has 1..8 bits");
    if (!std::has_single_bit(cfg.page_bytes)) throw std::invalid_argument("predictor page size must be a power of two");
    counter_max_ = (1u << cfg.counter_bits) - 1;
    if (cfg.threshold >= counter_max_)
        throw std::invalid_argument("predictor threshold " + std::to_string(cfg.threshold) +
                                    " can never be exceeded by a " + std::to_string(cfg.counter_bits) +
                                    "-bit counter (max " + std::to_string(counter_max_) + ")");
    page_shift_ = static_cast<uint32_t>(std::countr_zero(cfg.page_bytes));
    entries_mask_ = cfg.entries > 1 && std::has_single_bit(cfg.entries) ? cfg.entries - 1 : 0;
    table_.resize(cfg.entries);
}

uint32_t PcPagePredictor::index_of(uint64_t pc) const {
    // Fibonacci hashing: PCs of neighbouring instructions differ in low bits only (and
    // are multiples of the instruction size), so a plain modulo would crowd entries.
    uint64_t h = pc * 0x9e3779b97f4a7c15ull;
    // A mask for a power-of-two table (IV-B's 512 entries): every L2 read asks, and a
    // 64-bit division costs tens of host cycles.
    return static_cast<uint32_t>(entries_mask_ ? (h >> 32) & entries_mask_ : (h >> 32) % cfg_.entries);
}

void PcPagePredictor::observe(uint64_t pc, uint32_t warp, uint64_t addr) {
    Entry& e = table_[index_of(pc)];
    if (!e.valid || e.pc != pc) {
        if (e.valid) ++replacements_;
        e = Entry{};
        e.valid = true;
        e.pc = pc;
    }
    const uint64_t page = addr >> page_shift_;
    for (uint32_t i = 0; i < e.tracked; ++i) {
        if (e.warp[i] != warp) continue;
        if (e.page[i] == page) {
            if (e.counter < counter_max_) ++e.counter;
        } else {
            if (e.counter > 0) --e.counter;
            e.page[i] = page;
        }
        return;
    }
    if (e.tracked < cfg_.warps) {
        // A new representative warp: its first page is history, not yet a re-access.
        e.warp[e.tracked] = warp;
        e.page[e.tracked] = page;
        ++e.tracked;
    }
}

uint32_t PcPagePredictor::counter(uint64_t pc) const {
    const Entry& e = table_[index_of(pc)];
    return e.valid && e.pc == pc ? e.counter : 0;
}

}  // namespace zng::gpu
