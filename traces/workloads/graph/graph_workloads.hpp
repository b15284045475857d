// GraphBIG GPU workloads of the ZnG paper (betw, bfs1-bfs6, gc1, gc2, sssp3, deg, pr).
#pragma once

namespace zng::workloads {

class WorkloadRegistry;
void register_graph_workloads(WorkloadRegistry& registry);

}  // namespace zng::workloads
