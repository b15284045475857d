// Helpers for memory back-end tests: build a back end from YAML text, a requester that
// records when each response and retry arrives, and a way to act at a given tick.
#pragma once
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "memory/register_memory.hpp"
#include "sim/config/config_node.hpp"
#include "sim/core/event.hpp"
#include "sim/mem/memory_backend.hpp"
#include "tests/support/at_tick.hpp"

namespace zng::memory::test {

// Owns the config tree (schemas keep pointers into it only during construction, but
// error messages may refer to it) and the back end.
struct Backend {
    ConfigNode root;
    std::unique_ptr<MemoryBackend> memory;
};

inline Backend make_backend(Simulator& sim, ConfigNode root, uint32_t ports) {
    register_gpu_memory_components();
    Backend b;
    b.root = std::move(root);
    BackendContext ctx;
    ctx.ports = ports;
    ctx.root = &b.root;
    b.memory = memory_backend_slot().create(b.root.find("memory"), "memory", "gddr5", sim, ctx);
    return b;
}

inline Backend make_backend(Simulator& sim, const std::string& yaml, uint32_t ports = 1,
                            const std::string& file = "test.yaml") {
    return make_backend(sim, parse_config_text(yaml, file), ports);
}

// Sends requests through its ports and records what comes back.
class RecordingRequester final : public MemRequester {
public:
    RecordingRequester(Simulator& sim, MemoryBackend& mem) : sim_(sim) {
        for (uint32_t i = 0; i < mem.num_ports(); ++i) {
            ports_.push_back(std::make_unique<RequestPort>(*this, "req.port" + std::to_string(i)));
            ports_.back()->bind(mem.port(i));
        }
    }
    // Creates and sends a request now; returns its id. Requests refused (or queued
    // behind a refused one) wait in order for the port's retry.
    uint64_t send(MemOp op, uint64_t addr, uint32_t size = 128, uint32_t port = 0) {
        MemRequest* r = sim_.requests().get();
        r->op = op;
        r->paddr = r->vaddr = addr;
        r->size = size;
        const uint64_t id = r->id;
        sent_at[id] = sim_.now();
        held_[port].push_back(r);
        pump(port);
        return id;
    }
    void recv_response(MemRequest* r, RequestPort&) override {
        done_at[r->id] = sim_.now();
        order.push_back(r->id);
        stamps[r->id] = *r;
        sim_.requests().put(r);
    }
    void recv_retry(RequestPort& port) override {
        retries.push_back(sim_.now());
        for (uint32_t i = 0; i < ports_.size(); ++i)
            if (ports_[i].get() == &port) pump(i);
    }
    Tick latency(uint64_t id) const { return done_at.at(id) - sent_at.at(id); }

    std::map<uint64_t, Tick> sent_at, done_at;
    std::map<uint64_t, MemRequest> stamps;
    std::vector<uint64_t> order;
    std::vector<Tick> retries;
    int refusals = 0;

private:
    Simulator& sim_;
    std::vector<std::unique_ptr<RequestPort>> ports_;
    std::map<uint32_t, std::deque<MemRequest*>> held_;

    void pump(uint32_t port) {
        auto& q = held_[port];
        while (!q.empty()) {
            if (!ports_[port]->send(q.front())) {
                ++refusals;
                return;
            }
            q.pop_front();
        }
    }
};

using zng::test::At;

// The device of the GDDR5 tests (gddr5_timing_test.cpp computes its schedules): 1 GHz
// command clock, 64-bit bus at 4000 MT/s (128 B = 4 ns), 6 channels of 16 banks with 2 KiB
// rows; no four-activate window and no refresh unless a test sets them.
inline const char* kGddr5 = R"(
memory:
  type: gddr5
  channels: 6
  banks: 16
  row_size: 2KiB
  capacity: 1GiB
  command_clock: 1GHz
  data_rate: 4000MT/s
  bus_width: 64
  burst_length: 8
  tRCD: 12ns
  tCL: 12ns
  tCWL: 4ns
  tRP: 12ns
  tRAS: 28ns
  tRTP: 2ns
  tWR: 12ns
  tCCD: 2ns
  tRRD: 6ns
  tFAW: 0ns
  tWTR: 5ns
  tRTW: 2ns
  tREFI: 0ns
)";

// The YAML text with `  key: value` set inside the memory section (replacing the line of
// that key if there is one, else appending), so tests can vary one parameter.
inline std::string with(std::string yaml, const std::string& key, const std::string& value) {
    const std::string line = "  " + key + ":";
    const size_t at = yaml.find("\n" + line);
    if (at == std::string::npos) return yaml + line + " " + value + "\n";
    const size_t end = yaml.find('\n', at + 1);
    return yaml.replace(at + 1, end - at - 1, line + " " + value);
}

inline double stat(Simulator& sim, const std::string& name) { return sim.stats().value(name); }

}  // namespace zng::memory::test
