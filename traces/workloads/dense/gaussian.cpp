#include "traces/workloads/dense/gaussian.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/thread_layout.hpp"

namespace zng::workloads::dense {

namespace {

constexpr uint32_t kFan1Block = 512;   // MAXBLOCKSIZE
constexpr uint32_t kFan2Block = 4;     // BLOCK_SIZE_XY
constexpr uint8_t kF = sizeof(float);
constexpr int kMaxSize = kGaussianMaxSize;

// Fan1: m[row][t] = a[row][t] / a[t][t], row = gid + t + 1.
constexpr uint64_t kFan1LoadA = 0x3000;
constexpr uint64_t kFan1LoadPivot = 0x3010;
constexpr uint64_t kFan1StoreM = 0x3020;
// Fan2: a[row][col] -= m[row][t] * a[t][col]; if (yidx == 0) b[row] -= m[row][t] * b[t].
constexpr uint64_t kFan2LoadA = 0x4000;
constexpr uint64_t kFan2LoadM = 0x4010;
constexpr uint64_t kFan2LoadPivotRow = 0x4020;
constexpr uint64_t kFan2StoreA = 0x4030;
constexpr uint64_t kFan2LoadB = 0x4040;
constexpr uint64_t kFan2LoadMb = 0x4050;
constexpr uint64_t kFan2LoadBt = 0x4060;
constexpr uint64_t kFan2StoreB = 0x4070;

constexpr uint32_t kFan1Prologue = 8;    // global id, bound test, row index
constexpr uint32_t kFan1Divide = 10;     // IEEE float division sequence
constexpr uint32_t kFan2Prologue = 14;   // two ids, two bound tests, indices
constexpr uint32_t kFan2Update = 2;      // fma, address
constexpr uint32_t kFan2Branch = 2;

struct Arrays {
    uint64_t m, a, b;
};

class Elimination {
public:
    Elimination(const Arrays& arr, GaussianResult& r, int n) : arr_(arr), r_(r), n_(n) {}

    void fan1(trace::TraceWriter& w, int t) {
        trace::KernelInfo k;
        k.name = "Fan1";
        k.grid = {(uint32_t(n_) + kFan1Block - 1) / kFan1Block, 1, 1};
        k.block = {kFan1Block, 1, 1};
        KernelEmitter ke(w, k);
        const uint32_t warps = k.warps_per_cta();
        const int64_t rows = int64_t(n_) - 1 - t;
        for (uint32_t cta = 0; cta < k.grid.x; ++cta) {
            ke.begin_cta(cta);
            for (uint32_t wi = 0; wi < warps; ++wi) {
                WarpEmitter& we = ke.warp(wi);
                const int64_t gid0 = int64_t(cta) * kFan1Block + int64_t(wi) * trace::kWarpSize;
                we.compute(kFan1Prologue);
                const uint32_t m = lanes_below(static_cast<int>(std::min<int64_t>(std::max<int64_t>(rows - gid0, 0), 32)));
                if (m == 0) continue;   // if (gid >= Size-1-t) return;
                const uint64_t row0 = uint64_t(gid0 + t + 1);
                const int64_t row_stride = int64_t(n_) * kF;
                we.load_strided(kFan1LoadA, m, elem(arr_.a, row0, t), row_stride, kF);
                we.load_strided(kFan1LoadPivot, m, elem(arr_.a, t, t), 0, kF);
                we.compute(kFan1Divide);
                we.store_strided(kFan1StoreM, m, elem(arr_.m, row0, t), row_stride, kF);
                for_each_lane(m, [&](int l) {
                    const size_t row = row0 + l;
                    r_.m[row * n_ + t] = r_.a[row * n_ + t] / r_.a[size_t(t) * n_ + t];
                });
            }
            ke.end_cta();
        }
        ke.end();
    }

    void fan2(trace::TraceWriter& w, int t) {
        trace::KernelInfo k;
        k.name = "Fan2";
        const uint32_t g = (uint32_t(n_) + kFan2Block - 1) / kFan2Block;
        k.grid = {g, g, 1};
        k.block = {kFan2Block, kFan2Block, 1};
        KernelEmitter ke(w, k);
        const WarpThreads th = warp_threads(k.block, 0);
        const int64_t lenx = int64_t(n_) - 1 - t;
        const int64_t leny = int64_t(n_) - t;
        for (uint32_t by = 0; by < g; ++by) {
            for (uint32_t bx = 0; bx < g; ++bx) {
                ke.begin_cta(uint64_t(by) * g + bx);
                WarpEmitter& we = ke.warp(0);
                we.compute(kFan2Prologue);
                auto xidx = [&](int l) { return int64_t(bx) * kFan2Block + th.x[l]; };
                auto yidx = [&](int l) { return int64_t(by) * kFan2Block + th.y[l]; };
                const uint32_t m = lanes_where(th.live, [&](int l) { return xidx(l) < lenx && yidx(l) < leny; });
                if (m != 0) {
                    auto row = [&](int l) { return uint64_t(xidx(l) + 1 + t); };
                    auto col = [&](int l) { return uint64_t(yidx(l) + t); };
                    we.load(kFan2LoadA, m, lane_addresses(m, [&](int l) { return elem(arr_.a, row(l), col(l)); }), kF);
                    we.load(kFan2LoadM, m, lane_addresses(m, [&](int l) { return elem(arr_.m, row(l), t); }), kF);
                    we.load(kFan2LoadPivotRow, m, lane_addresses(m, [&](int l) { return elem(arr_.a, t, col(l)); }), kF);
                    we.compute(kFan2Update);
                    we.store(kFan2StoreA, m, lane_addresses(m, [&](int l) { return elem(arr_.a, row(l), col(l)); }), kF);
                    for_each_lane(m, [&](int l) {
                        const size_t rr = row(l), cc = col(l);
                        r_.a[rr * n_ + cc] -= r_.m[rr * n_ + t] * r_.a[size_t(t) * n_ + cc];
                    });
                    we.compute(kFan2Branch);
                    const uint32_t mb = lanes_where(m, [&](int l) { return yidx(l) == 0; });
                    if (mb != 0) {
                        we.load(kFan2LoadB, mb, lane_addresses(mb, [&](int l) { return arr_.b + row(l) * kF; }), kF);
                        we.load(kFan2LoadMb, mb, lane_addresses(mb, [&](int l) { return elem(arr_.m, row(l), col(l)); }), kF);
                        we.load_strided(kFan2LoadBt, mb, arr_.b + uint64_t(t) * kF, 0, kF);
                        we.compute(kFan2Update);
                        we.store(kFan2StoreB, mb, lane_addresses(mb, [&](int l) { return arr_.b + row(l) * kF; }), kF);
                        for_each_lane(mb, [&](int l) {
                            const size_t rr = row(l);
                            r_.b[rr] -= r_.m[rr * n_ + col(l)] * r_.b[t];
                        });
                    }
                }
                ke.end_cta();
            }
        }
        ke.end();
    }

private:
    uint64_t elem(uint64_t base, uint64_t row, uint64_t col) const { return base + (row * n_ + col) * kF; }

    const Arrays& arr_;
    GaussianResult& r_;
    int n_;
};

}  // namespace

GaussianSystem make_gaussian_system(int n) {
    if (n < 2 || n > kMaxSize)
        throw std::invalid_argument("gaus: matrix size (option 'size' or 'scale') " + std::to_string(n) + " must be in 2.." +
                                    std::to_string(kMaxSize));
    GaussianSystem s;
    s.n = n;
    std::vector<float> coe(2 * size_t(n) - 1);
    for (int i = 0; i < n; ++i) {
        const float c = static_cast<float>(10.0 * std::exp(-0.01 * i));
        coe[n - 1 + i] = c;
        coe[n - 1 - i] = c;
    }
    s.a.resize(size_t(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) s.a[size_t(i) * n + j] = coe[size_t(n) - 1 - i + j];
    s.b.assign(n, 1.0f);
    return s;
}

int gaussian_matrix_size(const WorkloadOptions& options) {
    if (const auto size = options.program_value("size")) return static_cast<int>(*size);
    if (options.scale != 0) return options.scale;
    return options.preset == "paper" ? 6143 : 1023;
}

GaussianResult generate_gaussian(const GaussianSystem& sys, WorkloadContext& ctx) {
    const int n = sys.n;
    const uint64_t matrix_bytes = uint64_t(n) * n * kF;
    Arrays arr{};
    arr.m = ctx.allocator().alloc("m_cuda", matrix_bytes);
    arr.a = ctx.allocator().alloc("a_cuda", matrix_bytes);
    arr.b = ctx.allocator().alloc("b_cuda", uint64_t(n) * kF);
    trace::TraceWriter& w = ctx.writer();

    GaussianResult r;
    r.m.assign(size_t(n) * n, 0.0f);   // InitPerRun zeroes m before the copy
    r.a = sys.a;
    r.b = sys.b;
    Elimination e(arr, r, n);
    bool complete = true;
    for (int t = 0; t < n - 1 && complete; ++t) {
        if (!ctx.take_launch(kGaussianDefaultLaunches)) { complete = false; break; }
        e.fan1(w, t);
        ++r.launches;
        if (!ctx.take_launch(kGaussianDefaultLaunches)) { complete = false; break; }
        e.fan2(w, t);
        ++r.launches;
    }
    if (complete) {   // BackSub on the host
        r.x.assign(n, 0.0f);
        for (int i = 0; i < n; ++i) {
            const int row = n - 1 - i;
            float v = r.b[row];
            for (int j = 0; j < i; ++j) v -= r.a[size_t(row) * n + (n - 1 - j)] * r.x[n - 1 - j];
            r.x[row] = v / r.a[size_t(row) * n + row];
        }
    }
    return r;
}

}  // namespace zng::workloads::dense
