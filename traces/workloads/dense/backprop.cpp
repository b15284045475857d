#include "traces/workloads/dense/backprop.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "traces/workloads/graph/random_stream.hpp"
#include "traces/workloads/kernel_emitter.hpp"
#include "traces/workloads/thread_layout.hpp"

namespace zng::workloads::dense {

namespace {

using trace::MemSpace;

constexpr int kBlock = 16;                       // WIDTH = HEIGHT = 16
constexpr int kHid = kBackpropHidden;
constexpr int kOut = kBackpropOutput;
constexpr int kWarpsPerCta = kBlock * kBlock / trace::kWarpSize;
// Rodinia's ETA and MOMENTUM are double literals: the kernels compute in double.
constexpr double kEta = 0.3;
constexpr double kMomentum = 0.3;
constexpr int kMaxGridY = 65535;                 // CUDA limit on gridDim.y of that era
static_assert(kBackpropMaxInputUnits == kBlock * kMaxGridY);
constexpr uint8_t kF = sizeof(float);

// Memory instruction sites (one PC each). bpnn_layerforward_CUDA:
constexpr uint64_t kLfLoadInput = 0x1000;        // input_cuda[index_in]           (tx == 0)
constexpr uint64_t kLfStoreNode = 0x1010;        // input_node[ty] =               (shared)
constexpr uint64_t kLfBarrier1 = 0x1020;
constexpr uint64_t kLfLoadWeight = 0x1030;       // input_hidden_cuda[index]
constexpr uint64_t kLfStoreMatrix = 0x1040;      // weight_matrix[ty][tx] =        (shared)
constexpr uint64_t kLfBarrier2 = 0x1050;
constexpr uint64_t kLfLoadMatrixMul = 0x1060;    // weight_matrix[ty][tx] *        (shared)
constexpr uint64_t kLfLoadNodeMul = 0x1070;      // input_node[ty]                 (shared)
constexpr uint64_t kLfStoreMatrixMul = 0x1080;   // weight_matrix[ty][tx] =        (shared)
constexpr uint64_t kLfBarrier3 = 0x1090;
constexpr uint64_t kLfLoadMatrixRed = 0x10a0;    // weight_matrix[ty][tx] +        (shared)
constexpr uint64_t kLfLoadMatrixPair = 0x10b0;   // weight_matrix[ty + p/2][tx]    (shared)
constexpr uint64_t kLfStoreMatrixRed = 0x10c0;   // weight_matrix[ty][tx] =        (shared)
constexpr uint64_t kLfBarrierLoop = 0x10d0;
constexpr uint64_t kLfLoadMatrixOut = 0x10e0;    // weight_matrix[ty][tx]          (shared)
constexpr uint64_t kLfStoreWeight = 0x10f0;      // input_hidden_cuda[index] =
constexpr uint64_t kLfBarrier4 = 0x1100;
constexpr uint64_t kLfLoadMatrixSum = 0x1110;    // weight_matrix[tx][ty]          (shared, tx == 0)
constexpr uint64_t kLfStorePartial = 0x1120;     // hidden_partial_sum[by*hid+ty] = (tx == 0)
// bpnn_adjust_weights_cuda. The expression ETA*delta*ly + MOMENTUM*oldw is common to
// both statements and loaded once (see README: compiled-code model).
constexpr uint64_t kAwLoadDelta = 0x2000;        // delta[index_x]
constexpr uint64_t kAwLoadLy = 0x2010;           // ly[index_y]
constexpr uint64_t kAwLoadOldw = 0x2020;         // oldw[index]
constexpr uint64_t kAwLoadW = 0x2030;            // w[index]
constexpr uint64_t kAwStoreW = 0x2040;           // w[index] +=
constexpr uint64_t kAwStoreOldw = 0x2050;        // oldw[index] =
constexpr uint64_t kAwBarrier = 0x2060;
constexpr uint64_t kAwLoadDelta0 = 0x2070;       // bias row, ty == 0 && by == 0
constexpr uint64_t kAwLoadOldw0 = 0x2080;
constexpr uint64_t kAwLoadW0 = 0x2090;
constexpr uint64_t kAwStoreW0 = 0x20a0;
constexpr uint64_t kAwStoreOldw0 = 0x20b0;

// Compute instructions between the memory instructions, per the kernels' arithmetic
// (index math, __log2f/__powf loop control, the double-precision update).
constexpr uint32_t kLfPrologue = 14;
constexpr uint32_t kLfBranch = 2;
constexpr uint32_t kLfAddress = 2;
constexpr uint32_t kLfMultiply = 1;
constexpr uint32_t kLfLoopControl = 7;
constexpr uint32_t kLfAdd = 1;
constexpr uint32_t kAwPrologue = 16;
constexpr uint32_t kAwUpdate = 8;
constexpr uint32_t kAwBranch = 3;

// Shared memory of bpnn_layerforward_CUDA: input_node[16] then weight_matrix[16][16].
constexpr uint64_t kSharedNode = 0;
constexpr uint64_t kSharedMatrix = kBlock * kF;
constexpr uint32_t kLfSharedBytes = (kBlock + kBlock * kBlock) * kF;

struct DeviceArrays {
    uint64_t input, output_hidden, weights, partial, delta, prev_weights;
};

struct Lane {
    int tx, ty;
};
Lane lane_of(int warp, int lane) { return {lane % kBlock, 2 * warp + lane / kBlock}; }

// Index of weight (k, j) of the (in+1) x (hid+1) row-major matrix touched by thread
// (tx, ty) of block by: k = 16*by + ty + 1, j = tx + 1.
uint64_t weight_index(int by, int tx, int ty) {
    return uint64_t(kHid + 1) * (uint64_t(kBlock) * by + ty + 1) + tx + 1;
}

float squash(double x) { return static_cast<float>(1.0 / (1.0 + std::exp(-x))); }

class LayerForward {
public:
    LayerForward(const DeviceArrays& a, std::vector<float>& input, std::vector<float>& weights,
                 std::vector<float>& partial)
        : a_(a), input_(input), weights_(weights), partial_(partial) {}

    void cta(KernelEmitter& ke, uint64_t cta_id, int by) {
        ke.begin_cta(cta_id);
        const uint32_t tx0 = (1u << 0) | (1u << kBlock);   // lanes with tx == 0
        for (int w = 0; w < kWarpsPerCta; ++w) {           // if (tx == 0) input_node[ty] = ...
            WarpEmitter& we = ke.warp(w);
            we.compute(kLfPrologue + kLfBranch);
            we.load(kLfLoadInput, tx0, lane_addresses(tx0, [&](int l) {
                return a_.input + (uint64_t(kBlock) * by + lane_of(w, l).ty + 1) * kF; }), kF);
            we.store(kLfStoreNode, tx0, lane_addresses(tx0, [&](int l) {
                return kSharedNode + lane_of(w, l).ty * kF; }), kF, MemSpace::Shared);
            for_each_lane(tx0, [&](int l) { node_[lane_of(w, l).ty] = input_[kBlock * by + lane_of(w, l).ty + 1]; });
            we.barrier(kLfBarrier1);
        }
        for (int w = 0; w < kWarpsPerCta; ++w) {           // weight_matrix[ty][tx] = input_hidden_cuda[index]
            WarpEmitter& we = ke.warp(w);
            we.compute(kLfAddress);
            we.load(kLfLoadWeight, kFullMask, lane_addresses(kFullMask, [&](int l) {
                const Lane t = lane_of(w, l);
                return a_.weights + weight_index(by, t.tx, t.ty) * kF; }), kF);
            we.store_strided(kLfStoreMatrix, kFullMask, matrix_addr(w, 0), kF, kF, MemSpace::Shared);
            for (int l = 0; l < trace::kWarpSize; ++l) {
                const Lane t = lane_of(w, l);
                matrix_[t.ty][t.tx] = weights_[weight_index(by, t.tx, t.ty)];
            }
            we.barrier(kLfBarrier2);
        }
        for (int w = 0; w < kWarpsPerCta; ++w) {           // weight_matrix[ty][tx] *= input_node[ty]
            WarpEmitter& we = ke.warp(w);
            we.load_strided(kLfLoadMatrixMul, kFullMask, matrix_addr(w, 0), kF, kF, MemSpace::Shared);
            we.load(kLfLoadNodeMul, kFullMask, lane_addresses(kFullMask, [&](int l) {
                return kSharedNode + lane_of(w, l).ty * kF; }), kF, MemSpace::Shared);
            we.compute(kLfMultiply);
            we.store_strided(kLfStoreMatrixMul, kFullMask, matrix_addr(w, 0), kF, kF, MemSpace::Shared);
            for (int l = 0; l < trace::kWarpSize; ++l) {
                const Lane t = lane_of(w, l);
                matrix_[t.ty][t.tx] = matrix_[t.ty][t.tx] * node_[t.ty];
            }
            we.barrier(kLfBarrier3);
        }
        for (int p = 2; p <= kBlock; p *= 2) {             // tree reduction over ty
            for (int w = 0; w < kWarpsPerCta; ++w) {
                WarpEmitter& we = ke.warp(w);
                we.compute(kLfLoopControl);
                const uint32_t m = lanes_where(kFullMask, [&](int l) { return lane_of(w, l).ty % p == 0; });
                if (m != 0) {
                    const int half = p / 2;
                    we.load(kLfLoadMatrixRed, m, lane_addresses(m, [&](int l) {
                        const Lane t = lane_of(w, l);
                        return matrix_elem(t.ty, t.tx); }), kF, MemSpace::Shared);
                    we.load(kLfLoadMatrixPair, m, lane_addresses(m, [&](int l) {
                        const Lane t = lane_of(w, l);
                        return matrix_elem(t.ty + half, t.tx); }), kF, MemSpace::Shared);
                    we.compute(kLfAdd);
                    we.store(kLfStoreMatrixRed, m, lane_addresses(m, [&](int l) {
                        const Lane t = lane_of(w, l);
                        return matrix_elem(t.ty, t.tx); }), kF, MemSpace::Shared);
                    for_each_lane(m, [&](int l) {
                        const Lane t = lane_of(w, l);
                        matrix_[t.ty][t.tx] = matrix_[t.ty][t.tx] + matrix_[t.ty + half][t.tx];
                    });
                }
                we.barrier(kLfBarrierLoop);
            }
        }
        for (int w = 0; w < kWarpsPerCta; ++w) {           // input_hidden_cuda[index] = weight_matrix[ty][tx]
            WarpEmitter& we = ke.warp(w);
            we.load_strided(kLfLoadMatrixOut, kFullMask, matrix_addr(w, 0), kF, kF, MemSpace::Shared);
            we.compute(kLfAddress);
            we.store(kLfStoreWeight, kFullMask, lane_addresses(kFullMask, [&](int l) {
                const Lane t = lane_of(w, l);
                return a_.weights + weight_index(by, t.tx, t.ty) * kF; }), kF);
            for (int l = 0; l < trace::kWarpSize; ++l) {
                const Lane t = lane_of(w, l);
                weights_[weight_index(by, t.tx, t.ty)] = matrix_[t.ty][t.tx];
            }
            we.barrier(kLfBarrier4);
        }
        for (int w = 0; w < kWarpsPerCta; ++w) {           // if (tx == 0) hidden_partial_sum[...] = weight_matrix[tx][ty]
            WarpEmitter& we = ke.warp(w);
            we.compute(kLfBranch);
            we.load(kLfLoadMatrixSum, tx0, lane_addresses(tx0, [&](int l) {
                return matrix_elem(0, lane_of(w, l).ty); }), kF, MemSpace::Shared);
            we.store(kLfStorePartial, tx0, lane_addresses(tx0, [&](int l) {
                return a_.partial + (uint64_t(by) * kHid + lane_of(w, l).ty) * kF; }), kF);
            for_each_lane(tx0, [&](int l) {
                const int ty = lane_of(w, l).ty;
                partial_[size_t(by) * kHid + ty] = matrix_[0][ty];
            });
        }
        ke.end_cta();
    }

private:
    static uint64_t matrix_elem(int ty, int tx) { return kSharedMatrix + uint64_t(ty * kBlock + tx) * kF; }
    // A warp holds rows 2w and 2w+1: its lanes are 32 consecutive matrix elements.
    static uint64_t matrix_addr(int w, int lane) { return matrix_elem(2 * w, lane); }

    const DeviceArrays& a_;
    std::vector<float>& input_;
    std::vector<float>& weights_;
    std::vector<float>& partial_;
    float node_[kBlock] = {};
    float matrix_[kBlock][kBlock] = {};
};

class AdjustWeights {
public:
    AdjustWeights(const DeviceArrays& a, const std::vector<float>& delta, const std::vector<float>& ly,
                  std::vector<float>& w, std::vector<float>& oldw)
        : a_(a), delta_(delta), ly_(ly), w_(w), oldw_(oldw) {}

    void cta(KernelEmitter& ke, uint64_t cta_id, int by) {
        ke.begin_cta(cta_id);
        for (int w = 0; w < kWarpsPerCta; ++w) {
            WarpEmitter& we = ke.warp(w);
            we.compute(kAwPrologue);
            auto index = [&](int l) { const Lane t = lane_of(w, l); return weight_index(by, t.tx, t.ty); };
            const LaneAddrs oldw = lane_addresses(kFullMask, [&](int l) { return a_.prev_weights + index(l) * kF; });
            const LaneAddrs weight = lane_addresses(kFullMask, [&](int l) { return a_.weights + index(l) * kF; });
            we.load(kAwLoadDelta, kFullMask, lane_addresses(kFullMask, [&](int l) {
                return a_.delta + uint64_t(lane_of(w, l).tx + 1) * kF; }), kF);
            we.load(kAwLoadLy, kFullMask, lane_addresses(kFullMask, [&](int l) {
                return a_.input + (uint64_t(kBlock) * by + lane_of(w, l).ty + 1) * kF; }), kF);
            we.load(kAwLoadOldw, kFullMask, oldw, kF);
            we.load(kAwLoadW, kFullMask, weight, kF);
            we.compute(kAwUpdate);
            we.store(kAwStoreW, kFullMask, weight, kF);
            we.store(kAwStoreOldw, kFullMask, oldw, kF);
            for (int l = 0; l < trace::kWarpSize; ++l) {
                const Lane t = lane_of(w, l);
                update(weight_index(by, t.tx, t.ty), t.tx + 1, ly_[size_t(kBlock) * by + t.ty + 1]);
            }
            we.barrier(kAwBarrier);
            if (by == 0 && w == 0) {                       // if (ty == 0 && by == 0): bias row
                const uint32_t m = lanes_below(kBlock);
                we.compute(kAwBranch);
                auto row0 = [&](uint64_t base) {
                    return lane_addresses(m, [&](int l) { return base + uint64_t(l + 1) * kF; });
                };
                we.load(kAwLoadDelta0, m, row0(a_.delta), kF);
                we.load(kAwLoadOldw0, m, row0(a_.prev_weights), kF);
                we.load(kAwLoadW0, m, row0(a_.weights), kF);
                we.compute(kAwUpdate);
                we.store(kAwStoreW0, m, row0(a_.weights), kF);
                we.store(kAwStoreOldw0, m, row0(a_.prev_weights), kF);
                for (int l = 0; l < kBlock; ++l) update(uint64_t(l) + 1, l + 1, 1.0f);
            } else {
                we.compute(kAwBranch);
            }
        }
        ke.end_cta();
    }

private:
    void update(uint64_t idx, int x, float ly) {
        const double change = kEta * delta_[x] * ly + kMomentum * oldw_[idx];
        w_[idx] = static_cast<float>(w_[idx] + change);
        oldw_[idx] = static_cast<float>(change);
    }

    const DeviceArrays& a_;
    const std::vector<float>& delta_;
    const std::vector<float>& ly_;
    std::vector<float>& w_;
    std::vector<float>& oldw_;
};

trace::KernelInfo block_kernel(const std::string& name, uint32_t ctas, uint32_t shared_bytes) {
    trace::KernelInfo k;
    k.name = name;
    k.grid = {1, ctas, 1};
    k.block = {kBlock, kBlock, 1};
    k.shared_mem_bytes = shared_bytes;
    return k;
}

// Host code of bpnn_train_cuda between the two kernels: hidden units from the
// partial sums, the output layer, both error terms, the hidden-to-output weights;
// then the re-upload of the original input weights (layerforward overwrote them with
// reduction partials) and of zeroed previous changes.
void host_between_kernels(const BackpropNet& net, const std::vector<float>& d_partial, int blocks,
                          BackpropResult& r) {
    r.hidden_units.assign(kHid + 1, 0.0f);
    r.hidden_units[0] = 1.0f;
    for (int j = 1; j <= kHid; ++j) {
        float sum = 0.0f;
        for (int k = 0; k < blocks; ++k) sum += d_partial[size_t(k) * kHid + j - 1];
        sum += net.input_weights[j];   // bias row k = 0 times input unit 1.0
        r.hidden_units[j] = squash(sum);
    }
    r.output_units.assign(kOut + 1, 0.0f);
    for (int j = 1; j <= kOut; ++j) {
        float sum = 0.0f;
        for (int k = 0; k <= kHid; ++k) sum += net.hidden_weights[size_t(k) * (kOut + 1) + j] * r.hidden_units[k];
        r.output_units[j] = squash(sum);
    }
    std::vector<float> output_delta(kOut + 1, 0.0f);
    for (int j = 1; j <= kOut; ++j) {
        const float o = r.output_units[j];
        output_delta[j] = o * (1.0f - o) * (net.target[j] - o);
    }
    r.hidden_delta.assign(kHid + 1, 0.0f);
    for (int j = 1; j <= kHid; ++j) {
        const float h = r.hidden_units[j];
        float sum = 0.0f;
        for (int k = 1; k <= kOut; ++k) sum += output_delta[k] * net.hidden_weights[size_t(j) * (kOut + 1) + k];
        r.hidden_delta[j] = h * (1.0f - h) * sum;
    }
    r.hidden_weights = net.hidden_weights;
    std::vector<float> hidden_prev(r.hidden_weights.size(), 0.0f);
    for (int j = 1; j <= kOut; ++j)
        for (int k = 0; k <= kHid; ++k) {
            const size_t idx = size_t(k) * (kOut + 1) + j;
            const float change = static_cast<float>(kEta * output_delta[j] * r.hidden_units[k] + kMomentum * hidden_prev[idx]);
            r.hidden_weights[idx] += change;
            hidden_prev[idx] = change;
        }

    r.input_weights = net.input_weights;
    r.input_prev_weights.assign(r.input_weights.size(), 0.0f);
}

}  // namespace

BackpropNet make_backprop_net(int in, uint64_t seed) {
    if (in <= 0 || in % kBlock != 0 || in / kBlock > kMaxGridY)
        throw std::invalid_argument("back: input units (option 'layer_size' or 'scale') " + std::to_string(in) +
                                    " must be a positive multiple of 16 and at most " +
                                    std::to_string(kBlock * kMaxGridY));
    graph::RandomStream rng(seed);
    auto uniform = [&] { return static_cast<float>(rng.next_double()); };
    BackpropNet net;
    net.in = in;
    net.input_units.assign(size_t(in) + 1, 0.0f);
    for (int k = 1; k <= in; ++k) net.input_units[k] = uniform();
    net.input_weights.resize((size_t(in) + 1) * (kHid + 1));
    for (auto& v : net.input_weights) v = uniform();
    net.hidden_weights.resize(size_t(kHid + 1) * (kOut + 1));
    for (auto& v : net.hidden_weights) v = uniform();
    net.target.assign(kOut + 1, 0.1f);   // Rodinia's bpnn_randomize_row sets every target to 0.1
    return net;
}

int backprop_input_units(const WorkloadOptions& options) {
    if (const auto units = options.program_value("layer_size")) return static_cast<int>(*units);
    if (options.scale != 0) return options.scale;
    return options.preset == "paper" ? kBlock * 61440 : 65536;
}

BackpropResult generate_backprop(const BackpropNet& net, WorkloadContext& ctx) {
    const int in = net.in;
    const int blocks = in / kBlock;
    DeviceAllocator& alloc = ctx.allocator();
    const uint64_t weights_bytes = (uint64_t(in) + 1) * (kHid + 1) * kF;
    DeviceArrays a{};
    a.input = alloc.alloc("input_cuda", (uint64_t(in) + 1) * kF);
    a.output_hidden = alloc.alloc("output_hidden_cuda", (kHid + 1) * kF);
    a.weights = alloc.alloc("input_hidden_cuda", weights_bytes);
    a.partial = alloc.alloc("hidden_partial_sum", uint64_t(blocks) * kBlock * kF);
    a.delta = alloc.alloc("hidden_delta_cuda", (kHid + 1) * kF);
    a.prev_weights = alloc.alloc("input_prev_weights_cuda", weights_bytes);
    trace::TraceWriter& writer = ctx.writer();

    BackpropResult r;
    const int cap = ctx.launch_cap(kBackpropDefaultLaunches);
    if (cap == 0) return r;

    // Device copies, as cudaMemcpy'd by bpnn_train_cuda.
    std::vector<float> d_input = net.input_units;
    std::vector<float> d_weights = net.input_weights;
    std::vector<float> d_partial(size_t(blocks) * kBlock, 0.0f);

    LayerForward lf(a, d_input, d_weights, d_partial);
    ctx.take_launch(kBackpropDefaultLaunches);
    if (cap == 1) {
        // Table II's single kernel: both kernels as one launch, CTA for CTA.
        KernelEmitter ke(writer, block_kernel("bpnn_layerforward_CUDA+bpnn_adjust_weights_cuda", 2u * blocks,
                                              kLfSharedBytes));
        for (int by = 0; by < blocks; ++by) lf.cta(ke, by, by);
        host_between_kernels(net, d_partial, blocks, r);
        AdjustWeights aw(a, r.hidden_delta, d_input, r.input_weights, r.input_prev_weights);
        for (int by = 0; by < blocks; ++by) aw.cta(ke, uint64_t(blocks) + by, by);
        ke.end();
    } else {
        KernelEmitter lf_launch(writer, block_kernel("bpnn_layerforward_CUDA", blocks, kLfSharedBytes));
        for (int by = 0; by < blocks; ++by) lf.cta(lf_launch, by, by);
        lf_launch.end();
        host_between_kernels(net, d_partial, blocks, r);
        ctx.take_launch(kBackpropDefaultLaunches);
        KernelEmitter aw_launch(writer, block_kernel("bpnn_adjust_weights_cuda", blocks, 0));
        AdjustWeights aw(a, r.hidden_delta, d_input, r.input_weights, r.input_prev_weights);
        for (int by = 0; by < blocks; ++by) aw.cta(aw_launch, by, by);
        aw_launch.end();
    }
    return r;
}

}  // namespace zng::workloads::dense
