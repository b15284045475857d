#include "traces/workloads/dense/fdtd2d.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/thread_layout.hpp"

namespace zng::workloads::dense {

namespace {

constexpr uint32_t kBlockX = 32;   // DIM_THREAD_BLOCK_X
constexpr uint32_t kBlockY = 8;    // DIM_THREAD_BLOCK_Y
constexpr uint8_t kF = sizeof(float);
constexpr int kMaxSize = kFdtdMaxSize;

constexpr uint64_t kStep1LoadFict = 0x5000;   // i == 0: ey[0][j] = fict[t]
constexpr uint64_t kStep1StoreEy0 = 0x5010;
constexpr uint64_t kStep1LoadEy = 0x5020;     // ey[i][j] = ey[i][j] - 0.5f*(hz[i][j] - hz[i-1][j])
constexpr uint64_t kStep1LoadHz = 0x5030;
constexpr uint64_t kStep1LoadHzUp = 0x5040;
constexpr uint64_t kStep1StoreEy = 0x5050;
constexpr uint64_t kStep2LoadEx = 0x6000;     // ex[i][j] = ex[i][j] - 0.5f*(hz[i][j] - hz[i][j-1])
constexpr uint64_t kStep2LoadHz = 0x6010;
constexpr uint64_t kStep2LoadHzLeft = 0x6020;
constexpr uint64_t kStep2StoreEx = 0x6030;
constexpr uint64_t kStep3LoadHz = 0x7000;     // hz -= 0.7f*(ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
constexpr uint64_t kStep3LoadExRight = 0x7010;
constexpr uint64_t kStep3LoadEx = 0x7020;
constexpr uint64_t kStep3LoadEyDown = 0x7030;
constexpr uint64_t kStep3LoadEy = 0x7040;
constexpr uint64_t kStep3StoreHz = 0x7050;

constexpr uint32_t kPrologue = 10;   // i, j from block/thread ids, bound tests
constexpr uint32_t kUpdate = 3;      // sub, fma/mul, address
constexpr uint32_t kStep3Update = 5;

struct Arrays {
    uint64_t fict, ex, ey, hz;
};

class FdtdKernels {
public:
    FdtdKernels(const Arrays& a, FdtdFields& f) : a_(a), f_(f) {}

    // Runs launch number `launch` (0-based: step = launch % 3, t = launch / 3).
    void run(trace::TraceWriter& w, int launch) {
        const int step = launch % 3;
        const int t = launch / 3;
        trace::KernelInfo k;
        k.name = step == 0 ? "fdtd_step1_kernel" : step == 1 ? "fdtd_step2_kernel" : "fdtd_step3_kernel";
        k.block = {kBlockX, kBlockY, 1};
        k.grid = {(uint32_t(f_.ny) + kBlockX - 1) / kBlockX, (uint32_t(f_.nx) + kBlockY - 1) / kBlockY, 1};
        KernelEmitter ke(w, k);
        for (uint32_t by = 0; by < k.grid.y; ++by)
            for (uint32_t bx = 0; bx < k.grid.x; ++bx) {
                ke.begin_cta(uint64_t(by) * k.grid.x + bx);
                for (uint32_t wi = 0; wi < kBlockY; ++wi) {   // a warp is 32 consecutive j of one row i
                    const int i = int(by * kBlockY + wi);
                    const int j0 = int(bx * kBlockX);
                    WarpEmitter& we = ke.warp(wi);
                    we.compute(kPrologue);
                    if (step == 0) step1(we, i, j0, t);
                    else if (step == 1) step2(we, i, j0);
                    else step3(we, i, j0);
                }
                ke.end_cta();
            }
        ke.end();
    }

private:
    uint64_t at(uint64_t base, int i, int j) const { return base + (uint64_t(i) * f_.ny + j) * kF; }
    size_t idx(int i, int j) const { return size_t(i) * f_.ny + j; }
    // Lanes whose j = j0 + lane lies in [lo, hi).
    static uint32_t span(int j0, int lo, int hi) {
        return lanes_where(kFullMask, [&](int l) { return j0 + l >= lo && j0 + l < hi; });
    }

    void step1(WarpEmitter& we, int i, int j0, int t) {
        if (i >= f_.nx) return;
        const uint32_t m = span(j0, 0, f_.ny);
        if (m == 0) return;
        if (i == 0) {
            we.load_strided(kStep1LoadFict, m, a_.fict + uint64_t(t) * kF, 0, kF);
            we.store_strided(kStep1StoreEy0, m, at(a_.ey, 0, j0), kF, kF);
            for_each_lane(m, [&](int l) { f_.ey[idx(0, j0 + l)] = f_.fict[t]; });
            return;
        }
        we.load_strided(kStep1LoadEy, m, at(a_.ey, i, j0), kF, kF);
        we.load_strided(kStep1LoadHz, m, at(a_.hz, i, j0), kF, kF);
        we.load_strided(kStep1LoadHzUp, m, at(a_.hz, i - 1, j0), kF, kF);
        we.compute(kUpdate);
        we.store_strided(kStep1StoreEy, m, at(a_.ey, i, j0), kF, kF);
        for_each_lane(m, [&](int l) {
            const int j = j0 + l;
            f_.ey[idx(i, j)] = f_.ey[idx(i, j)] - 0.5f * (f_.hz[idx(i, j)] - f_.hz[idx(i - 1, j)]);
        });
    }

    void step2(WarpEmitter& we, int i, int j0) {
        if (i >= f_.nx) return;
        const uint32_t m = span(j0, 1, f_.ny);
        if (m == 0) return;
        we.load_strided(kStep2LoadEx, m, at(a_.ex, i, j0), kF, kF);
        we.load_strided(kStep2LoadHz, m, at(a_.hz, i, j0), kF, kF);
        we.load_strided(kStep2LoadHzLeft, m, at(a_.hz, i, j0) - kF, kF, kF);
        we.compute(kUpdate);
        we.store_strided(kStep2StoreEx, m, at(a_.ex, i, j0), kF, kF);
        for_each_lane(m, [&](int l) {
            const int j = j0 + l;
            f_.ex[idx(i, j)] = f_.ex[idx(i, j)] - 0.5f * (f_.hz[idx(i, j)] - f_.hz[idx(i, j - 1)]);
        });
    }

    void step3(WarpEmitter& we, int i, int j0) {
        if (i >= f_.nx - 1) return;
        const uint32_t m = span(j0, 0, f_.ny - 1);
        if (m == 0) return;
        we.load_strided(kStep3LoadHz, m, at(a_.hz, i, j0), kF, kF);
        we.load_strided(kStep3LoadExRight, m, at(a_.ex, i, j0) + kF, kF, kF);
        we.load_strided(kStep3LoadEx, m, at(a_.ex, i, j0), kF, kF);
        we.load_strided(kStep3LoadEyDown, m, at(a_.ey, i + 1, j0), kF, kF);
        we.load_strided(kStep3LoadEy, m, at(a_.ey, i, j0), kF, kF);
        we.compute(kStep3Update);
        we.store_strided(kStep3StoreHz, m, at(a_.hz, i, j0), kF, kF);
        for_each_lane(m, [&](int l) {
            const int j = j0 + l;
            f_.hz[idx(i, j)] = f_.hz[idx(i, j)] - 0.7f * (f_.ex[idx(i, j + 1)] - f_.ex[idx(i, j)] +
                                                          f_.ey[idx(i + 1, j)] - f_.ey[idx(i, j)]);
        });
    }

    const Arrays& a_;
    FdtdFields& f_;
};

}  // namespace

FdtdFields make_fdtd_fields(int nx, int ny, int tmax) {
    if (tmax < 1 || tmax > kFdtdMaxTimeSteps)
        throw std::invalid_argument("FDT: time steps (option 'tmax') " + std::to_string(tmax) + " must be 1.." +
                                    std::to_string(kFdtdMaxTimeSteps));
    if (nx < 2 || ny < 2 || nx > kMaxSize || ny > kMaxSize)
        throw std::invalid_argument("FDT: grid (options 'nx', 'ny' or 'scale') " + std::to_string(nx) + "x" + std::to_string(ny) +
                                    " must be 2.." + std::to_string(kMaxSize) + " on each side");
    FdtdFields f;
    f.nx = nx;
    f.ny = ny;
    f.fict.resize(tmax);
    for (int t = 0; t < tmax; ++t) f.fict[t] = static_cast<float>(t);
    const size_t cells = size_t(nx) * ny;
    f.ex.resize(cells);
    f.ey.resize(cells);
    f.hz.resize(cells);
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j) {
            const size_t c = size_t(i) * ny + j;
            f.ex[c] = (static_cast<float>(i) * (j + 1) + 1) / nx;
            f.ey[c] = (static_cast<float>(i - 1) * (j + 2) + 2) / nx;
            f.hz[c] = (static_cast<float>(i - 9) * (j + 4) + 3) / nx;
        }
    return f;
}

int fdtd_grid_size(const WorkloadOptions& options) {
    if (options.scale != 0) return options.scale;
    return options.preset == "paper" ? 4096 : 1024;
}

FdtdResult generate_fdtd(FdtdFields fields, WorkloadContext& ctx) {
    const uint64_t grid_bytes = uint64_t(fields.nx) * fields.ny * kF;
    Arrays a{};
    a.fict = ctx.allocator().alloc("_fict_gpu", uint64_t(fields.fict.size()) * kF);
    a.ex = ctx.allocator().alloc("ex_gpu", grid_bytes);
    a.ey = ctx.allocator().alloc("ey_gpu", grid_bytes);
    a.hz = ctx.allocator().alloc("hz_gpu", grid_bytes);
    trace::TraceWriter& w = ctx.writer();

    FdtdResult r;
    r.fields = std::move(fields);
    FdtdKernels kernels(a, r.fields);
    const int time_steps = static_cast<int>(r.fields.fict.size());
    while (r.launches < 3 * time_steps && ctx.take_launch(kFdtdDefaultLaunches)) kernels.run(w, r.launches++);
    return r;
}

}  // namespace zng::workloads::dense
