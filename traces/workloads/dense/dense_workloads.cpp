#include "traces/workloads/dense/dense_workloads.hpp"

#include <stdexcept>
#include <string>

#include "traces/workloads/dense/backprop.hpp"
#include "traces/workloads/dense/fdtd2d.hpp"
#include "traces/workloads/dense/gaussian.hpp"
#include "traces/workloads/dense/gramschmidt.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::workloads {

namespace {

// The dense workloads make their own inputs; graph options would be silently ignored.
void reject_graph_options(const WorkloadContext& ctx) {
    const WorkloadOptions& o = ctx.options();
    if (!o.input.empty())
        throw std::invalid_argument("workload '" + ctx.workload() + "' reads no input file (option 'input' = '" +
                                    o.input + "')");
    if (o.edge_factor != 0)
        throw std::invalid_argument("workload '" + ctx.workload() + "' has no graph (option 'edge_factor')");
}

}  // namespace

void register_dense_workloads(WorkloadRegistry& registry) {
    registry.add({"back", "Rodinia", "backprop: bpnn_layerforward + bpnn_adjust_weights, 16 hidden units, 16x16 blocks",
                  0.57, dense::kBackpropDefaultLaunches},
                 [](WorkloadContext& ctx) {
                     reject_graph_options(ctx);
                     const WorkloadOptions& o = ctx.options();
                     dense::generate_backprop(dense::make_backprop_net(dense::backprop_input_units(o), o.seed), ctx);
                 });
    registry.add({"gaus", "Rodinia", "gaussian elimination: Fan1/Fan2 alternation (512 and 4x4 thread blocks)", 0.66,
                  dense::kGaussianDefaultLaunches},
                 [](WorkloadContext& ctx) {
                     reject_graph_options(ctx);
                     dense::generate_gaussian(dense::make_gaussian_system(dense::gaussian_matrix_size(ctx.options())), ctx);
                 });
    registry.add({"FDT", "PolyBench", "fdtd-2d: step1/step2/step3 per time step over 32x8 thread blocks", 0.73,
                  dense::kFdtdDefaultLaunches},
                 [](WorkloadContext& ctx) {
                     reject_graph_options(ctx);
                     const int n = dense::fdtd_grid_size(ctx.options());
                     dense::generate_fdtd(dense::make_fdtd_fields(n, n), ctx);
                 });
    registry.add({"gram", "PolyBench", "gramschmidt: kernel1/kernel2/kernel3 per column over 256-thread blocks", 0.75,
                  dense::kGramSchmidtDefaultLaunches},
                 [](WorkloadContext& ctx) {
                     reject_graph_options(ctx);
                     const int n = dense::gramschmidt_size(ctx.options());
                     dense::generate_gramschmidt(dense::make_gramschmidt_input(n, n, ctx.options().seed), ctx);
                 });
}

}  // namespace zng::workloads
