// Streams an Accel-Sim trace directory (kernelslist.g + kernel-N.traceg[.xz]) as a
// zngsim TraceSource, one thread block at a time.
#pragma once

#include <memory>
#include <string>

#include "traces/importers/importers.hpp"
#include "traces/trace.hpp"

namespace zng::importers {

std::unique_ptr<trace::TraceSource> open_accelsim_trace(const std::string& path, ImportReport& report);

}  // namespace zng::importers
