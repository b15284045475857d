// Time-weighted average of a level (MSHR entries in use, queue depth): each level is
// weighted by how long it lasted, so the mean is the occupancy a sampling probe would
// see at a random instant, not the mean over change events.
#pragma once
#include <cstdint>

#include "sim/core/tick.hpp"
#include "sim/stats/stats.hpp"

namespace zng::gpu {

class OccupancyTracker {
public:
    explicit OccupancyTracker(Average& avg) : avg_(&avg) {}
    void set(uint64_t level, Tick now) {
        if (now > last_) avg_->sample(static_cast<double>(level_), now - last_);
        level_ = level;
        last_ = now;
    }
    // Closes the current interval (end of run).
    void flush(Tick now) { set(level_, now); }
    uint64_t level() const { return level_; }

private:
    Average* avg_;
    uint64_t level_ = 0;
    Tick last_ = 0;
};

}  // namespace zng::gpu
