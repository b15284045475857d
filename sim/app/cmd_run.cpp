// zngsim run: simulate one or more applications on a platform.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/app/cli_common.hpp"
#include "sim/app/data_set_regime.hpp"
#include "sim/app/platform.hpp"
#include "sim/app/trace_inputs.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::cli {
namespace {

namespace fs = std::filesystem;

// Writes via a temporary file and rename, so a killed run never leaves a half file
// that a sweep would take for a finished result.
void write_atomically(const fs::path& path, const std::string& text) {
    fs::path tmp = path;
    tmp += fmt::format(".tmp{}", ::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error("cannot write " + tmp.string());
        out << text;
        if (!out.flush()) throw std::runtime_error("cannot write " + tmp.string());
    }
    fs::rename(tmp, path);
}

// The output directory is checked before anything is simulated (a run of minutes must
// not end in "cannot write"), and the files of an earlier run there are removed, so a
// series.csv or stats.json never sits beside results it does not belong to.
void prepare_output(const fs::path& out) {
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec || !fs::is_directory(out))
        throw UsageError("--out " + out.string() + ": cannot create the directory" + (ec ? ": " + ec.message() : ""));
    const fs::path probe = out / fmt::format(".zngsim-write-test{}", ::getpid());
    {
        std::ofstream f(probe);
        if (!f) throw UsageError("--out " + out.string() + ": the directory is not writable");
    }
    fs::remove(probe, ec);
    for (const char* old : {"stats.json", "stats.meta.json", "run.json", "series.csv"}) {
        fs::remove(out / old, ec);
        if (ec) throw UsageError("--out " + out.string() + ": cannot remove the earlier run's " + old + ": " + ec.message());
    }
}

// What a built-in workload was generated from: its options (program options only
// where chosen) and the key of its cached trace.
nlohmann::ordered_json workload_json(const std::string& name, const workloads::WorkloadOptions& o) {
    nlohmann::ordered_json options{{"preset", o.preset}, {"scale", o.scale},     {"edge_factor", o.edge_factor},
                                   {"input", o.input},   {"seed", o.seed},       {"skip_init", o.skip_init},
                                   {"max_launches", o.max_launches}};
    for (const auto& [option, value] : o.program) options[option] = value;
    return {{"name", name}, {"options", options}, {"trace_key", workloads::workload_cache_key(name, o)}};
}

}  // namespace

int cmd_run(int argc, char** argv) {
    po::options_description desc("zngsim run options");
    desc.add_options()("help,h", "this help")("config,c", po::value<std::string>()->required(),
                                               "platform file (configs/<platform>.yaml)")(
        "workload,w", po::value<std::string>(),
        "built-in workload(s): bfs1, or several co-running: betw,back or betw-back")(
        "trace,t", po::value<std::string>(), "trace file(s) to run instead, comma-separated for co-running")(
        "trace-format", po::value<std::string>()->default_value("ztr"), "format of --trace: ztr, accelsim, macsim")(
        "set,s", po::value<std::vector<std::string>>(), "override a config key: --set gpu.l2.size=24MiB (repeatable)")(
        "out,o", po::value<std::string>()->default_value("zngsim-out"), "output directory (stats.json, stats.meta.json, run.json)")(
        "quiet,q", "no summary and no progress line");
    add_workload_options(desc);
    po::variables_map vm;
    if (!parse(argc, argv, desc, vm,
               "usage: zngsim run --config FILE (--workload NAME[,NAME] | --trace FILE[,FILE]) [--set k=v]... "
               "[--out DIR]"))
        return kExitOk;
    if (vm.count("workload") == vm.count("trace"))
        throw UsageError("give exactly one of --workload and --trace");

    const fs::path out = vm["out"].as<std::string>();
    if (vm.count("trace"))
        for (const auto& path : split_commas(vm["trace"].as<std::string>()))
            if (!fs::exists(path)) throw UsageError("--trace " + path + ": no such file or directory");

    register_all_components();
    std::vector<std::string> sets = vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
    ConfigNode root = load_platform_config(vm["config"].as<std::string>(), sets);

    std::vector<AppInput> apps;
    std::vector<DataSetInput> reopen;  // the same traces, for the data-set footprint pass
    nlohmann::ordered_json workload_record = nlohmann::ordered_json::array();
    if (vm.count("workload")) {
        const workloads::WorkloadOptions opt = workload_options_from(vm);
        const std::vector<std::string> names = split_workloads(vm["workload"].as<std::string>());
        workloads::check_program_options_apply(names, opt);
        for (const auto& name : names) {
            const workloads::WorkloadOptions mine = workloads::options_for_workload(name, opt);
            workload_record.push_back(workload_json(name, mine));
            std::string path = workloads::cached_workload_trace(name, mine, trace_cache_dir());
            apps.push_back({name, trace::open_trace(path)});
            reopen.push_back({name, [path] { return trace::open_trace(path); }, path});
        }
    } else {
        std::string fmt_name = vm["trace-format"].as<std::string>();
        for (const auto& path : split_commas(vm["trace"].as<std::string>())) {
            auto src = open_trace_input(path, fmt_name);
            std::string name = src->header().workload.empty() ? fs::path(path).filename().string() : src->header().workload;
            apps.push_back({name, std::move(src)});
            reopen.push_back({name, [path, fmt_name] { return open_trace_input(path, fmt_name); }, ""});
        }
    }

    apply_data_set_regime(root, reopen);
    prepare_output(out);
    bool quiet = vm.count("quiet") != 0;
    Platform platform(root, std::move(apps));
    platform.set_series_path((out / "series.csv").string());
    RunReport rep = platform.run(!quiet && ::isatty(STDOUT_FILENO));

    write_atomically(out / "stats.json", platform.stats_json().dump(1) + "\n");
    write_atomically(out / "stats.meta.json", platform.stats_meta_json().dump(1) + "\n");
    nlohmann::ordered_json run;
    run["wall_seconds"] = rep.result.wall_seconds;
    run["events"] = rep.result.events;
    run["warp_instructions"] = rep.instructions;
    run["warp_instructions_per_second"] =
        rep.result.wall_seconds > 0 ? static_cast<double>(rep.instructions) / rep.result.wall_seconds : 0.0;
    run["peak_rss_mib"] = rep.peak_rss_mib;
    if (!workload_record.empty()) run["workloads"] = workload_record;
    write_atomically(out / "run.json", run.dump(1) + "\n");
    if (!quiet) std::cout << platform.summary_text(rep) << "stats: " << (out / "stats.json").string() << "\n";
    return kExitOk;
}

}  // namespace zng::cli
