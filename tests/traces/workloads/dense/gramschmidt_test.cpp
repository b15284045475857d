#include "traces/workloads/dense/gramschmidt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/traces/workloads/dense_test_support.hpp"

namespace zng::workloads::dense {
namespace {

// zng::workloads::testing (dense_test_support.hpp), not GoogleTest's namespace.
using namespace testing;

GramSchmidtResult generate(const GramSchmidtInput& in, int max_launches, const std::string& path) {
    return run_generator("gram", max_launches, path, [&](WorkloadContext& ctx) { return generate_gramschmidt(in, ctx); });
}

TEST(GramSchmidt, MatchesPolyBenchCpuVersionAndIsOrthonormal) {
    const int ni = 40, nj = 24;
    const GramSchmidtInput in = make_gramschmidt_input(ni, nj, 5);
    const GramSchmidtResult gpu = generate(in, 3 * nj, tmp_trace("gram_func"));
    ASSERT_EQ(gpu.launches, 3 * nj);

    // PolyBench's CPU gramschmidt().
    std::vector<float> A = in.a, R(size_t(nj) * nj, 0.0f), Q(size_t(ni) * nj, 0.0f);
    for (int k = 0; k < nj; ++k) {
        float nrm = 0;
        for (int i = 0; i < ni; ++i) nrm += A[size_t(i) * nj + k] * A[size_t(i) * nj + k];
        R[size_t(k) * nj + k] = std::sqrt(nrm);
        for (int i = 0; i < ni; ++i) Q[size_t(i) * nj + k] = A[size_t(i) * nj + k] / R[size_t(k) * nj + k];
        for (int j = k + 1; j < nj; ++j) {
            R[size_t(k) * nj + j] = 0;
            for (int i = 0; i < ni; ++i) R[size_t(k) * nj + j] += Q[size_t(i) * nj + k] * A[size_t(i) * nj + j];
            for (int i = 0; i < ni; ++i) A[size_t(i) * nj + j] -= Q[size_t(i) * nj + k] * R[size_t(k) * nj + j];
        }
    }
    for (size_t i = 0; i < R.size(); ++i) ASSERT_TRUE(close(gpu.r[i], R[i], 1e-4, 1e-5)) << "r[" << i << "]";
    for (size_t i = 0; i < Q.size(); ++i) ASSERT_TRUE(close(gpu.q[i], Q[i], 1e-4, 1e-5)) << "q[" << i << "]";

    // Independent of the reference: Q has orthonormal columns and Q R = A.
    for (int c1 = 0; c1 < nj; ++c1)
        for (int c2 = 0; c2 < nj; ++c2) {
            double dot = 0;
            for (int i = 0; i < ni; ++i) dot += double(gpu.q[size_t(i) * nj + c1]) * gpu.q[size_t(i) * nj + c2];
            EXPECT_NEAR(dot, c1 == c2 ? 1.0 : 0.0, 2e-3) << c1 << "," << c2;
        }
    for (int i = 0; i < ni; ++i)
        for (int j = 0; j < nj; ++j) {
            double qr = 0;
            for (int k = 0; k <= j; ++k) qr += double(gpu.q[size_t(i) * nj + k]) * gpu.r[size_t(k) * nj + j];
            EXPECT_NEAR(qr, in.a[size_t(i) * nj + j], 1e-3) << i << "," << j;
        }
}

// 32 x 32, default cap (column k = 0). Rows are 128 B = one line each.
//  kernel1: lane 0 loads a[i][0] for 32 rows: 32 lines; stores r[0][0]: 1.
//  kernel2: 32 lanes load a[i][0] (32 lines) and r[0][0] (1); store q[i][0]: 32.
//  kernel3: lanes j = 1..31: store r[0][j] 1; per row i: loads r, q[i][0], a[i][j]
//           (1 line each), store r 1; then loads a, q, r, store a.
// Loads 32 + 33 + 32*6 = 257, stores 1 + 32 + 1 + 32*2 = 98.
TEST(GramSchmidt, LineRequestsMatchHandCount) {
    const GramSchmidtResult r = generate(make_gramschmidt_input(32, 32, 1), -1, tmp_trace("gram_lines"));
    EXPECT_EQ(r.launches, 3);
    const auto s = summarize_file(tmp_trace("gram_lines"));
    ASSERT_EQ(s.kernels.size(), 3u);
    EXPECT_EQ(s.kernels[2].name, "gramschmidt_kernel3");
    EXPECT_EQ(s.load_line_requests, 257u);
    EXPECT_EQ(s.store_line_requests, 98u);
}

}  // namespace
}  // namespace zng::workloads::dense
