// Base of every simulated part: a name (also its stats prefix), the simulator, and the
// clock domain it runs in. Components do nothing unless an event wakes them.
#pragma once
#include <string>

#include "sim/core/clock_domain.hpp"
#include "sim/core/simulator.hpp"

namespace zng {

class Component {
public:
    Component(Simulator& sim, std::string name, const ClockDomain& clock)
        : sim_(sim), name_(std::move(name)), clock_(clock) {}
    virtual ~Component() = default;
    Component(const Component&) = delete;
    Component& operator=(const Component&) = delete;

    const std::string& name() const { return name_; }
    Simulator& sim() const { return sim_; }
    const ClockDomain& clock() const { return clock_; }
    Tick now() const { return sim_.now(); }
    StatGroup stats() const { return StatGroup(sim_.stats(), name_); }

    // Wake `e` `n` cycles of this component's clock from the current cycle edge.
    void schedule_cycles(Event& e, Cycle n) { sim_.schedule(e, clock_.edge_after(now(), n)); }
    void schedule_at(Event& e, Tick t) { sim_.schedule(e, t); }

private:
    Simulator& sim_;
    std::string name_;
    const ClockDomain& clock_;
};

}  // namespace zng
