#include "sim/app/platform.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <fnmatch.h>
#include <sys/resource.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <set>
#include <sstream>
#include <stdexcept>

#include "gpu_model/gpu.hpp"
#include "sim/app/cli_common.hpp"
#include "sim/app/memory_estimate.hpp"
#include "sim/app/version.hpp"
#include "sim/config/params.hpp"
#include "sim/config/registry.hpp"
#include "sim/config/units.hpp"
#include "sim/core/errors.hpp"
#include "sim/mem/address_translator.hpp"
#include "sim/mem/cache_flush_client.hpp"
#include "sim/mem/memory_backend.hpp"
#include "sim/mem/write_redirection.hpp"
#include "sim/mem/dma_traffic_sink.hpp"
#include "storage/control/os_fault_plane.hpp"
#include "storage/gofs/gofs_plane.hpp"
#include "storage/storage_system.hpp"
#include "traces/array_index.hpp"
#include "traces/vector_trace_source.hpp"

namespace zng::cli {
namespace {

using namespace param_kind;

// The top level of a platform file: which sections exist. Each section is validated by
// the component that reads it.
const Param<Section> kPlatformSection{"platform", "", "name and description of the platform (free text)"};
const Param<Section> kGpuSection{"gpu", "", "the GPU: SMs, schedulers, L1D, TLBs, MMU, crossbar, L2"};
const Param<Section> kTranslationSection{"translation", "",
                                         "address translation behind the MMU (type: first_touch, ...)"};
const Param<Section> kMemorySection{"memory", "", "what sits behind the L2 (type: gddr5, optane, zng_flash, ...)"};
const Param<Section> kFlashSection{"flash", "", "Z-NAND geometry and timing shared by flash-based back ends"};
const Param<Section> kRunSection{"run", "", "simulator settings"};
const Param<Section> kStorageSection{"storage", "",
                                     "the node's storage path for GPU-issued I/O: SSD array, PCIe, host CPU, GPU DMA "
                                     "port, control plane (storage/system); absent: io_submit records are trace errors"};

// run: simulator settings.
const Param<Time> kMaxSimTime{"max_sim_time", "0",
                              "stop with an error after this much simulated time (0 = no limit)"};
const Param<Time> kStopAt{
    "stop_at", "0",
    "end the run at this simulated time with the statistics of the window so far, as a run that finished (exit 0; "
    "stats.json gains stopped_at_ps, and an unfinished application's cycles and IPC are the window's), to study "
    "the start of a long workload; 0 = run to the end. run.max_sim_time, an error, still applies"};
const Param<Time> kStatsInterval{
    "stats_interval", "0",
    "sample time-series statistics (per-app requests, ...) every interval into series.csv, written as sampled (0 = "
    "off); at least 1us: below a Z-NAND read (tR 3 us) a sample shows no trend, and 1 us bounds the file to 10^6 "
    "rows per simulated second"};
const Param<String> kSeries{
    "series", "",
    "more columns for series.csv: comma-separated statistic names or shell patterns (memory.controller*.reads), each "
    "sampled as its value so far (a counter's count, an average's mean); a pattern that names no statistic is an "
    "error; needs run.stats_interval"};
const Param<Time> kWatchdog{
    "watchdog", "1s",
    "stop with an error when neither a warp instruction retires nor a GC merge ends for this much simulated time, "
    "reporting the oldest request in flight (0 = off); a merge that ends counts because it releases the requests "
    "it held (paper V-D), so co-running applications all waiting for queued merges are slow, not stuck"};
const Param<Size> kMemoryLimit{
    "memory_limit", "16GiB",
    "host memory the arrays a platform allocates up front (cache tag arrays, MSHR tables, TLBs, queues built to "
    "their depth, flash planes and registers, FTL and file-system tables, statistics; sized by the config, not by "
    "what a run touches) may take; a config past it is refused before the array is allocated (0 = no limit)"};
// Read by the data-set regime (sim/app/data_set_regime.cpp) before the platform is built.
const Param<Real> kDataSetRatio{"data_set_ratio", "0",
                                "size the capacities of data_set_capacities to this fraction of the applications' "
                                "data set (sum of their device arrays); 0 = as configured "
                                "(sim/app/data_set_regime.hpp)"};
const Param<Section> kDataSetCapacities{
    "data_set_capacities", "",
    "capacities that hold part of the data set, as key path -> share of data_set_ratio x data set"};

// platform: identification.
const Param<String> kPlatformName{"name", "", "short name (ideal, zng, ...)"};
const Param<String> kPlatformDescription{"description", "", "one line on what the platform is"};

const ComponentSchema& root_schema() {
    static const CataloguedSchema s{{
        .slot = "platform",
        .name = "root",
        .description = "Top-level sections of a platform file (include: merges shared fragments first).",
        .params = {kPlatformSection, kGpuSection, kTranslationSection, kMemorySection, kFlashSection, kRunSection,
                    kStorageSection},
        .ports = {},
    }};
    return s.schema;
}

const ComponentSchema& run_schema() {
    static const CataloguedSchema s{{
        .slot = "run",
        .name = "run",
        .description = "Simulator settings of a run.",
        .params = {kMaxSimTime, kStopAt, kStatsInterval, kSeries, kWatchdog, kMemoryLimit, kDataSetRatio, kDataSetCapacities},
        .ports = {},
    }};
    return s.schema;
}

const ComponentSchema& platform_info_schema() {
    static const CataloguedSchema s{{
        .slot = "platform",
        .name = "info",
        .description = "Identification of a platform.",
        .params = {kPlatformName, kPlatformDescription},
        .ports = {},
    }};
    return s.schema;
}

ConfigError section_error(const ConfigNode& root, const std::string& section, const std::string& why) {
    const ConfigNode* n = root.find_path(section);
    return ConfigError(fmt::format("{}: section '{}' cannot be built: {}", n ? n->loc().str() : "<default>", section, why));
}

void check_root(const ConfigNode& root) {
    Params top(&root, root_schema(), "");
    Params info(top[kPlatformSection], platform_info_schema(), kPlatformSection.key());
    Params run(top[kRunSection], run_schema(), kRunSection.key());
}

// Nothing is simulated while a platform is built, so a model refusing its parameters
// deep inside a constructor (a SimError, std::invalid_argument) is a configuration it
// cannot be built from: reported as one, at the section that describes the component.
template <class Make>
auto build_section(const ConfigNode& root, const std::string& section, Make&& make) {
    try {
        return make();
    } catch (const ConfigError&) {
        throw;
    } catch (const SimError& e) {
        throw section_error(root, section, e.what());
    } catch (const std::invalid_argument& e) {
        throw section_error(root, section, e.what());
    } catch (const std::length_error& e) {
        throw section_error(root, section, e.what());
    }
}

// run.stats_interval's floor (see its description).
constexpr Tick kMinSeriesInterval = kMicrosecond;

double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is KiB on Linux
}

}  // namespace

void register_platform_schemas() {
    root_schema();
    run_schema();
    platform_info_schema();
}

ConfigNode load_platform_config(const std::string& path, const std::vector<std::string>& sets) {
    ConfigNode root = load_config_file(path);
    for (const auto& s : sets) apply_override(root, s);
    check_root(root);
    return root;
}

namespace {
// Applications with empty traces: what a platform builds for them (SM partitions,
// per-application placement, their statistics) is built as a run builds it.
std::vector<AppInput> empty_apps(uint32_t apps, const char* name_format) {
    std::vector<AppInput> inputs;
    for (uint32_t a = 0; a < apps; ++a)
        inputs.push_back({fmt::format(fmt::runtime(name_format), a), std::make_unique<trace::VectorTraceSource>()});
    return inputs;
}
}  // namespace

void validate_platform(const ConfigNode& root, uint32_t apps) { Platform p(root, empty_apps(apps, "app{}")); }

nlohmann::ordered_json describe_platform_stats(const ConfigNode& root, uint32_t apps) {
    Platform p(root, empty_apps(apps, "{{app{}}}"));
    return p.stats_meta_json()["stats"];
}

Platform::Platform(const ConfigNode& root, std::vector<AppInput> apps) : root_(root), sim_(std::make_unique<Simulator>()) {
    try {
        build(root, std::move(apps));
    } catch (const std::bad_alloc&) {
        // What is allocated while building follows the configured geometry and sizes, so
        // running out of memory here is a configuration the host cannot hold.
        throw ConfigError("building the platform ran out of memory: the configured geometry and sizes need more "
                          "memory than this host can give (run.memory_limit covers the arrays allocated up front: "
                          "cache tag arrays, MSHR tables, TLBs, queues, flash, FTL and file-system tables, statistics)");
    }
}

// A GPU file system whose own kernels hold SMs (GoFS's polling blocks or daemon) leaves
// the applications the lower-numbered rest, split equally as the GPU splits free SMs.
static void reserve_storage_sms(const ConfigNode& root, std::vector<gpu::AppSpec>& specs) {
    const uint32_t reserved =
        storage::gofs::GofsSettings::reserved_sms_of(root.find(kStorageSection.key()), kStorageSection.key());
    if (reserved == 0 || specs.empty()) return;
    const Params gpu(root.find("gpu"), gpu::Gpu::schema(), "gpu");
    const uint32_t sms = gpu.u32("sms");
    if (reserved + specs.size() > sms)
        throw ConfigError(fmt::format("storage.control_plane: GoFS holds {} of the GPU's {} SMs, leaving fewer than "
                                      "one per application ({})", reserved, sms, specs.size()));
    const size_t free = sms - reserved;
    for (size_t a = 0; a < specs.size(); ++a) {
        if (!specs[a].sms.empty()) continue;
        for (size_t s = a * free / specs.size(); s < (a + 1) * free / specs.size(); ++s)
            specs[a].sms.push_back(static_cast<uint32_t>(s));
    }
}

void Platform::build(const ConfigNode& root, std::vector<AppInput> apps) {
    check_root(root);
    Params run(root.find(kRunSection.key()), run_schema(), kRunSection.key());
    const uint64_t estimated = check_memory_estimate(root, run[kMemoryLimit], run.where(kMemoryLimit.key()));
    sim_->memory_budget().set_limit(run[kMemoryLimit], run.where(kMemoryLimit.key()));
    sim_->memory_budget().reserve(1, estimated, "cache tag arrays, MSHR tables and TLBs");
    max_time_ = run[kMaxSimTime];
    stop_at_ = run[kStopAt];
    series_interval_ = run[kStatsInterval];
    if (series_interval_ != 0 && series_interval_ < kMinSeriesInterval)
        run.fail(kStatsInterval.key(), fmt::format("{} is below the minimum of {} (0 turns the series off)",
                                               units::format_time(series_interval_),
                                               units::format_time(kMinSeriesInterval)));
    watchdog_ = run[kWatchdog];
    const std::string series_patterns = run[kSeries];
    if (!series_patterns.empty() && series_interval_ == 0)
        run.fail(kSeries.key(), "a series needs run.stats_interval (the sampling interval) above 0");

    std::vector<trace::ArrayIndex> data_sets;
    for (const auto& a : apps) data_sets.emplace_back(a.source ? trace::ArrayIndex(a.source->header().arrays)
                                                               : trace::ArrayIndex());
    // The node's storage path comes first: Hetero's translator may drive its control plane.
    const ConfigNode* storage_section = root.find(kStorageSection.key());
    if (storage_section)
        storage_ = build_section(root, kStorageSection.key(), [&] {
            return std::make_unique<storage::StorageSystem>(*sim_, storage_section, kStorageSection.key(),
                                                            kStorageSection.key());
        });
    TranslatorContext tctx{&root, static_cast<uint32_t>(apps.size()),
                           [sets = std::move(data_sets)](uint16_t app, uint64_t first, uint64_t last) {
                               return app >= sets.size() || sets[app].empty() || sets[app].overlaps(first, last);
                           }};
    tctx.storage_plane = storage_ ? storage_->control_plane() : nullptr;
    translator_ = build_section(root, "translation", [&] {
        return translator_slot().create(root.find("translation"), "translation", "first_touch", *sim_, tctx);
    });
    if (storage_ && storage_->control_plane())
        if (auto* faults = storage_->control_plane()->find_interface<storage::OsFaultPlane>(); faults && !faults->driven()) {
            const ConfigNode* plane = storage_section->find("control_plane");
            const ConfigNode* type = plane ? plane->find("type") : nullptr;
            throw ConfigError(fmt::format("{}: storage.control_plane.type: os_fault carries the page faults of the "
                                          "hetero_host translator, and translation.type is another",
                                          type ? type->loc().str() : "<default>"));
        }

    std::vector<gpu::AppSpec> specs;
    for (auto& a : apps) {
        // Co-running copies of one workload get distinct names: stats are per app name.
        std::string name = a.name;
        for (int copy = 2; std::find(app_names_.begin(), app_names_.end(), name) != app_names_.end(); ++copy)
            name = fmt::format("{}_{}", a.name, copy);
        app_names_.push_back(name);
        gpu::AppSpec s;
        s.name = name;
        s.trace = std::move(a.source);
        specs.push_back(std::move(s));
    }
    reserve_storage_sms(root, specs);
    gpu_ = build_section(root, "gpu", [&] {
        return std::make_unique<gpu::Gpu>(*sim_, root.find("gpu"), *translator_, std::move(specs));
    });
    // A translator that merges an application's blocks (ZnG's helper thread) first has
    // that application's dirty lines written back from the L2.
    if (auto* c = translator_->find_interface<CacheFlushClient>())
        c->set_cache_flush([l2 = &gpu_->l2()](uint16_t app) { l2->flush_app(app); });

    BackendContext bctx;
    bctx.ports = gpu_->l2_banks();
    bctx.line_size = gpu_->line_size();
    bctx.gpu_clock = &gpu_->clock();
    bctx.root = &root;
    bctx.translator = translator_.get();
    memory_ = build_section(root, "memory",
                            [&] { return memory_backend_slot().create(root.find("memory"), "memory", "gddr5", *sim_, bctx); });
    if (memory_->num_ports() != gpu_->l2_banks())
        throw ConfigError(fmt::format("memory back end has {} ports but the GPU has {} L2 banks",
                                      memory_->num_ports(), gpu_->l2_banks()));
    for (uint32_t b = 0; b < gpu_->l2_banks(); ++b) gpu_->memory_port(b).bind(memory_->port(b));
    gpu_->set_backend_drained([m = memory_.get()] { return m->in_flight() == 0; });
    // Multi-line (unit-granular) L2 fills only go to a back end that serves them whole.
    gpu_->l2().set_max_read_bytes(memory_->max_read_bytes());
    // A flash back end whose registers can thrash tells the L2 policy when to hold dirty
    // lines in pinned space (ZnG's write redirection); other back ends have nothing to say.
    if (auto* r = memory_->find_interface<WriteRedirectionSource>()) gpu_->l2().policy().set_redirection_source(r);

    // Storage DMA (the storage section's port, Hetero's own page copies) goes through
    // the GPU memory's channels when they are modelled.
    if (auto* sink = memory_->find_interface<DmaTrafficSink>()) {
        if (storage_) storage_->gpu_dma().set_sink(sink);
        if (auto* source = translator_->find_interface<DmaTrafficSource>()) source->set_dma_sink(sink);
    }

    // GPU-issued storage I/O: the storage path's control plane serves every SM.
    if (storage_) {
        storage_->register_stats(sim_->stats(), kStorageSection.key());
        if (StorageIoService* io = storage_->control_plane()) {
            for (uint32_t i = 0; i < gpu_->num_sms(); ++i) gpu_->sm(i).set_storage_io(io);
            register_gpu_wait_stats(StatGroup(sim_->stats(), kStorageSection.key()).sub("gpu_wait"));
        }
    }

    StatGroup mem(sim_->stats(), "memory");
    MemoryBackend* m = memory_.get();
    Simulator* s = sim_.get();
    mem.formula("medium_read_bandwidth", "bytes read at the storage medium per simulated second", "GB/s", [m, s] {
        double t = ticks_to_seconds(s->now());
        return t > 0 ? static_cast<double>(m->medium_bytes_read()) / t / 1e9 : 0.0;
    });
    mem.formula("medium_write_bandwidth", "bytes written at the storage medium per simulated second", "GB/s",
                [m, s] {
                    double t = ticks_to_seconds(s->now());
                    return t > 0 ? static_cast<double>(m->medium_bytes_written()) / t / 1e9 : 0.0;
                });
    // Every statistic is registered by now: the columns asked for can be resolved.
    add_series_columns(series_patterns, run);
}

// run.series: each pattern adds the statistics it matches, in registration order, once.
void Platform::add_series_columns(const std::string& patterns, const Params& run) {
    StatRegistry& reg = sim_->stats();
    std::set<std::string> taken(reg.series_names().begin(), reg.series_names().end());
    for (const std::string& item : split_commas(patterns)) {
        // Blanks around a pattern are not part of it; an empty one names nothing.
        const size_t b = item.find_first_not_of(" \t");
        if (b == std::string::npos) continue;
        const std::string pattern = item.substr(b, item.find_last_not_of(" \t") - b + 1);
        bool matched = false;
        for (const Stat* st : reg.all()) {
            if (::fnmatch(pattern.c_str(), st->name().c_str(), 0) != 0) continue;
            matched = true;
            if (!taken.insert(st->name()).second) continue;
            reg.add_series_column(st->name(), [st] { return st->value(); });
        }
        if (!matched)
            run.fail(kSeries.key(), fmt::format("'{}' names no statistic of this platform (`zngsim stats describe` "
                                                "lists them)", pattern));
    }
}

// What GPU-issued I/O costs the SMs while threads wait for it (seed 000 Fig. 4: the SMs
// BaM's polling threads occupy): sums over the SMs' storage_io statistics and shares of
// the GPU's SMs and warp slots over the run.
void Platform::register_gpu_wait_stats(StatGroup g) const {
    gpu::Gpu* gpu = gpu_.get();
    Simulator* s = sim_.get();
    auto sum = [gpu](auto f) {
        double t = 0;
        for (uint32_t i = 0; i < gpu->num_sms(); ++i) t += static_cast<double>(f(*gpu->sm(i).storage_io()));
        return t;
    };
    auto slots = [gpu, s] {
        return static_cast<double>(s->now()) * gpu->num_sms() * gpu->sm(0).storage_io()->warp_slots();
    };
    g.formula("polls", "poll instructions issued by warps waiting for storage I/O, all SMs", "instructions",
              [sum] { return sum([](const gpu::WarpStorageIo& w) { return w.polls(); }); });
    g.formula("polling_sm_share", "mean share of the SMs holding at least one warp polling for storage I/O", "ratio",
              [sum, gpu, s] {
                  const double t = static_cast<double>(s->now()) * gpu->num_sms();
                  return t > 0 ? sum([](const gpu::WarpStorageIo& w) { return w.polling_sm_time(); }) / t : 0.0;
              });
    g.formula("polling_slot_share", "mean share of the GPU's warp slots held by warps polling for storage I/O",
              "ratio", [sum, slots] {
                  const double t = slots();
                  return t > 0 ? sum([](const gpu::WarpStorageIo& w) { return w.polling_time(); }) / t : 0.0;
              });
    g.formula("blocked_slot_share",
              "mean share of the GPU's warp slots held by warps blocked (issuing nothing) in io_wait", "ratio",
              [sum, slots] {
                  const double t = slots();
                  return t > 0 ? sum([](const gpu::WarpStorageIo& w) { return w.blocked_time(); }) / t : 0.0;
              });
}

Platform::~Platform() {
    // Components go first (they own the events still referenced by the queue).
    gpu_.reset();
    storage_.reset();
    memory_.reset();
    translator_.reset();
}

// A run stops when every application has finished (the GPU stops the simulator). If the
// queue drains first, something waits for an event that will never come: a deadlock.
RunReport Platform::run(bool progress) {
    RunReport rep;
    if (app_names_.empty()) throw ConfigError("nothing to run: give at least one workload or trace");
    gpu::Gpu* g = gpu_.get();
    sim_->set_progress([g] { return g->progress(); }, progress);
    // The time series goes to its file as it is sampled: a long run at a fine interval
    // must not hold it in memory. Written beside the target and renamed when the run
    // ends, so a failed run leaves no partial series.
    struct SeriesSampler : Event {
        Platform& p;
        std::FILE* f = nullptr;
        std::vector<double> row;
        SeriesSampler(Platform& p) : Event("stats-series"), p(p) {}
        void process() override {
            p.sim_->stats().sample_series(ticks_to_seconds(p.sim_->now()) * 1e6, row);
            for (size_t i = 0; i < row.size(); ++i) fmt::print(f, "{}{}", i ? "," : "", row[i]);
            std::fputc('\n', f);
            // Only while the model has work: the sampler alone must not keep the queue alive.
            if (!p.sim_->events().empty()) p.sim_->schedule(*this, p.sim_->now() + p.series_interval_);
        }
        ~SeriesSampler() {
            if (f) std::fclose(f);
        }
    } series(*this);
    const std::string series_tmp = series_path_.empty() ? "" : series_path_ + fmt::format(".tmp{}", ::getpid());
    if (series_interval_ && !series_path_.empty() && sim_->stats().has_series()) {
        series.f = std::fopen(series_tmp.c_str(), "w");
        if (!series.f) throw SimError("cannot write " + series_tmp);
        std::fputs("time_us", series.f);
        for (const auto& n : sim_->stats().series_names()) fmt::print(series.f, ",{}", n);
        std::fputc('\n', series.f);
        sim_->schedule(series, series_interval_);
    }
    struct RemoveOnFailure {
        const std::string& path;
        bool done = false;
        ~RemoveOnFailure() {
            if (!done && !path.empty()) std::remove(path.c_str());
        }
    } partial_series{series_tmp};
    struct Limit : Event {
        Simulator& s;
        Tick t;
        Limit(Simulator& s, Tick t) : Event("max-sim-time"), s(s), t(t) {}
        void process() override {
            throw SimError(fmt::format("simulated time limit run.max_sim_time = {} reached before the workload finished",
                                       units::format_time(t)));
        }
    } limit(*sim_, max_time_);
    if (max_time_) sim_->schedule(limit, max_time_);
    // run.stop_at: scheduled before anything of its tick, so the window is [0, stop_at).
    struct StopAt : Event {
        Platform& p;
        StopAt(Platform& p) : Event("stop-at"), p(p) {}
        void process() override {
            p.stopped_ = true;
            p.sim_->stop();
        }
    } stop_at(*this);
    if (stop_at_) sim_->schedule(stop_at, stop_at_);
    // A run that never ends is worse than one that fails: every `watchdog_` of simulated
    // time, at least one warp instruction must have retired or one unit of the
    // translator's background work (a GC merge, which releases its held owner) must
    // have ended. When the watchdog is the last event left it steps aside, so that a
    // drained queue is still reported as the deadlock it is.
    struct Watchdog : Event {
        Platform& p;
        Tick span;
        uint64_t last = 0;
        Watchdog(Platform& p, Tick span) : Event("progress-watchdog"), p(p), span(span) {}
        void process() override {
            const uint64_t now = p.gpu_->progress().instructions + p.translator_->background_work_done();
            if (p.sim_->events().empty()) return;
            if (now == last) throw SimError(p.stuck_report(span));
            last = now;
            p.sim_->schedule(*this, p.sim_->now() + span);
        }
    } watchdog(*this, watchdog_);
    if (watchdog_) sim_->schedule(watchdog, watchdog_);
    gpu_->start();
    rep.result = sim_->run();
    if (limit.scheduled()) sim_->events().deschedule(limit);
    if (stop_at.scheduled()) sim_->events().deschedule(stop_at);
    if (watchdog.scheduled()) sim_->events().deschedule(watchdog);
    if (series.scheduled()) sim_->events().deschedule(series);
    if (stopped_) {
        // The window ends with work in flight: nothing is left to check but what the
        // statistics say of it.
        gpu_->close_window();
    } else if (!gpu_->finished()) {
        throw SimError(fmt::format("deadlock: no event left at {} but the workload has not finished ({} memory "
                                   "requests in the back end, {} requests alive)",
                                   units::format_time(sim_->now()), memory_->in_flight(), sim_->requests().live()));
    } else {
        gpu_->check_invariants();
        if (memory_->in_flight() != 0)
            throw SimError(fmt::format("{} memory requests still in the back end at the end of the run",
                                       memory_->in_flight()));
    }
    if (series.f) {
        const bool written = std::fflush(series.f) == 0 && !std::ferror(series.f);
        std::fclose(series.f);
        series.f = nullptr;
        if (!written || std::rename(series_tmp.c_str(), series_path_.c_str()) != 0)
            throw SimError("cannot write " + series_path_);
        partial_series.done = true;
    }
    rep.instructions = gpu_->progress().instructions;
    rep.peak_rss_mib = peak_rss_mib();
    return rep;
}

std::string Platform::stuck_report(Tick span) const {
    const ProgressInfo pi = gpu_->progress();
    std::string out = fmt::format(
        "no progress: no warp instruction retired and no background work ended in the last {} of simulated time "
        "(at {}, {} warp instructions done{}); {} memory requests in the back end, {} requests alive (run.watchdog)",
        units::format_time(span), units::format_time(sim_->now()), pi.instructions,
        pi.total_instructions ? fmt::format(" of {}", pi.total_instructions) : std::string(), memory_->in_flight(),
        sim_->requests().live());
    if (const MemRequest* r = sim_->requests().oldest_live()) {
        int last = -1;
        for (int st = 0; st < kStageCount; ++st)
            if (r->passed(static_cast<Stage>(st))) last = st;
        out += fmt::format("; oldest request: #{} {} of {} B at {:#x} (app {}, SM {}, warp {}, PC {:#x})", r->id,
                           to_string(r->op), r->size, r->paddr, r->app, r->sm, r->warp, r->pc);
        if (last >= 0)
            out += fmt::format(", last stage {} at {}", to_string(static_cast<Stage>(last)),
                               units::format_time(r->at(static_cast<Stage>(last))));
        else
            out += ", no stage passed";
    }
    // Merges hold all of their owner's requests (paper V-D): a merge that does not end
    // holds its owner without any request being lost, and the report says so.
    if (const std::string bg = translator_->background_work_state(); !bg.empty()) out += "; " + bg;
    return out;
}

nlohmann::ordered_json Platform::stats_json() const {
    nlohmann::ordered_json j;
    j["schema_version"] = 1;
    j["zngsim_version"] = kVersion;
    const ConfigNode* name = root_.find_path("platform.name");
    j["platform"] = name ? name->scalar() : "";
    j["workloads"] = app_names_;
    j["sim_time_ps"] = sim_->now();
    if (stopped_) j["stopped_at_ps"] = stop_at_;  // run.stop_at ended it: a window, not the whole workload
    j["config"] = root_.to_json();
    j["stats"] = sim_->stats().to_json();
    return j;
}

nlohmann::ordered_json Platform::stats_meta_json() const {
    nlohmann::ordered_json j;
    j["schema_version"] = 1;
    j["stats"] = sim_->stats().meta_json();
    return j;
}

std::string Platform::summary_text(const RunReport& r) const {
    std::ostringstream os;
    const StatRegistry& st = sim_->stats();
    auto val = [&](const std::string& n) -> double {
        const Stat* s = st.find(n);
        return s ? s->value() : 0.0;
    };
    const ConfigNode* name = root_.find_path("platform.name");
    os << fmt::format("platform        {}\n", name ? name->scalar() : "(unnamed)");
    os << fmt::format("simulated time  {:.3f} us ({} GPU cycles)\n", ticks_to_seconds(sim_->now()) * 1e6,
                      gpu_->clock().tick_to_cycle(sim_->now()));
    if (stopped_)
        os << fmt::format("stopped         at run.stop_at = {}, before the workload finished\n",
                          units::format_time(stop_at_));
    os << fmt::format("warp instr.     {}\n", r.instructions);
    os << fmt::format("IPC             {:.4f} warp instructions per GPU cycle\n", val("gpu.ipc"));
    for (const auto& a : app_names_)
        os << fmt::format("  {:<12}  IPC {:.4f}, {:.0f} instructions, {:.0f} cycles\n", a, val("gpu.app." + a + ".ipc"),
                          val("gpu.app." + a + ".instructions"), val("gpu.app." + a + ".cycles"));
    os << fmt::format("L1D hit rate    {:.3f}   L2 hit rate {:.3f}\n", val("gpu.l1d.hit_rate"), val("gpu.l2.hit_rate"));
    os << fmt::format("memory          read {:.3f} GB/s, write {:.3f} GB/s at the medium\n",
                      val("memory.medium_read_bandwidth"), val("memory.medium_write_bandwidth"));
    os << fmt::format("host            {:.2f} s wall, {:.2f} M warp instr/s, {:.1f} M events/s, peak RSS {:.0f} MiB\n",
                      r.result.wall_seconds,
                      r.result.wall_seconds > 0 ? static_cast<double>(r.instructions) / r.result.wall_seconds / 1e6 : 0,
                      r.result.wall_seconds > 0 ? static_cast<double>(r.result.events) / r.result.wall_seconds / 1e6 : 0,
                      r.peak_rss_mib);
    return os.str();
}

}  // namespace zng::cli
