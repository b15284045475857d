#include "traces/workloads/dense/gaussian.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/traces/workloads/dense_test_support.hpp"

namespace zng::workloads::dense {
namespace {

// zng::workloads::testing (dense_test_support.hpp), not GoogleTest's namespace.
using namespace testing;

GaussianResult generate(const GaussianSystem& sys, int max_launches, const std::string& path) {
    return run_generator("gaus", max_launches, path, [&](WorkloadContext& ctx) { return generate_gaussian(sys, ctx); });
}

TEST(Gaussian, RodiniaMatrix) {
    const GaussianSystem s = make_gaussian_system(3);
    // 10*exp(-0.01*|i-j|): diagonal 10, first off-diagonal 9.9005, second 9.8020.
    EXPECT_FLOAT_EQ(s.a[0], 10.0f);
    EXPECT_NEAR(s.a[1], 9.90050f, 1e-4);
    EXPECT_NEAR(s.a[2], 9.80199f, 1e-4);
    EXPECT_EQ(s.a[3], s.a[1]);
    EXPECT_EQ(s.b, std::vector<float>(3, 1.0f));
    EXPECT_THROW(make_gaussian_system(1), std::invalid_argument);
}

// Full run (2(n-1) launches) against a plain serial elimination and the residual.
TEST(Gaussian, MatchesSerialEliminationAndSolves) {
    const int n = 37;   // odd and not a multiple of 4: partial Fan2 blocks and rows
    const GaussianSystem sys = make_gaussian_system(n);
    const GaussianResult gpu = generate(sys, 2 * (n - 1), tmp_trace("gaus_func"));
    ASSERT_EQ(gpu.launches, 2 * (n - 1));
    ASSERT_EQ(gpu.x.size(), size_t(n));

    std::vector<float> a = sys.a, b = sys.b, m(size_t(n) * n, 0.0f);
    for (int t = 0; t < n - 1; ++t)
        for (int r = t + 1; r < n; ++r) {
            m[size_t(r) * n + t] = a[size_t(r) * n + t] / a[size_t(t) * n + t];
            for (int c = t; c < n; ++c) a[size_t(r) * n + c] -= m[size_t(r) * n + t] * a[size_t(t) * n + c];
            b[r] -= m[size_t(r) * n + t] * b[t];
        }
    for (size_t i = 0; i < a.size(); ++i) {
        ASSERT_TRUE(close(gpu.a[i], a[i], 1e-5, 1e-5)) << "a[" << i << "]";
        ASSERT_TRUE(close(gpu.m[i], m[i], 1e-5, 1e-6)) << "m[" << i << "]";
    }
    for (int i = 0; i < n; ++i) ASSERT_TRUE(close(gpu.b[i], b[i], 1e-5, 1e-5)) << "b[" << i << "]";
    // The solution satisfies the original system.
    for (int i = 0; i < n; ++i) {
        double lhs = 0;
        for (int j = 0; j < n; ++j) lhs += double(sys.a[size_t(i) * n + j]) * gpu.x[j];
        EXPECT_NEAR(lhs, sys.b[i], 2e-3) << "row " << i;
    }
}

// n = 8, default cap (Fan1 t=0, Fan2 t=0, Fan1 t=1); m, a, b each 256 B aligned and
// rows 32 B, so row r starts at byte 32r. Counted by hand:
//  Fan1 t=0: rows 1..7 col 0 -> bytes 32..224: 2 lines; pivot 1; store m 2.  L3 S2
//  Fan2 t=0, CTA (bx,by) = rows 4bx+1.. (row 8 masked), cols 4by..4by+3:
//    (0,0): a 2, m 2, pivot row 1, [b 1, m 2, b[t] 1]; stores a 2, b 1.     L9 S3
//    (0,1): a 2, m 2, pivot row 1; store a 2.                               L5 S2
//    (1,0): a 1, m 1, pivot row 1, [b 1, m 1, b[t] 1]; stores a 1, b 1.     L6 S2
//    (1,1): a 1, m 1, pivot row 1; store a 1.                               L3 S1
//  Fan1 t=1: rows 2..7 col 1 -> bytes 68..228: 2 lines; pivot 1; m 2.        L3 S2
TEST(Gaussian, LineRequestsMatchHandCount) {
    const GaussianResult r = generate(make_gaussian_system(8), -1, tmp_trace("gaus_lines"));
    EXPECT_EQ(r.launches, 3);
    EXPECT_TRUE(r.x.empty());   // elimination unfinished: no back substitution
    const auto s = summarize_file(tmp_trace("gaus_lines"));
    ASSERT_EQ(s.kernels.size(), 3u);
    EXPECT_EQ(s.kernels[0].name, "Fan1");
    EXPECT_EQ(s.kernels[1].name, "Fan2");
    EXPECT_EQ(s.kernels[2].name, "Fan1");
    EXPECT_EQ(s.load_line_requests, 3u + 9 + 5 + 6 + 3 + 3);
    EXPECT_EQ(s.store_line_requests, 2u + 3 + 2 + 2 + 1 + 2);
}

}  // namespace
}  // namespace zng::workloads::dense
