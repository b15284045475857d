#include "traces/workloads/dense/backprop.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/traces/workloads/dense_test_support.hpp"

namespace zng::workloads::dense {
namespace {

// zng::workloads::testing (dense_test_support.hpp), not GoogleTest's namespace.
using namespace testing;

constexpr int kHid = kBackpropHidden;
constexpr int kOut = kBackpropOutput;

// Plain serial backprop training pass (Rodinia's CPU bpnn_train): no blocks, no
// partial sums, weights adjusted in place.
struct Reference {
    std::vector<float> hidden, output, hidden_delta, input_weights, input_prev, hidden_weights;
};

float squash(float x) { return 1.0f / (1.0f + std::exp(-x)); }

void layer_forward(const std::vector<float>& l1, std::vector<float>& l2, const std::vector<float>& conn, int n1,
                   int n2) {
    for (int j = 1; j <= n2; ++j) {
        float sum = 0.0f;
        for (int k = 0; k <= n1; ++k) sum += conn[size_t(k) * (n2 + 1) + j] * l1[k];
        l2[j] = squash(sum);
    }
}

void adjust(const std::vector<float>& delta, int ndelta, const std::vector<float>& ly, int nly, std::vector<float>& w,
            std::vector<float>& oldw) {
    for (int j = 1; j <= ndelta; ++j)
        for (int k = 0; k <= nly; ++k) {
            const size_t i = size_t(k) * (ndelta + 1) + j;
            const float dw = static_cast<float>(0.3 * delta[j] * ly[k] + 0.3 * oldw[i]);
            w[i] += dw;
            oldw[i] = dw;
        }
}

Reference reference(const BackpropNet& net) {
    Reference r;
    std::vector<float> input = net.input_units;
    input[0] = 1.0f;
    r.hidden.assign(kHid + 1, 0.0f);
    r.hidden[0] = 1.0f;
    layer_forward(input, r.hidden, net.input_weights, net.in, kHid);
    r.output.assign(kOut + 1, 0.0f);
    layer_forward(r.hidden, r.output, net.hidden_weights, kHid, kOut);
    std::vector<float> out_delta(kOut + 1, 0.0f);
    for (int j = 1; j <= kOut; ++j) out_delta[j] = r.output[j] * (1 - r.output[j]) * (net.target[j] - r.output[j]);
    r.hidden_delta.assign(kHid + 1, 0.0f);
    for (int j = 1; j <= kHid; ++j) {
        float sum = 0.0f;
        for (int k = 1; k <= kOut; ++k) sum += out_delta[k] * net.hidden_weights[size_t(j) * (kOut + 1) + k];
        r.hidden_delta[j] = r.hidden[j] * (1 - r.hidden[j]) * sum;
    }
    r.hidden_weights = net.hidden_weights;
    std::vector<float> hidden_prev(r.hidden_weights.size(), 0.0f);
    adjust(out_delta, kOut, r.hidden, kHid, r.hidden_weights, hidden_prev);
    r.input_weights = net.input_weights;
    r.input_prev.assign(r.input_weights.size(), 0.0f);
    adjust(r.hidden_delta, kHid, input, net.in, r.input_weights, r.input_prev);
    return r;
}

void expect_all_close(const std::vector<float>& got, const std::vector<float>& want, double rel, double abs_tol,
                      const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_TRUE(close(got[i], want[i], rel, abs_tol)) << what << "[" << i << "] " << got[i] << " vs " << want[i];
}

BackpropResult generate(const BackpropNet& net, int max_launches, const std::string& path) {
    return run_generator("back", max_launches, path, [&](WorkloadContext& ctx) { return generate_backprop(net, ctx); });
}

TEST(Backprop, MatchesSerialTrainingPass) {
    // Few inputs keep the hidden sums small enough that the deltas are not rounded
    // to zero (with Rodinia's 65,536 inputs every hidden unit saturates at 1.0f).
    const BackpropNet net = make_backprop_net(32, 7);
    const Reference ref = reference(net);
    const BackpropResult gpu = generate(net, -1, tmp_trace("back_func"));
    expect_all_close(gpu.hidden_units, ref.hidden, 1e-5, 1e-7, "hidden");
    expect_all_close(gpu.output_units, ref.output, 1e-5, 1e-7, "output");
    expect_all_close(gpu.hidden_delta, ref.hidden_delta, 1e-4, 1e-9, "hidden_delta");
    expect_all_close(gpu.hidden_weights, ref.hidden_weights, 1e-5, 1e-7, "hidden_weights");
    expect_all_close(gpu.input_weights, ref.input_weights, 1e-5, 1e-8, "input_weights");
    expect_all_close(gpu.input_prev_weights, ref.input_prev, 1e-4, 1e-9, "input_prev_weights");
    // Every weight with j >= 1 moved: its change (tiny, the net is near saturation) is
    // non-zero, and it matched the reference above.
    size_t moved = 0;
    for (float dw : gpu.input_prev_weights) moved += dw != 0.0f;
    EXPECT_EQ(moved, size_t(net.in + 1) * kHid);
}

TEST(Backprop, MergedAndSeparateLaunchesComputeTheSame) {
    const BackpropNet net = make_backprop_net(64, 3);
    const BackpropResult merged = generate(net, 1, tmp_trace("back_merged"));
    const BackpropResult apart = generate(net, 2, tmp_trace("back_apart"));
    EXPECT_EQ(merged.input_weights, apart.input_weights);
    EXPECT_EQ(merged.hidden_units, apart.hidden_units);
    const auto sm = summarize_file(tmp_trace("back_merged"));
    const auto sa = summarize_file(tmp_trace("back_apart"));
    ASSERT_EQ(sm.kernels.size(), 1u);
    ASSERT_EQ(sa.kernels.size(), 2u);
    EXPECT_EQ(sm.kernels[0].ctas, 2 * 4u);   // 64 inputs = 4 blocks, twice
    EXPECT_EQ(sa.kernels[0].name, "bpnn_layerforward_CUDA");
    EXPECT_EQ(sa.kernels[1].name, "bpnn_adjust_weights_cuda");
    EXPECT_EQ(sm.load_line_requests, sa.load_line_requests);
    EXPECT_EQ(sm.store_line_requests, sa.store_line_requests);

    const BackpropResult none = generate(net, 0, tmp_trace("back_none"));
    EXPECT_TRUE(none.input_weights.empty());
    EXPECT_EQ(summarize_file(tmp_trace("back_none")).kernels.size(), 0u);
}

// Line requests counted by hand for B = in/16 blocks (input_cuda at a 256 B boundary):
// layerforward, per warp: input 1 line, weights 2 lines (two 64 B rows 4 B apart, never
// more), stores: weights 2 + partial sums 1 -> 3 loads + 3 stores, 8 warps per block.
// adjust_weights, per warp: delta 1, ly 1, oldw 2, w 2 loads; w 2, oldw 2 stores.
// Warp 7 of an odd block reads ly/input at bytes 64*by+60 .. +67 mod 128 = 124..131:
// 2 lines, in both kernels. Bias row (block 0, warp 0): 3 loads, 2 stores.
// Loads = 8*(3+6)*B + 2*(B/2) + 3 = 73B + 3; stores = 8*(3+4)*B + 2 = 56B + 2.
TEST(Backprop, LineRequestsMatchHandCount) {
    const BackpropNet net = make_backprop_net(32, 1);   // B = 2
    generate(net, -1, tmp_trace("back_lines"));
    const auto s = summarize_file(tmp_trace("back_lines"));
    EXPECT_EQ(s.load_line_requests, 73u * 2 + 3);
    EXPECT_EQ(s.store_line_requests, 56u * 2 + 2);
    EXPECT_EQ(s.atomic_line_requests, 0u);
    // Shared-memory instructions per layerforward block: per warp input_node store,
    // weight_matrix store, multiply (2 loads + store), output load, partial-sum load
    // = 7 x 8 warps; reduction (2 loads + store) by warps with a lane ty % p == 0:
    // p=2: 8 warps, p=4: 4, p=8: 2, p=16: 1 -> 3 x 15. 56 + 45 = 101 per block.
    EXPECT_EQ(s.memory_by_space[static_cast<int>(trace::MemSpace::Shared)], 101u * 2);
}

TEST(Backprop, InputSizeLimits) {
    EXPECT_THROW(make_backprop_net(0, 1), std::invalid_argument);
    EXPECT_THROW(make_backprop_net(40, 1), std::invalid_argument);
    EXPECT_THROW(make_backprop_net(16 * 65536, 1), std::invalid_argument);   // grid.y > 65535
    EXPECT_NO_THROW(make_backprop_net(16 * 4, 1));
}

}  // namespace
}  // namespace zng::workloads::dense
