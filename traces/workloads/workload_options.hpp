// What a user can ask of a workload generator, and what the registry says about each.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace zng::workloads {

struct WorkloadOptions {
    std::string preset = "small";   // "small" (seconds, tests) or "paper" (data >> 24 MB L2)
    std::string input;              // graph file; "" = generated input
    int scale = 0;                  // 0 = preset default (graph: log2 vertices; dense: problem size)
    int edge_factor = 0;            // 0 = preset default
    uint64_t seed = 1;
    bool skip_init = false;         // leave out initialisation kernels
    int max_launches = -1;          // -1 = workload default (paper Table II kernel count)
    // Options of the original benchmark program (see ProgramOption) that the user
    // chose, by name; an option not in the map takes the workload's default.
    std::map<std::string, int64_t> program;

    std::optional<int64_t> program_value(const std::string& name) const {
        const auto it = program.find(name);
        return it == program.end() ? std::nullopt : std::optional<int64_t>(it->second);
    }
};

// An option of the original benchmark program that a generator honours, named as that
// program names it (GraphBIG's --root and --maxiter, Rodinia gaussian's -s size, ...).
// Every such option is an integer in [min, max]; a bound that depends on the input (a
// root below the vertex count) is checked by the generator, naming the option.
struct ProgramOption {
    std::string name;
    std::string description;
    int64_t min = 0;
    int64_t max = std::numeric_limits<int64_t>::max();
    std::string default_text;       // what the generator does when the option is not given

    ProgramOption with_default(std::string text) const {
        ProgramOption o = *this;
        o.default_text = std::move(text);
        return o;
    }
};

// Checks the fields every workload shares; throws std::invalid_argument naming the key.
void validate_options(const WorkloadOptions& o);

struct WorkloadInfo {
    std::string name;               // "bfs1", "back", ...
    std::string suite;              // "GraphBIG", "Rodinia", "PolyBench"
    std::string description;
    double paper_read_ratio = 0;    // Table II
    int paper_kernels = 0;          // Table II
    std::vector<ProgramOption> program_options;
};

}  // namespace zng::workloads
