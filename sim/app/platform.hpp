// Platform assembly: a whole simulated system built from a resolved config, with no
// platform hard-wired here. The config names the implementations:
//   gpu:          the GPU (SMs, caches, MMU timing, crossbar, L2)
//   translation:  the address translation policy behind the MMU (slot "translation")
//   memory:       what sits behind the L2 (slot "memory")
//   flash:        the Z-NAND fragment read by flash-based back ends
//   run:          simulator settings (this file)
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "sim/config/config_node.hpp"
#include "sim/core/simulator.hpp"
#include "traces/trace.hpp"

namespace zng {

namespace gpu {
class Gpu;
}
class AddressTranslator;
class MemoryBackend;
class Params;
namespace storage {
class StorageSystem;
}

namespace cli {

// Adds the top-level, `platform:` and `run:` schemas to the catalog (config describe).
void register_platform_schemas();

// Loads a platform file, applies --set overrides and checks the top-level keys.
ConfigNode load_platform_config(const std::string& path, const std::vector<std::string>& sets);

// Builds every component of the platform, as a run does, for `apps` applications with
// empty traces (without running), so that every section is validated against its
// schema and every construction check runs. Throws ConfigError.
void validate_platform(const ConfigNode& root, uint32_t apps = 1);

// The statistics a platform registers (kind, unit, description by full name), from the
// platform built as validate_platform builds it. Statistics per application are named
// after it; here the `apps` applications are called {app0}, {app1}, ... so that those
// names read as patterns.
nlohmann::ordered_json describe_platform_stats(const ConfigNode& root, uint32_t apps = 1);

struct AppInput {
    std::string name;
    std::unique_ptr<trace::TraceSource> source;
};

struct RunReport {
    Simulator::RunResult result;
    uint64_t instructions = 0;
    double peak_rss_mib = 0;
};

class Platform {
public:
    Platform(const ConfigNode& root, std::vector<AppInput> apps);
    ~Platform();

    // Runs to completion, or to run.stop_at; throws SimError on deadlock, time limit or a
    // broken invariant.
    RunReport run(bool progress);

    // stats.json: schema version, zngsim version, resolved config, headline summary,
    // every registered statistic. Contains nothing that varies between identical runs.
    nlohmann::ordered_json stats_json() const;
    // stats.meta.json: kind, unit and description of every statistic in stats_json(),
    // by full name.
    nlohmann::ordered_json stats_meta_json() const;
    // The applications' names as the statistics use them (co-running copies made distinct).
    const std::vector<std::string>& app_names() const { return app_names_; }
    // Where run() writes the time series (CSV, a row per run.stats_interval, written as
    // sampled) when run.stats_interval is set and a component registers series columns.
    void set_series_path(std::string path) { series_path_ = std::move(path); }
    // The short human summary printed after a run.
    std::string summary_text(const RunReport& r) const;

    Simulator& sim() { return *sim_; }

private:
    void build(const ConfigNode& root, std::vector<AppInput> apps);
    // What a run that stopped progressing is waiting for (run.watchdog's error).
    std::string stuck_report(Tick span) const;
    void register_gpu_wait_stats(StatGroup g) const;
    // run.series: the statistics its patterns name become series columns.
    void add_series_columns(const std::string& patterns, const Params& run);
    const ConfigNode& root_;
    std::vector<std::string> app_names_;
    std::unique_ptr<Simulator> sim_;
    std::unique_ptr<AddressTranslator> translator_;
    std::unique_ptr<gpu::Gpu> gpu_;
    std::unique_ptr<MemoryBackend> memory_;
    std::unique_ptr<storage::StorageSystem> storage_;  // the `storage:` section, when present
    Tick max_time_ = 0;
    Tick stop_at_ = 0;      // run.stop_at
    bool stopped_ = false;  // the run ended at stop_at_, before the workload finished
    Tick watchdog_ = 0;  // run.watchdog
    Tick series_interval_ = 0;
    std::string series_path_;
};

}  // namespace cli
}  // namespace zng
