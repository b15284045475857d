// Helpers shared by the dense workload tests: temp paths, running a generator into a
// trace file, and summarizing that file.
#pragma once

#include <cmath>
#include <filesystem>
#include <string>
#include <utility>

#include "traces/trace_summary.hpp"
#include "traces/workloads/workload_context.hpp"

namespace zng::workloads::testing {

inline std::string tmp_trace(const std::string& name) {
    return (std::filesystem::path(ZNG_TEST_TMP_DIR) / (name + ".ztr")).string();
}

// Runs generate(ctx) for `workload` into `path` with the launch cap max_launches (-1:
// the Table II profile) and finishes the trace; returns what the generator returned.
template <typename Generate>
auto run_generator(const std::string& workload, int max_launches, const std::string& path, Generate&& generate) {
    WorkloadOptions options;
    options.max_launches = max_launches;
    WorkloadContext ctx(workload, std::move(options), path);
    auto result = generate(ctx);
    ctx.finish();
    return result;
}

inline trace::TraceSummary summarize_file(const std::string& path) {
    auto src = trace::open_trace(path);
    return trace::summarize(*src);
}

// |a - b| within rel * max(|a|, |b|) + abs.
inline bool close(double a, double b, double rel, double abs_tol) {
    return std::fabs(a - b) <= rel * std::fmax(std::fabs(a), std::fabs(b)) + abs_tol;
}

}  // namespace zng::workloads::testing
