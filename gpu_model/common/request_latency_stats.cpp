#include "gpu_model/common/request_latency_stats.hpp"

#include <string>

namespace zng::gpu {

RequestLatencyStats::RequestLatencyStats(StatGroup g) {
    for (int s = 1; s < kStageCount; ++s) {
        auto st = static_cast<Stage>(s);
        stage_[s] = &g.average(to_string(st), std::string("mean time from the previous stage to stage '") +
                                                  to_string(st) + "' of requests that passed it",
                               "ns");
    }
    total_ = &g.average("total", "mean time from issue to completion of warp memory requests", "ns");
}

void RequestLatencyStats::record(const MemRequest& r) {
    if (!r.passed(Stage::Issue) || !r.passed(Stage::Complete)) return;
    // Compared as stamps (time + 1, 0 = not passed): the previous stage's stamp is at
    // least 1, so one comparison skips both a stage not passed and a backward step.
    Tick prev = r.stamp[static_cast<int>(Stage::Issue)];
    for (int s = 1; s < kStageCount; ++s) {
        const Tick t = r.stamp[s];
        // Stamps copied from a shared fill can precede a merged request's own stages:
        // only forward steps are a latency.
        if (t >= prev) {
            stage_[s]->sample(static_cast<double>(t - prev) / static_cast<double>(kNanosecond));
            prev = t;
        }
    }
    total_->sample(static_cast<double>(r.at(Stage::Complete) - r.at(Stage::Issue)) / static_cast<double>(kNanosecond));
}

}  // namespace zng::gpu
