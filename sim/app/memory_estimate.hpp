// What building a platform allocates before it simulates anything, estimated from the
// resolved config, so that a mistyped size (gpu.l2.size: 600GiB) is a configuration
// error naming its key instead of a std::bad_alloc or a host that starts swapping.
// State that grows with what is touched (flash blocks and pages, FTL maps, buffers) is
// not counted: only arrays sized by the configuration up front (cache tag arrays, MSHR
// tables, the L2's unit fetch tables, L1 TLBs). The arrays that only a built component
// can size are charged by it against the rest of the limit (sim/core/memory_budget.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/config_node.hpp"

namespace zng::cli {

struct MemoryDemand {
    std::string where;  // "file:line: key 'gpu.l2.size'" (Params::where)
    std::string what;   // what is allocated
    uint64_t bytes = 0;
};

// The up-front allocations of the platform `root` describes, largest first.
std::vector<MemoryDemand> estimate_upfront_memory(const ConfigNode& root);

// Returns the estimate's total; throws ConfigError when it exceeds `limit` bytes (0: no
// limit), naming the largest demand and `limit_where` (run.memory_limit).
uint64_t check_memory_estimate(const ConfigNode& root, uint64_t limit, const std::string& limit_where);

}  // namespace zng::cli
