// How the command turns its inputs into trace sources: .ztr files, Accel-Sim/MacSim
// traces, and built-in workloads (generated once into a cache and streamed).
#pragma once
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "sim/app/cli_common.hpp"
#include "traces/importers/importers.hpp"
#include "traces/trace.hpp"
#include "traces/workloads/workload_options.hpp"

namespace zng::cli {

// format: "ztr" (zngsim), "accelsim" or "macsim".
std::unique_ptr<trace::TraceSource> open_trace_input(const std::string& path, const std::string& format);

// --preset --scale --edge-factor --input --seed --skip-init --max-launches, and the
// options of the original programs that the workloads declare (--root, --size, ...).
// A value that is not an integer or is out of its declared range is a UsageError.
void add_workload_options(po::options_description& desc);
workloads::WorkloadOptions workload_options_from(const po::variables_map& vm);

// Splits "betw,back" or a pair name "betw-back" into workload names (each checked
// against the built-in list; unknown names are std::invalid_argument listing them).
std::vector<std::string> split_workloads(const std::string& spec);

// Where generated traces are cached: $ZNGSIM_CACHE, else $XDG_CACHE_HOME/zngsim,
// else ~/.cache/zngsim.
std::string trace_cache_dir();

void print_import_report(const importers::ImportReport& r, std::ostream& os);

}  // namespace zng::cli
