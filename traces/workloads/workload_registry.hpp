// The catalogue of workload generators (paper Table II) and the entry points used by
// `zngsim trace gen` and `zngsim run --workload`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "traces/workloads/workload_context.hpp"
#include "traces/workloads/workload_options.hpp"

namespace zng::workloads {

// A generator sets up its data, allocates its arrays on ctx.allocator(), then emits
// its kernels through ctx.writer(). The registry finishes the trace.
using WorkloadGenerator = std::function<void(WorkloadContext& ctx)>;

struct WorkloadEntry {
    WorkloadInfo info;
    WorkloadGenerator generate;
    // Bump when a generator's output changes on purpose: it records the change in the
    // key's text. Cached traces are regenerated after any edit of the sources anyway
    // (the key also covers trace_sources_digest()).
    uint32_t version = 1;
};

class WorkloadRegistry {
public:
    // Throws std::invalid_argument for a duplicate or empty name.
    void add(WorkloadInfo info, WorkloadGenerator generate, uint32_t version = 1);
    // nullptr when unknown.
    const WorkloadEntry* find(const std::string& name) const;
    // Throws std::invalid_argument listing the valid names when unknown.
    const WorkloadEntry& get(const std::string& name) const;
    const std::vector<WorkloadEntry>& entries() const { return entries_; }
    std::string names() const;   // "back, bfs1, ..." for error messages

private:
    std::vector<WorkloadEntry> entries_;
};

// The registry of every built-in workload (graph and dense), built once.
const WorkloadRegistry& builtin_workloads();

const std::vector<WorkloadInfo>& list_workloads();

// Checks the program options chosen in `o` against workload `info`: each one declared
// by it and inside its range. Throws std::invalid_argument naming the option.
void validate_program_options(const WorkloadInfo& info, const WorkloadOptions& o);

// `o` with only the program options that workload `name` declares: co-running
// `--workload bfs1,gaus --root 3 --size 64` gives bfs1 its root and gaus its size.
WorkloadOptions options_for_workload(const std::string& name, const WorkloadOptions& o);

// Throws std::invalid_argument when a chosen program option belongs to none of the
// workloads (a --size given to bfs1 is a mistake, not something to ignore).
void check_program_options_apply(const std::vector<std::string>& names, const WorkloadOptions& o);

// Every program option of the built-in workloads once (as first declared), with the
// workloads that take it.
struct ProgramOptionUse {
    ProgramOption option;
    std::vector<std::string> workloads;
};
std::vector<ProgramOptionUse> builtin_program_options();

// Writes the trace of `name` to out_path (removed again if generation fails).
void generate_workload(const std::string& name, const WorkloadOptions& options, const std::string& out_path);

// Key of a cached trace: workload, every option (program options only when chosen, so
// the keys of default runs stay as they were), the content of every input file (both
// files of a GraphBIG CSR directory), the generator version, the trace format version
// and the digest of the sources that produce traces. 16 hex digits.
std::string workload_cache_key(const std::string& name, const WorkloadOptions& options);
// The canonical text the key hashes (FNV-1a 64): one line per ingredient, among them
// "sources=<trace_sources_digest()>".
std::string workload_cache_text(const std::string& name, const WorkloadOptions& options);
// SHA-256 (64 hex digits) of the sources that produce traces, computed at build time by
// traces/trace_sources_digest.cmake: any edit to a generator, a shared helper or the
// trace writer changes it, hence every cache key.
std::string trace_sources_digest();

// Path of the trace of `name` in cache_dir, generated first (temp file + rename, so
// concurrent runs never see a partial file) when absent.
std::string cached_workload_trace(const std::string& name, const WorkloadOptions& options,
                                  const std::string& cache_dir);

}  // namespace zng::workloads
