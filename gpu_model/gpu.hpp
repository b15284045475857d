// The GPU of the ZnG paper (Table I, GTX580-like): SMs with their L1 TLBs and L1D
// caches, the shared MMU, the crossbar and the L2 banks, running one trace per
// application. Everything behind the L2 is the platform's MemoryBackend, bound to
// memory_port(b) of each bank; translation is the platform's AddressTranslator.
//
//   Gpu gpu(sim, root.find("gpu"), translator, std::move(apps));
//   for (uint32_t b = 0; b < gpu.l2_banks(); ++b) gpu.memory_port(b).bind(backend.port(b));
//   gpu.start();
//   sim.run();              // stops by itself when every application has finished
//   gpu.check_invariants(); // throws SimError if a request or instruction went missing
//
// Applications get disjoint sets of SMs (equal split by default) and separate address
// spaces (requests carry the application id). Per-application stats live under
// gpu.app.<name>: instructions, cycles to finish, IPC.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpu_model/app_runner.hpp"
#include "gpu_model/common/request_latency_stats.hpp"
#include "gpu_model/interconnect/crossbar.hpp"
#include "gpu_model/l2/l2_cache.hpp"
#include "gpu_model/sm/streaming_multiprocessor.hpp"
#include "gpu_model/tlb/mmu.hpp"
#include "sim/config/config_node.hpp"
#include "sim/mem/address_translator.hpp"
#include "traces/trace.hpp"

namespace zng::gpu {

struct AppSpec {
    std::string name;                            // e.g. "betw" (stats: gpu.app.<name>)
    std::unique_ptr<trace::TraceSource> trace;
    std::vector<uint32_t> sms;                   // SM ids; empty = an equal share of the SMs left
};

struct AppResult {
    std::string name;
    uint64_t instructions = 0;
    Cycle cycles = 0;  // GPU cycles from start until the application finished
    double ipc = 0;
    bool finished = false;
};

class Gpu {
public:
    Gpu(Simulator& sim, const ConfigNode* gpu_section, AddressTranslator& translator, std::vector<AppSpec> apps,
        const std::string& name = "gpu");
    ~Gpu();
    Gpu(const Gpu&) = delete;
    Gpu& operator=(const Gpu&) = delete;

    static const ComponentSchema& schema();

    const ClockDomain& clock() const { return clock_; }
    uint32_t l2_banks() const { return l2_->banks(); }
    RequestPort& memory_port(uint32_t bank) { return l2_->bank(bank).mem_port(); }
    uint32_t line_size() const { return l2_->config().line; }
    uint32_t num_sms() const { return static_cast<uint32_t>(sms_.size()); }

    // Launches every application's first kernel. Memory ports must be bound.
    void start();
    // Every application finished and the memory hierarchy drained.
    bool finished() const { return done_; }
    // run.stop_at: the run ends before every application finished. The unfinished ones
    // close their window (AppRunner::close_window) and the GPU's cycles are the window's.
    void close_window();
    // What is behind the L2 has nothing left in flight. A back end may go on working
    // after the GPU side is idle (a flash back end's garbage-collection merge, requested
    // by a late program, runs as firmware operations): the run ends only when this says
    // so too.
    void set_backend_drained(std::function<bool()> drained) { backend_drained_ = std::move(drained); }
    ProgressInfo progress() const;
    std::vector<AppResult> results() const;
    uint64_t instructions() const;
    Cycle cycles() const { return end_cycle_; }
    // Throws SimError naming what is wrong: a request still in flight, instructions
    // issued != instructions in the records read, bytes requested != bytes delivered.
    void check_invariants() const;

    // Parts, for tests and for platforms that extend the GPU.
    StreamingMultiprocessor& sm(uint32_t i) { return *sms_.at(i); }
    L2Cache& l2() { return *l2_; }
    Mmu& mmu() { return *mmu_; }
    Crossbar& crossbar() { return *xbar_; }
    const AppRunner& app(uint32_t i) const { return *apps_.at(i); }

private:
    void app_finished(AppRunner& a);
    bool quiescent() const;
    void drain_check();

    Simulator& sim_;
    std::string name_;
    ClockDomain clock_;
    std::unique_ptr<RequestLatencyStats> latency_;
    std::unique_ptr<Mmu> mmu_;
    std::vector<std::unique_ptr<StreamingMultiprocessor>> sms_;
    std::unique_ptr<L2Cache> l2_;
    std::unique_ptr<Crossbar> xbar_;
    std::vector<std::unique_ptr<AppRunner>> apps_;
    uint32_t apps_left_ = 0;
    bool started_ = false;
    bool done_ = false;
    Cycle end_cycle_ = 0;
    Counter* cycles_stat_ = nullptr;
    std::function<bool()> backend_drained_;
    MemberEvent<Gpu, &Gpu::drain_check> drain_ev_{this, "gpu-drain"};
};

}  // namespace zng::gpu
