#include "traces/workloads/dense/gramschmidt.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "traces/workloads/graph/random_stream.hpp"
#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/thread_layout.hpp"

namespace zng::workloads::dense {

namespace {

constexpr uint32_t kBlock = 256;   // DIM_THREAD_BLOCK_X (Y = 1)
constexpr uint8_t kF = sizeof(float);
constexpr int kMaxSize = kGramSchmidtMaxSize;

constexpr uint64_t kK1LoadA = 0x8000;       // nrm += a[i][k] * a[i][k]  (one load: same address)
constexpr uint64_t kK1StoreR = 0x8010;      // r[k][k] = sqrt(nrm)
constexpr uint64_t kK2LoadA = 0x9000;       // q[i][k] = a[i][k] / r[k][k]
constexpr uint64_t kK2LoadR = 0x9010;
constexpr uint64_t kK2StoreQ = 0x9020;
constexpr uint64_t kK3StoreR0 = 0xa000;     // r[k][j] = 0
constexpr uint64_t kK3LoadR = 0xa010;       // r[k][j] += q[i][k] * a[i][j]
constexpr uint64_t kK3LoadQ = 0xa020;
constexpr uint64_t kK3LoadA = 0xa030;
constexpr uint64_t kK3StoreR = 0xa040;
constexpr uint64_t kK3LoadA2 = 0xa050;      // a[i][j] -= q[i][k] * r[k][j]
constexpr uint64_t kK3LoadQ2 = 0xa060;
constexpr uint64_t kK3LoadR2 = 0xa070;
constexpr uint64_t kK3StoreA = 0xa080;

constexpr uint32_t kPrologue = 5;      // thread id and bound test
constexpr uint32_t kLoopStep = 3;      // fma, index update, compare-and-branch
constexpr uint32_t kSqrt = 8;
constexpr uint32_t kDivide = 10;

struct Arrays {
    uint64_t a, r, q;
};

class GramSchmidtKernels {
public:
    GramSchmidtKernels(const Arrays& arr, GramSchmidtResult& res, int ni, int nj)
        : arr_(arr), res_(res), ni_(ni), nj_(nj) {}

    void run(trace::TraceWriter& w, int launch) {
        const int k = launch / 3;
        trace::KernelInfo info;
        info.block = {kBlock, 1, 1};
        const uint32_t blocks = (uint32_t(nj_) + kBlock - 1) / kBlock;
        switch (launch % 3) {
            case 0: info.name = "gramschmidt_kernel1"; info.grid = {1, 1, 1}; break;
            case 1: info.name = "gramschmidt_kernel2"; info.grid = {blocks, 1, 1}; break;
            default: info.name = "gramschmidt_kernel3"; info.grid = {blocks, 1, 1}; break;
        }
        KernelEmitter ke(w, info);
        const uint32_t warps = info.warps_per_cta();
        for (uint32_t cta = 0; cta < info.grid.x; ++cta) {
            ke.begin_cta(cta);
            for (uint32_t wi = 0; wi < warps; ++wi) {
                WarpEmitter& we = ke.warp(wi);
                we.compute(kPrologue);
                const int tid0 = int(cta * kBlock + wi * trace::kWarpSize);
                switch (launch % 3) {
                    case 0: kernel1(we, tid0, k); break;
                    case 1: kernel2(we, tid0, k); break;
                    default: kernel3(we, tid0, k); break;
                }
            }
            ke.end_cta();
        }
        ke.end();
    }

private:
    uint64_t at(uint64_t base, int row, int col) const { return base + (uint64_t(row) * nj_ + col) * kF; }
    size_t idx(int row, int col) const { return size_t(row) * nj_ + col; }

    void kernel1(WarpEmitter& we, int tid0, int k) {
        if (tid0 != 0) return;   // if (tid == 0): lane 0 of warp 0 of the single block
        const uint32_t m = 1;
        float nrm = 0.0f;
        for (int i = 0; i < ni_; ++i) {
            we.load_strided(kK1LoadA, m, at(arr_.a, i, k), 0, kF);
            we.compute(kLoopStep);
            const float v = res_.a[idx(i, k)];
            nrm += v * v;
        }
        we.compute(kSqrt);
        we.store_strided(kK1StoreR, m, at(arr_.r, k, k), 0, kF);
        res_.r[idx(k, k)] = std::sqrt(nrm);
    }

    void kernel2(WarpEmitter& we, int tid0, int k) {
        const uint32_t m = lanes_below(ni_ - tid0);   // if (i < NI)
        if (m == 0) return;
        const int64_t col_stride = int64_t(nj_) * kF;
        we.load_strided(kK2LoadA, m, at(arr_.a, tid0, k), col_stride, kF);
        we.load_strided(kK2LoadR, m, at(arr_.r, k, k), 0, kF);
        we.compute(kDivide);
        we.store_strided(kK2StoreQ, m, at(arr_.q, tid0, k), col_stride, kF);
        for_each_lane(m, [&](int l) { res_.q[idx(tid0 + l, k)] = res_.a[idx(tid0 + l, k)] / res_.r[idx(k, k)]; });
    }

    void kernel3(WarpEmitter& we, int tid0, int k) {
        // if ((j > k) && (j < NJ)): r[k][j] is a global accumulator, re-read and
        // re-written every iteration (q and a may alias it).
        const uint32_t m = lanes_where(kFullMask, [&](int l) { return tid0 + l > k && tid0 + l < nj_; });
        if (m == 0) return;
        const uint64_t r_row = at(arr_.r, k, tid0);
        we.store_strided(kK3StoreR0, m, r_row, kF, kF);
        for_each_lane(m, [&](int l) { res_.r[idx(k, tid0 + l)] = 0.0f; });
        for (int i = 0; i < ni_; ++i) {
            we.load_strided(kK3LoadR, m, r_row, kF, kF);
            we.load_strided(kK3LoadQ, m, at(arr_.q, i, k), 0, kF);
            we.load_strided(kK3LoadA, m, at(arr_.a, i, tid0), kF, kF);
            we.compute(1);
            we.store_strided(kK3StoreR, m, r_row, kF, kF);
            we.compute(kLoopStep - 1);
            const float qik = res_.q[idx(i, k)];
            for_each_lane(m, [&](int l) { res_.r[idx(k, tid0 + l)] += qik * res_.a[idx(i, tid0 + l)]; });
        }
        for (int i = 0; i < ni_; ++i) {
            we.load_strided(kK3LoadA2, m, at(arr_.a, i, tid0), kF, kF);
            we.load_strided(kK3LoadQ2, m, at(arr_.q, i, k), 0, kF);
            we.load_strided(kK3LoadR2, m, r_row, kF, kF);
            we.compute(1);
            we.store_strided(kK3StoreA, m, at(arr_.a, i, tid0), kF, kF);
            we.compute(kLoopStep - 1);
            const float qik = res_.q[idx(i, k)];
            for_each_lane(m, [&](int l) { res_.a[idx(i, tid0 + l)] -= qik * res_.r[idx(k, tid0 + l)]; });
        }
    }

    const Arrays& arr_;
    GramSchmidtResult& res_;
    int ni_, nj_;
};

}  // namespace

GramSchmidtInput make_gramschmidt_input(int ni, int nj, uint64_t seed) {
    if (ni < 1 || nj < 1 || ni > kMaxSize || nj > kMaxSize)
        throw std::invalid_argument("gram: matrix (options 'ni', 'nj' or 'scale') " + std::to_string(ni) + "x" + std::to_string(nj) +
                                    " must be 1.." + std::to_string(kMaxSize) + " on each side");
    GramSchmidtInput in;
    in.ni = ni;
    in.nj = nj;
    graph::RandomStream rng(seed);
    in.a.resize(size_t(ni) * nj);
    for (auto& v : in.a) v = static_cast<float>(rng.next_double());
    return in;
}

int gramschmidt_size(const WorkloadOptions& options) {
    if (options.scale != 0) return options.scale;
    return options.preset == "paper" ? 4096 : 1024;
}

GramSchmidtResult generate_gramschmidt(const GramSchmidtInput& in, WorkloadContext& ctx) {
    Arrays arr{};
    arr.a = ctx.allocator().alloc("A_gpu", uint64_t(in.ni) * in.nj * kF);
    arr.r = ctx.allocator().alloc("R_gpu", uint64_t(in.nj) * in.nj * kF);
    arr.q = ctx.allocator().alloc("Q_gpu", uint64_t(in.ni) * in.nj * kF);
    trace::TraceWriter& w = ctx.writer();

    GramSchmidtResult res;
    res.a = in.a;   // only A is copied to the device; R and Q start as zeroed memory here
    res.r.assign(size_t(in.nj) * in.nj, 0.0f);
    res.q.assign(size_t(in.ni) * in.nj, 0.0f);
    GramSchmidtKernels kernels(arr, res, in.ni, in.nj);
    while (res.launches < 3 * in.nj && ctx.take_launch(kGramSchmidtDefaultLaunches))
        kernels.run(w, res.launches++);
    return res;
}

}  // namespace zng::workloads::dense
