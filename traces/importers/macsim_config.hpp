// The text files of a MacSim GPU trace, read as MacSim's process_manager reads them:
//   kernel_config.txt  "<type> 14 -1" then one kernel trace file per kernel; or, when the
//                      third field is not -1, the file is itself the only kernel's trace.txt
//   trace.txt          "<type> 14 [max_blocks] <warps>" then "<warp id> <start>" per warp
//                      (max_blocks present for "nvbit" and "newptx")
//   trace_info.txt     "<warp id> <instructions>" per warp (beside trace.txt)
// Warp streams live in "<trace.txt without extension>_<warp id>.raw" (gzip).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zng::importers {

enum class MacSimTraceType { Nvbit, Ptx };

struct MacSimKernelConfig {
    std::string workload;                  // name of the directory holding kernel_config.txt
    std::vector<std::string> kernel_files; // per-kernel trace.txt paths, in launch order
};

// `path`: a directory holding kernel_config.txt, or the file itself.
MacSimKernelConfig read_macsim_kernel_config(const std::string& path);

struct MacSimWarpEntry {
    uint64_t id = 0;
    uint64_t instructions = 0;   // from trace_info.txt
    bool instructions_known = false;
};

struct MacSimKernelTrace {
    std::string name;            // the kernel's directory name (the tracer names it after the kernel)
    MacSimTraceType type = MacSimTraceType::Nvbit;
    uint32_t max_blocks = 0;     // 0 when the header has none
    std::string raw_prefix;      // warp w's stream is raw_prefix + "_" + w + ".raw"
    std::vector<MacSimWarpEntry> warps;  // in file order
};

// Reads a kernel's trace.txt and, when present, its trace_info.txt.
MacSimKernelTrace read_macsim_kernel_trace(const std::string& trace_txt);

// Warp ids encode their block: id = block * 65536 + warp index within the block.
constexpr unsigned kMacSimBlockIdShift = 16;

}  // namespace zng::importers
