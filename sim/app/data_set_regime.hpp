// The regime the ZnG paper evaluates: data sets that do not fit in the GPU's DRAM
// (V-A: in Hetero "data initially resides in the external SSD", HybridGPU "has a small
// DRAM as read/write buffer", Ideal "employs extra large GPU DRAM to accommodate all
// the data sets"). A platform lists in `run.data_set_capacities` the capacities that
// hold part of the data set (key -> share); `run.data_set_ratio` = r > 0 sets each of
// them to r x share x the data set, rounded up to a 4 KiB page. The data set is what the
// applications' traces touch (distinct 128 B lines of global memory, one pass over each
// trace): not the sum of their arrays, which generators may allocate larger than used
// (GraphBIG's worklists). r = 0 keeps the capacities as configured; a platform that
// lists no capacity (Ideal, Optane, ZnG) holds every data set whole and is left as it
// is. The chosen values end up in the resolved config of stats.json.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/app/platform.hpp"
#include "sim/config/config_node.hpp"

namespace zng::cli {

// One application's trace, opened afresh (the footprint pass reads it to the end).
// `trace_file`, when set, is the file `open` reads: its footprint is then remembered
// beside it (trace_file + ".footprint", with the file's size and modification time) and
// read back by later runs while the file is unchanged, so the points of a sweep that
// share a cached workload trace pass over it once instead of once per point.
struct DataSetInput {
    std::string name;
    std::function<std::unique_ptr<trace::TraceSource>()> open;
    std::string trace_file;
};

// The file a trace's remembered footprint is kept in.
std::string footprint_file(const std::string& trace_file);

// Bytes of global memory the applications touch together (128 B lines, summed over apps).
uint64_t data_set_bytes(const std::vector<DataSetInput>& apps);

// Applies run.data_set_ratio to root's run.data_set_capacities (see above); reads the
// traces only when the ratio is set. Throws ConfigError naming the file and line of a
// bad entry, or when the ratio is set and a trace touches no global memory.
void apply_data_set_regime(ConfigNode& root, const std::vector<DataSetInput>& apps);

}  // namespace zng::cli
