// Importers of other simulators' GPU traces. Each importer is a trace::TraceSource that
// streams the foreign files a CTA at a time, so the simulator can replay them directly
// and `zngsim trace import` is write_trace(source, out). The mapping from each foreign
// format to zngsim records is documented in traces/importers/README.md.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "traces/trace.hpp"

namespace zng::importers {

enum class ForeignFormat { AccelSim, MacSim };

// "accelsim" | "macsim"; anything else throws std::invalid_argument naming the value.
ForeignFormat parse_format(const std::string& name);
const char* to_string(ForeignFormat f);

// What an import met on its way, filled in while the source is consumed. Counts are of
// foreign warp instructions unless said otherwise.
struct ImportReport {
    uint64_t kernels = 0;
    uint64_t ctas = 0;
    uint64_t warps = 0;                  // warps with a stream in the foreign trace
    uint64_t instructions = 0;           // foreign warp instructions read
    uint64_t records = 0;                // zngsim records produced (appended Exits included)
    uint64_t memory_instructions = 0;    // became Load/Store/Atomic records

    // Opcodes the tables do not know: imported as compute (or as a global load when the
    // trace gives them addresses), counted by name.
    uint64_t unknown_opcodes = 0;
    std::map<std::string, uint64_t, std::less<>> unknown_by_name;

    uint64_t memcpy_lines = 0;           // Accel-Sim MemcpyHtoD lines (noted, not simulated)
    uint64_t memory_without_address = 0; // memory opcodes whose record had no address -> compute
    uint64_t inactive_memory = 0;        // memory instructions with no active lane -> compute
    uint64_t partial_exits = 0;          // EXIT that is not the warp's last instruction -> compute
    uint64_t appended_exits = 0;         // warps whose stream did not end with EXIT got one
    uint64_t macsim_child_records = 0;   // MacSim nvbit child records merged into their parent

    // Counts one instruction whose opcode the tables do not know.
    void count_unknown(std::string_view opcode_name);

    // Warning lines for a user (unknown opcodes, appended exits, ...); empty when clean.
    std::string warnings() const;
};

// path: a directory, or kernelslist.g (Accel-Sim) / kernel_config.txt (MacSim).
// When `report` is given it must outlive the source; it is updated as records stream.
std::unique_ptr<trace::TraceSource> open_foreign_trace(ForeignFormat format, const std::string& path,
                                                       ImportReport* report = nullptr);

// Converts a foreign trace into a zngsim trace file (.ztr).
void import_trace(ForeignFormat format, const std::string& in, const std::string& out_ztr,
                  ImportReport* report = nullptr);

}  // namespace zng::importers
