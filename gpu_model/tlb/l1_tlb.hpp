// Per-SM L1 TLB: set-associative, LRU, with miss registers that merge accesses to a
// page already being translated. Misses go to the shared MMU; when the translation
// comes back every waiting access continues through `translated`.
#pragma once
#include <cstdint>
#include <functional>

#include "gpu_model/common/mshr_table.hpp"
#include "gpu_model/common/tag_array.hpp"
#include "gpu_model/tlb/mmu.hpp"
#include "gpu_model/tlb/translation_client.hpp"
#include "sim/config/params.hpp"
#include "sim/stats/stats.hpp"

namespace zng::gpu {

struct L1TlbConfig {
    uint32_t entries = 64;
    uint32_t ways = 4;
    uint32_t latency = 1;  // cycles
    uint32_t mshr_entries = 16;
    uint32_t mshr_merge = 64;

    static const ComponentSchema& schema();
    static L1TlbConfig from(const Params& p);
};

// What the TLB calls back on its SM.
class TlbClient {
public:
    virtual ~TlbClient() = default;
    // A missed access is translated (r->paddr is set).
    virtual void translated(MemRequest* r) = 0;
    // Miss registers freed: a stalled access may retry.
    virtual void tlb_unblocked() = 0;
};

class L1Tlb final : public TranslationClient {
public:
    enum class Result { Hit, Miss, Stall };

    L1Tlb(const L1TlbConfig& cfg, Mmu& mmu, uint32_t client_id, TlbClient& owner, StatGroup stats);

    // Hit: r->paddr is set, the access continues after latency(). Miss: the TLB keeps r
    // and returns it through TlbClient::translated. Stall: no miss register free; keep r.
    Result lookup(MemRequest* r);
    uint32_t latency() const { return cfg_.latency; }
    uint32_t misses_in_flight() const { return mshr_.in_use(); }

    void translation_done(uint16_t app, uint64_t vpn, uint64_t ppn) override;
    void invalidate(uint16_t app, uint64_t vpn) override;

private:
    uint32_t set_of(uint64_t key) const { return tags_.set_of(key >> 8); }
    void set_paddr(MemRequest* r, uint64_t ppn) const {
        r->paddr = (ppn << shift_) | (r->vaddr & ((uint64_t{1} << shift_) - 1));
    }

    L1TlbConfig cfg_;
    Mmu& mmu_;
    uint32_t client_id_;
    TlbClient& owner_;
    uint32_t shift_;
    TagArray tags_;
    MshrTable mshr_;
    Counter& hits_;
    Counter& misses_;
    Counter& merges_;
    Counter& stalls_;
};

}  // namespace zng::gpu
