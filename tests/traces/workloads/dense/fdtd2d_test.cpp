#include "traces/workloads/dense/fdtd2d.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/traces/workloads/dense_test_support.hpp"

namespace zng::workloads::dense {
namespace {

// zng::workloads::testing (dense_test_support.hpp), not GoogleTest's namespace.
using namespace testing;

FdtdResult generate(int nx, int ny, int max_launches, const std::string& path) {
    return run_generator("FDT", max_launches, path,
                         [&](WorkloadContext& ctx) { return generate_fdtd(make_fdtd_fields(nx, ny), ctx); });
}

// PolyBench's CPU loops, one time step at a time (float constants as the kernels).
void reference_steps(FdtdFields& f, int steps) {
    const int nx = f.nx, ny = f.ny;
    auto at = [&](std::vector<float>& v, int i, int j) -> float& { return v[size_t(i) * ny + j]; };
    for (int t = 0; t < steps; ++t) {
        for (int j = 0; j < ny; ++j) at(f.ey, 0, j) = f.fict[t];
        for (int i = 1; i < nx; ++i)
            for (int j = 0; j < ny; ++j) at(f.ey, i, j) = at(f.ey, i, j) - 0.5f * (at(f.hz, i, j) - at(f.hz, i - 1, j));
        for (int i = 0; i < nx; ++i)
            for (int j = 1; j < ny; ++j) at(f.ex, i, j) = at(f.ex, i, j) - 0.5f * (at(f.hz, i, j) - at(f.hz, i, j - 1));
        for (int i = 0; i < nx - 1; ++i)
            for (int j = 0; j < ny - 1; ++j)
                at(f.hz, i, j) = at(f.hz, i, j) - 0.7f * (at(f.ex, i, j + 1) - at(f.ex, i, j) + at(f.ey, i + 1, j) -
                                                          at(f.ey, i, j));
    }
}

TEST(Fdtd, MatchesSerialTimeSteps) {
    const int nx = 21, ny = 45, steps = 6;   // partial blocks in both directions
    const FdtdResult gpu = generate(nx, ny, 3 * steps, tmp_trace("fdt_func"));
    ASSERT_EQ(gpu.launches, 3 * steps);
    FdtdFields ref = make_fdtd_fields(nx, ny);
    reference_steps(ref, steps);
    // Same float operations in the same order per cell: equal to the last bit.
    EXPECT_EQ(gpu.fields.ex, ref.ex);
    EXPECT_EQ(gpu.fields.ey, ref.ey);
    EXPECT_EQ(gpu.fields.hz, ref.hz);
    FdtdFields start = make_fdtd_fields(nx, ny);
    EXPECT_NE(gpu.fields.hz, start.hz);
}

TEST(Fdtd, PolyBenchInitialValues) {
    const FdtdFields f = make_fdtd_fields(4, 5);
    // ex[i][j] = (i*(j+1)+1)/NX, ey = ((i-1)*(j+2)+2)/NX, hz = ((i-9)*(j+4)+3)/NX.
    EXPECT_FLOAT_EQ(f.ex[2 * 5 + 3], (2.0f * 4 + 1) / 4);
    EXPECT_FLOAT_EQ(f.ey[0], (-1.0f * 2 + 2) / 4);
    EXPECT_FLOAT_EQ(f.hz[1 * 5 + 1], (-8.0f * 5 + 3) / 4);
    EXPECT_FLOAT_EQ(f.fict[499], 499.0f);
    EXPECT_THROW(make_fdtd_fields(1, 8), std::invalid_argument);
}

// 32 x 32, default cap (fdtd_step1 of t=0): a warp is one row of 32 floats = one line.
// Row 0: fict load 1, ey store 1; rows 1..31: ey, hz, hz[i-1] loads, ey store.
TEST(Fdtd, LineRequestsMatchHandCount) {
    generate(32, 32, -1, tmp_trace("fdt_lines"));
    const auto s = summarize_file(tmp_trace("fdt_lines"));
    ASSERT_EQ(s.kernels.size(), 1u);
    EXPECT_EQ(s.kernels[0].name, "fdtd_step1_kernel");
    EXPECT_EQ(s.kernels[0].ctas, 4u);   // grid 1 x 4 of 32x8 blocks
    EXPECT_EQ(s.load_line_requests, 1u + 31 * 3);
    EXPECT_EQ(s.store_line_requests, 32u);
}

}  // namespace
}  // namespace zng::workloads::dense
