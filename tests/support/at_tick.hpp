// Calls a function at a given tick: how a test acts in the middle of a run.
#pragma once
#include <functional>
#include <utility>

#include "sim/core/event.hpp"
#include "sim/core/simulator.hpp"

namespace zng::test {

class At final : public Event {
public:
    At(Simulator& sim, Tick when, std::function<void()> f) : Event("test-at"), f_(std::move(f)) {
        sim.schedule(*this, when);
    }
    void process() override { f_(); }

private:
    std::function<void()> f_;
};

}  // namespace zng::test
