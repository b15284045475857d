// Streams a MacSim GPU trace (kernel_config.txt, per-kernel trace.txt, gzip'd per-warp
// trace_<id>.raw records of the nvbit or ptx layout) as a zngsim TraceSource, one
// thread block at a time.
#pragma once

#include <memory>
#include <string>

#include "traces/importers/importers.hpp"
#include "traces/trace.hpp"

namespace zng::importers {

std::unique_ptr<trace::TraceSource> open_macsim_trace(const std::string& path, ImportReport& report);

}  // namespace zng::importers
