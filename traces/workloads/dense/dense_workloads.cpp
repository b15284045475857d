#include "traces/workloads/dense/dense_workloads.hpp"

#include <initializer_list>
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

// A size given both as the program's own option and as --scale is ambiguous.
void reject_scale_with(const WorkloadContext& ctx, std::initializer_list<const char*> size_options) {
    if (ctx.options().scale == 0) return;
    for (const char* name : size_options)
        if (ctx.options().program_value(name))
            throw std::invalid_argument("workload '" + ctx.workload() + "': give either option '" + name +
                                        "' or 'scale', not both");
}

int program_int(const WorkloadContext& ctx, const char* name, int fallback) {
    return static_cast<int>(ctx.options().program_value(name).value_or(fallback));
}

// Rodinia gaussian: `-s size` makes a size x size system.
const ProgramOption kGaussianSize{"size", "matrix order of the system (Rodinia gaussian's -s)", 2,
                                  dense::kGaussianMaxSize,
                                  "--scale when set, else the preset's: small 1023, paper 6143"};
// Rodinia backprop: `backprop <num of input elements>`, its layer_size.
const ProgramOption kBackpropLayerSize{"layer_size", "input units, a multiple of 16 (Rodinia backprop's layer_size)",
                                       16, dense::kBackpropMaxInputUnits,
                                       "--scale when set, else the preset's: small 65,536, paper 983,040"};
// PolyBench/GPU fdtd2d: the NX, NY and TMAX macros.
const ProgramOption kFdtdNx{"nx", "grid rows (PolyBench's NX)", 2, dense::kFdtdMaxSize,
                            "--scale when set, else the preset's: small 1024, paper 4096"};
const ProgramOption kFdtdNy{"ny", "grid columns (PolyBench's NY)", 2, dense::kFdtdMaxSize,
                            "--scale when set, else the preset's: small 1024, paper 4096"};
const ProgramOption kFdtdTmax{"tmax", "time steps, three kernels each (PolyBench's TMAX)", 1, dense::kFdtdMaxTimeSteps,
                              "500, PolyBench's"};
// PolyBench/GPU gramschmidt: the NI and NJ macros.
const ProgramOption kGramNi{"ni", "matrix rows (PolyBench's NI)", 1, dense::kGramSchmidtMaxSize,
                            "--scale when set, else the preset's: small 1024, paper 4096"};
const ProgramOption kGramNj{"nj", "matrix columns, three kernels each (PolyBench's NJ)", 1,
                            dense::kGramSchmidtMaxSize, "--scale when set, else the preset's: small 1024, paper 4096"};

}  // namespace

void register_dense_workloads(WorkloadRegistry& registry) {
    registry.add({"back", "Rodinia", "backprop: bpnn_layerforward + bpnn_adjust_weights, 16 hidden units, 16x16 blocks",
                  0.57, dense::kBackpropDefaultLaunches, {kBackpropLayerSize}},
                 [](WorkloadContext& ctx) {
                     reject_graph_options(ctx);
                     reject_scale_with(ctx, {"layer_size"});
                     const WorkloadOptions& o = ctx.options();
                     dense::generate_backprop(dense::make_backprop_net(dense::backprop_input_units(o), o.seed), ctx);
                 });
    registry.add({"gaus", "Rodinia", "gaussian elimination: Fan1/Fan2 alternation (512 and 4x4 thread blocks)", 0.66,
                  dense::kGaussianDefaultLaunches, {kGaussianSize}},
                 [](WorkloadContext& ctx) {
                     reject_graph_options(ctx);
                     reject_scale_with(ctx, {"size"});
                     dense::generate_gaussian(dense::make_gaussian_system(dense::gaussian_matrix_size(ctx.options())), ctx);
                 });
    registry.add({"FDT", "PolyBench", "fdtd-2d: step1/step2/step3 per time step over 32x8 thread blocks", 0.73,
                  dense::kFdtdDefaultLaunches, {kFdtdNx, kFdtdNy, kFdtdTmax}},
                 [](WorkloadContext& ctx) {
                     reject_graph_options(ctx);
                     reject_scale_with(ctx, {"nx", "ny"});
                     const int n = dense::fdtd_grid_size(ctx.options());
                     dense::generate_fdtd(dense::make_fdtd_fields(program_int(ctx, "nx", n), program_int(ctx, "ny", n),
                                                                  program_int(ctx, "tmax", dense::kFdtdTimeSteps)),
                                          ctx);
                 });
    registry.add({"gram", "PolyBench", "gramschmidt: kernel1/kernel2/kernel3 per column over 256-thread blocks", 0.75,
                  dense::kGramSchmidtDefaultLaunches, {kGramNi, kGramNj}},
                 [](WorkloadContext& ctx) {
                     reject_graph_options(ctx);
                     reject_scale_with(ctx, {"ni", "nj"});
                     const int n = dense::gramschmidt_size(ctx.options());
                     dense::generate_gramschmidt(dense::make_gramschmidt_input(program_int(ctx, "ni", n),
                                                                               program_int(ctx, "nj", n),
                                                                               ctx.options().seed),
                                                 ctx);
                 });
}

}  // namespace zng::workloads
