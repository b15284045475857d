// PolyBench/GPU GRAMSCHM: modified Gram-Schmidt QR of an NI x NJ matrix A; per column
// k three kernels over 256-thread blocks: kernel1 (one thread: r[k][k] = |a[:,k]|),
// kernel2 (q[:,k] = a[:,k] / r[k][k]) and kernel3 (thread j > k: r[k][j] = q[:,k].a[:,j],
// then a[:,j] -= q[:,k] r[k][j]).
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/workload_context.hpp"

namespace zng::workloads::dense {

struct GramSchmidtInput {
    int ni = 0, nj = 0;
    std::vector<float> a;   // ni x nj, row-major
};

// Uniform [0,1) entries from `seed`. (PolyBench's own A[i][j] = i*j/NI has a zero
// first column, which makes r[0][0] = 0 and every q a NaN.)
GramSchmidtInput make_gramschmidt_input(int ni, int nj, uint64_t seed);

constexpr int kGramSchmidtMaxSize = 1 << 15;

// NI = NJ of the preset (small 1024, paper 4096), or options.scale when set (the
// program options ni and nj override either side).
int gramschmidt_size(const WorkloadOptions& options);

// Table II counts three kernels: kernel1..kernel3 of column k = 0.
constexpr int kGramSchmidtDefaultLaunches = 3;

struct GramSchmidtResult {
    int launches = 0;            // kernels run (= emitted): k = launches / 3 columns done
    std::vector<float> a, r, q;  // device arrays after them (r: nj x nj, q: ni x nj)
};

GramSchmidtResult generate_gramschmidt(const GramSchmidtInput& in, WorkloadContext& ctx);

}  // namespace zng::workloads::dense
