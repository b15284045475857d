// ZnG's predictor table (paper IV-B, Fig. 8a): guesses whether the loads of one PC walk
// through pages (spatial locality worth a prefetch) or jump around. Entries are indexed
// by the load's PC; each tracks the page last touched by a few representative warps and
// a saturating counter: +1 when a tracked warp touches its recorded page again, -1 (and
// the new page recorded) when it moves to another page. A miss of that PC prefetches
// when the counter exceeds the threshold.
//
// Choices the paper leaves open (documented in the l2 policy schema):
//  - the representative warps of an entry are the first distinct warps that execute
//    its PC after the entry was (re)allocated; other warps neither train nor untrain it;
//  - the table is direct-mapped on a hash of the PC and tagged with the full PC: a PC
//    that lands on an entry owned by another PC takes the entry over (counter 0).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace zng::gpu {

struct PcPagePredictorConfig {
    uint32_t entries = 512;    // IV-B: 512 entries, as in HybridGPU
    uint32_t warps = 5;        // IV-B: five representative warps
    uint32_t counter_bits = 4; // IV-B: 4-bit counter
    uint32_t threshold = 12;   // IV-B: prefetch when the counter is higher than 12
    uint32_t page_bytes = 4096;  // what "page" means: the flash page
};

class PcPagePredictor {
public:
    static constexpr uint32_t kMaxWarps = 8;

    // Throws std::invalid_argument on impossible settings (the schema bounds them first).
    explicit PcPagePredictor(const PcPagePredictorConfig& cfg);

    // A demand read by `warp` of byte address `addr`, issued by the load at `pc`.
    void observe(uint64_t pc, uint32_t warp, uint64_t addr);
    // The counter of pc's entry (0 when the entry belongs to no or another PC).
    uint32_t counter(uint64_t pc) const;
    // The cutoff test on a miss: counter > threshold.
    bool predicts_locality(uint64_t pc) const { return counter(pc) > cfg_.threshold; }

    const PcPagePredictorConfig& config() const { return cfg_; }
    uint32_t index_of(uint64_t pc) const;
    // Entries taken over by another PC (aliasing in the direct-mapped table).
    uint64_t replacements() const { return replacements_; }

private:
    struct Entry {
        uint64_t pc = 0;
        std::array<uint64_t, kMaxWarps> page{};
        std::array<uint32_t, kMaxWarps> warp{};
        uint8_t tracked = 0;  // representative warps recorded so far
        uint8_t counter = 0;
        bool valid = false;
    };

    PcPagePredictorConfig cfg_;
    uint32_t counter_max_;
    uint32_t page_shift_;
    uint32_t entries_mask_;  // entries - 1 when a power of two above 1, else 0 (use %)
    std::vector<Entry> table_;
    uint64_t replacements_ = 0;
};

}  // namespace zng::gpu
