#include "traces/workloads/dense/dense_workloads.hpp"

#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

void register_dense_workloads(WorkloadRegistry& registry) {
    (void)registry;
}

}  // namespace zng::workloads
