// The shared L2: its banks, the address interleaving that picks a bank, and the policy
// hook shared by all banks. Each bank has one port to the memory back end.
#pragma once
#include <cstdint>
#include <array>
#include <memory>
#include <vector>

#include "gpu_model/l2/l2_bank.hpp"
#include "gpu_model/l2/l2_config.hpp"
#include "gpu_model/l2/l2_policy.hpp"
#include "gpu_model/l2/unit_line_index.hpp"

namespace zng::gpu {

class L2Cache final : public L2PrefetchSink {
public:
    // A unit fetch: one memory transaction for a unit-aligned window of a flash page,
    // issued by the bank of the demand miss that caused it; its lines belong to several
    // banks (L2AddressMap). One entry per transaction, with a bitmask of the lines it
    // still has to install; demand misses to those lines, in any bank, wait on it.
    struct UnitFetch {
        uint64_t first_line = 0;
        uint64_t demand_line = 0;
        uint64_t pending = 0;    // bit i: line first_line + i fetched, not installed yet
        bool demand_delivered = false;  // the demand line came ahead of the unit
        uint32_t home = 0;       // issuing bank, whose MSHR entry the unit holds
        int mshr = -1;
        MemRequest cause;        // the demand miss (app, PC, warp: what a fill is charged to)
        std::vector<std::pair<uint64_t, MemRequest*>> waiters;  // (line, request)
        std::array<uint8_t, 64> per_line{};  // waiters per line, bounded by mshr_merge
        bool valid = false;
    };
    static constexpr uint32_t kMaxUnitLines = 64;  // the bitmask


    L2Cache(Simulator& sim, const std::string& name, const ClockDomain& clock, const L2Config& cfg);

    uint32_t banks() const { return static_cast<uint32_t>(banks_.size()); }
    L2Bank& bank(uint32_t b) { return *banks_.at(b); }
    const L2AddressMap& map() const { return map_; }
    const L2Config& config() const { return cfg_; }
    L2Policy& policy() { return *policy_; }

    bool prefetch(uint64_t paddr, const MemRequest& cause) override {
        return banks_[map_.bank(paddr)]->prefetch(paddr, cause);
    }
    // Multi-line fills are sent only when the memory back end serves them whole
    // (MemoryBackend::max_read_bytes); 0, the default, keeps every fill one line.
    void set_max_read_bytes(uint64_t b) { max_read_bytes_ = b; }
    uint64_t max_read_bytes() const { return max_read_bytes_; }
    UnitResult prefetch_unit(uint64_t first_line, uint32_t lines, const MemRequest& cause) override;

    // For the banks. A demand miss to `line`: waits on the unit fetching it (Merged),
    // must retry later (Full: that line's waiter slots are taken) or fetches it (None).
    enum class UnitMerge : uint8_t { None, Merged, Full };
    UnitMerge merge_into_unit(uint64_t line, MemRequest* r);
    bool unit_covers(uint64_t line) const { return unit_lines_.contains(line); }
    const UnitFetch& unit(uint32_t u) const { return units_[u]; }
    // The unit's data reached its issuing bank: every line goes to its owner bank.
    void unit_arrived(uint32_t u, const MemRequest& fill);
    // The memory sent the unit's demand line ahead of the rest (MemRequest::first_piece).
    void unit_first_arrived(uint32_t u, const MemRequest& piece);
    // An owner bank wrote (or found valid) one line of the unit and answered its waiters.
    void unit_line_done(uint32_t u, uint64_t line);
    // Bank b's input stalled (true) or went on (false).
    void bank_stalled(uint32_t b, bool stalled) {
        if (stalled) {
            stalled_banks_[b / 64] |= uint64_t{1} << (b % 64);
        } else {
            stalled_banks_[b / 64] &= ~(uint64_t{1} << (b % 64));
        }
    }
    uint64_t units_in_flight() const { return units_.size() - free_units_.size(); }

    bool idle() const;
    void flush_stats();

    // Writes back every dirty line of application `app` to memory through each bank's
    // write-back queue and invalidates all of the application's lines (ZnG's helper
    // thread does this before merging the application's blocks). Returns at once: the
    // write-backs may be parked behind the very merge that asked for the flush.
    void flush_app(uint16_t app);

private:
    L2Config cfg_;
    L2AddressMap map_;
    std::unique_ptr<L2Policy> policy_;
    std::vector<std::unique_ptr<L2Bank>> banks_;
    uint64_t max_read_bytes_ = 0;
    uint32_t line_shift_;
    std::vector<UnitFetch> units_;      // at most one per MSHR entry of the L2
    std::vector<uint32_t> free_units_;
    UnitLineIndex unit_lines_;  // line still to be installed -> unit
    std::vector<uint64_t> stalled_banks_;  // bit per bank: its input is stalled (L2Bank::stalled_)
    Counter* unit_merges_ = nullptr;
    Counter* first_lines_ = nullptr;
    // Gives the demand miss of unit f the stages of its journey to memory (from the
    // response that brought its line).
    void stamp_demand(UnitFetch& f, const MemRequest& from);
    Counter* flushes_ = nullptr;
    Counter* flushed_lines_ = nullptr;
    Counter* flush_invalidations_ = nullptr;
};

}  // namespace zng::gpu
