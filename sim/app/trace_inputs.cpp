#include "sim/app/trace_inputs.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "traces/threaded_trace_source.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::cli {

std::unique_ptr<trace::TraceSource> open_trace_input(const std::string& path, const std::string& format) {
    if (format == "ztr") return trace::open_trace(path);
    // An imported trace is parsed on a second core while the simulation runs.
    if (format == "accelsim" || format == "macsim")
        return std::make_unique<trace::ThreadedTraceSource>(
            importers::open_foreign_trace(importers::parse_format(format), path));
    throw UsageError("--format/--trace-format '" + format + "': expected ztr, accelsim or macsim");
}

void add_workload_options(po::options_description& desc) {
    desc.add_options()("preset", po::value<std::string>()->default_value("small"),
                       "workload size: small (seconds, for tests) or paper (data sets larger than the L2)")(
        "scale", po::value<int>()->default_value(0), "problem size (graphs: log2 vertices); 0 = preset default")(
        "edge-factor", po::value<int>()->default_value(0), "graph edge factor; 0 = preset default")(
        "input", po::value<std::string>()->default_value(""),
        "graph input file (GraphBIG CSR dir, SNAP edge list, MatrixMarket); default: generated")(
        "seed", po::value<uint64_t>()->default_value(1), "seed of generated inputs")(
        "skip-init", "leave out initialisation kernels")(
        "max-launches", po::value<int>()->default_value(-1), "kernel launch cap; -1 = the paper's count");
    // The original programs' own options, one flag each, from the workloads' declarations.
    for (const auto& use : workloads::builtin_program_options()) {
        std::string takers;
        for (const auto& w : use.workloads) takers += (takers.empty() ? "" : ", ") + w;
        desc.add_options()(use.option.name.c_str(), po::value<std::string>(),
                           fmt::format("{} [{}]; integer {}..{}; default: per workload, see `zngsim workloads`",
                                       use.option.description, takers, use.option.min, use.option.max)
                               .c_str());
    }
}

workloads::WorkloadOptions workload_options_from(const po::variables_map& vm) {
    workloads::WorkloadOptions o;
    o.preset = vm["preset"].as<std::string>();
    o.scale = vm["scale"].as<int>();
    o.edge_factor = vm["edge-factor"].as<int>();
    o.input = vm["input"].as<std::string>();
    o.seed = vm["seed"].as<uint64_t>();
    o.skip_init = vm.count("skip-init") != 0;
    o.max_launches = vm["max-launches"].as<int>();
    if (!o.input.empty()) require_input(o.input, "--input");
    for (const auto& use : workloads::builtin_program_options()) {
        const std::string& name = use.option.name;
        if (!vm.count(name)) continue;
        const std::string text = vm[name].as<std::string>();
        int64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size())
            throw UsageError(fmt::format("--{}: '{}' is not an integer", name, text));
        if (value < use.option.min || value > use.option.max)
            throw UsageError(fmt::format("--{}: {} is outside {}..{}", name, value, use.option.min, use.option.max));
        o.program[name] = value;
    }
    workloads::validate_options(o);
    return o;
}

std::vector<std::string> split_workloads(const std::string& spec) {
    const auto& reg = workloads::builtin_workloads();
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= spec.size()) {
        size_t comma = spec.find(',', start);
        std::string part = spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (reg.find(part)) {
            out.push_back(part);
        } else {
            // A pair name such as "bfs1-gaus": every dash-separated piece must be a workload.
            size_t s = 0;
            std::vector<std::string> pieces;
            while (s <= part.size()) {
                size_t d = part.find('-', s);
                pieces.push_back(part.substr(s, d == std::string::npos ? std::string::npos : d - s));
                if (d == std::string::npos) break;
                s = d + 1;
            }
            for (const auto& p : pieces)
                if (!reg.find(p))
                    throw std::invalid_argument(
                        fmt::format("--workload '{}': unknown workload '{}' (known: {})", spec, p, reg.names()));
            out.insert(out.end(), pieces.begin(), pieces.end());
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

std::string trace_cache_dir() {
    namespace fs = std::filesystem;
    if (const char* c = std::getenv("ZNGSIM_CACHE"); c && *c) return c;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "zngsim").string();
    if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "zngsim").string();
    return (fs::temp_directory_path() / "zngsim-cache").string();
}

void print_import_report(const importers::ImportReport& r, std::ostream& os) {
    os << fmt::format("imported {} kernels, {} CTAs, {} warps, {} instructions ({} memory) into {} records\n",
                      r.kernels, r.ctas, r.warps, r.instructions, r.memory_instructions, r.records);
    std::string w = r.warnings();
    if (!w.empty()) os << w;
}

}  // namespace zng::cli
