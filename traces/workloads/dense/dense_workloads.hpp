// Rodinia (back, gaus) and PolyBench/GPU (FDT, gram) workloads of the ZnG paper.
#pragma once

namespace zng::workloads {

class WorkloadRegistry;
void register_dense_workloads(WorkloadRegistry& registry);

}  // namespace zng::workloads
