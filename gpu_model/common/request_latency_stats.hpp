// Latency breakdown of memory requests from their stage stamps: for each stage a
// request passed, the time since the previous stage it passed, averaged per stage
// ("mem_latency.l2" = time from the L1 to the L2 lookup result, ...), plus the total
// from issue to completion. In nanoseconds, so stages in other clock domains (flash,
// DRAM) read naturally.
#pragma once
#include <array>

#include "sim/mem/mem_request.hpp"
#include "sim/stats/stats.hpp"

namespace zng::gpu {

class RequestLatencyStats {
public:
    explicit RequestLatencyStats(StatGroup g);
    // Records a request that reached Stage::Complete.
    void record(const MemRequest& r);

private:
    std::array<Average*, kStageCount> stage_{};
    Average* total_;
};

}  // namespace zng::gpu
