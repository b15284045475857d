// PolyBench/GPU FDTD-2D: 2-D finite-difference time domain, per time step three
// kernels over 32x8 thread blocks: fdtd_step1 (ey from hz), fdtd_step2 (ex from hz),
// fdtd_step3 (hz from ex and ey).
#pragma once

#include <vector>

#include "traces/workloads/workload_context.hpp"

namespace zng::workloads::dense {

constexpr int kFdtdTimeSteps = 500;   // PolyBench TMAX for every data set
constexpr int kFdtdMaxSize = 1 << 15;
constexpr int kFdtdMaxTimeSteps = 1 << 20;

struct FdtdFields {
    int nx = 0, ny = 0;
    std::vector<float> fict;        // TMAX entries
    std::vector<float> ex, ey, hz;  // nx x ny, row-major
};

// PolyBench's init_arrays: fict[t] = t, ex = (i*(j+1)+1)/NX, ey = ((i-1)*(j+2)+2)/NX,
// hz = ((i-9)*(j+4)+3)/NX.
FdtdFields make_fdtd_fields(int nx, int ny, int tmax = kFdtdTimeSteps);

// NX = NY of the preset (small 1024: PolyBench SMALL; paper 4096: LARGE), or
// options.scale when set (the program options nx and ny override either side).
int fdtd_grid_size(const WorkloadOptions& options);

// Table II counts one kernel: the first launch, fdtd_step1 of t = 0.
constexpr int kFdtdDefaultLaunches = 1;

struct FdtdResult {
    int launches = 0;   // kernels run (= emitted), in order step1, step2, step3, step1, ...
    FdtdFields fields;  // state after them
};

FdtdResult generate_fdtd(FdtdFields fields, WorkloadContext& ctx);

}  // namespace zng::workloads::dense
