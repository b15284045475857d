// Rodinia gaussian: forward elimination of A x = b on the GPU, alternating Fan1
// (multipliers of column t, 512-thread blocks) and Fan2 (update of the trailing
// rows and of b, 4x4-thread blocks) for t = 0 .. n-2; back substitution on the host.
#pragma once

#include <vector>

#include "traces/workloads/workload_context.hpp"

namespace zng::workloads::dense {

struct GaussianSystem {
    int n = 0;
    std::vector<float> a;   // n x n, row-major
    std::vector<float> b;   // n
};

// Rodinia's `-s n` input: a[i][j] = 10 * exp(-0.01 * |i - j|), b = 1.
GaussianSystem make_gaussian_system(int n);

struct GaussianResult {
    int launches = 0;          // Fan1/Fan2 launches run (= emitted)
    std::vector<float> m;      // multipliers (device m_cuda)
    std::vector<float> a;      // upper-triangular after all launches
    std::vector<float> b;
    std::vector<float> x;      // host back substitution; empty unless all 2(n-1) launches ran
};

// Matrix order: the program option `size` (Rodinia's -s) when chosen, else
// options.scale when set, else the preset's (small 1023, paper 6143; odd so that rows
// are not 128 B aligned, see README).
int gaussian_matrix_size(const WorkloadOptions& options);

constexpr int kGaussianMaxSize = 1 << 15;   // a 4 GiB matrix: beyond any experiment here

// Default launch cap (Table II): Fan1(t=0), Fan2(t=0), Fan1(t=1).
constexpr int kGaussianDefaultLaunches = 3;

// Runs the elimination for as many launches as the cap allows, emitting each.
GaussianResult generate_gaussian(const GaussianSystem& sys, WorkloadContext& ctx);

}  // namespace zng::workloads::dense
