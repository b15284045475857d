// The command list of an Accel-Sim trace directory (kernelslist.g): kernel trace files
// in launch order and the host-to-device copies made before them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/trace.hpp"

namespace zng::importers {

struct AccelSimKernelList {
    std::string workload;                    // name of the trace directory
    std::vector<std::string> kernel_files;   // paths of kernel-N.traceg[.xz], in order
    std::vector<trace::ArrayInfo> copies;    // MemcpyHtoD destinations ("htod<i>")
    uint64_t memcpy_lines = 0;
};

// `path` is a trace directory, its kernelslist.g, or a single .traceg / .traceg.xz file.
// Throws TraceError naming the file and line for anything it cannot read.
AccelSimKernelList read_accelsim_kernel_list(const std::string& path);

}  // namespace zng::importers
