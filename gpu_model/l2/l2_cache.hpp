// The shared L2: its banks, the address interleaving that picks a bank, and the policy
// hook shared by all banks. Each bank has one port to the memory back end.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu_model/l2/l2_bank.hpp"
#include "gpu_model/l2/l2_config.hpp"
#include "gpu_model/l2/l2_policy.hpp"

namespace zng::gpu {

class L2Cache final : public L2PrefetchSink {
public:
    L2Cache(Simulator& sim, const std::string& name, const ClockDomain& clock, const L2Config& cfg);

    uint32_t banks() const { return static_cast<uint32_t>(banks_.size()); }
    L2Bank& bank(uint32_t b) { return *banks_.at(b); }
    const L2AddressMap& map() const { return map_; }
    const L2Config& config() const { return cfg_; }
    L2Policy& policy() { return *policy_; }

    bool prefetch(uint64_t paddr, const MemRequest& cause) override {
        return banks_[map_.bank(paddr)]->prefetch(paddr, cause);
    }
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
    Counter* flushes_ = nullptr;
    Counter* flushed_lines_ = nullptr;
    Counter* flush_invalidations_ = nullptr;
};

}  // namespace zng::gpu
