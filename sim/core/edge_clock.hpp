// Cycle-edge arithmetic of one component, memoised per tick. Components convert the
// current time to "the edge n cycles from now" several times per event; ClockDomain's
// conversion costs divisions, and most calls repeat the same tick. The memo is the
// domain's (ClockDomain::remembered_edge_cycle), shared by its components.
#pragma once
#include "sim/core/clock_domain.hpp"

namespace zng {

class EdgeClock {
public:
    explicit EdgeClock(const ClockDomain& c) : clock_(c) {}

    // Index of the first cycle edge at or after t (ClockDomain::edge_cycle).
    // The memo hit is inlined into the callers; the conversion is not.
    Cycle edge_cycle(Tick t) { return clock_.remembered_edge_cycle(t); }
    // The edge n cycles after the first edge at or after t (ClockDomain::edge_after).
    Tick edge_after(Tick t, Cycle n) { return clock_.cycle_to_tick(edge_cycle(t) + n); }
    Tick next_edge(Tick t) { return edge_after(t, 0); }
    const ClockDomain& domain() const { return clock_; }

private:
    const ClockDomain& clock_;
};

}  // namespace zng
