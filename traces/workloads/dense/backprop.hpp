// Rodinia backprop: one training pass of a 2-layer perceptron (n inputs, 16 hidden
// units, 1 output) whose input layer runs on the GPU in two kernels,
// bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda (16x16 thread blocks).
#pragma once

#include <cstdint>
#include <vector>

#include "traces/workloads/workload_context.hpp"

namespace zng::workloads::dense {

constexpr int kBackpropHidden = 16;   // Rodinia's hidden layer: one 16-wide block column
constexpr int kBackpropOutput = 1;
constexpr int kBackpropDefaultLaunches = 1;   // Table II: both kernels merged into one launch
// One 16-row block per 16 input units, at most 65535 blocks (gridDim.y of that era).
constexpr int kBackpropMaxInputUnits = 16 * 65535;

// Host-side network, laid out like Rodinia's BPNN (row-major (n+1) x (m+1) weight
// matrices; index 0 of every layer is the bias unit).
struct BackpropNet {
    int in = 0;
    std::vector<float> input_units;       // in + 1
    std::vector<float> input_weights;     // (in + 1) x (hid + 1)
    std::vector<float> hidden_weights;    // (hid + 1) x (out + 1)
    std::vector<float> target;            // out + 1
};

// Random network and input pattern (uniform [0,1), deterministic in `seed`).
// `in` must be a positive multiple of 16.
BackpropNet make_backprop_net(int in, uint64_t seed);

struct BackpropResult {
    std::vector<float> hidden_units;        // hid + 1, from the GPU partial sums
    std::vector<float> output_units;        // out + 1
    std::vector<float> hidden_delta;        // hid + 1
    std::vector<float> input_weights;       // adjusted by bpnn_adjust_weights_cuda
    std::vector<float> input_prev_weights;  // weight changes written by the same kernel
    std::vector<float> hidden_weights;      // adjusted on the host
};

// Input units of the preset (small 65,536: Rodinia's usual run; paper 983,040, the
// largest multiple of 16 x 4096 whose grid.y stays within CUDA's 65,535), or
// options.scale when set.
int backprop_input_units(const WorkloadOptions& options);

// Runs the training pass, emitting the GPU kernels into ctx's trace. Launch cap 1
// (Table II's single kernel) merges both kernels into one launch whose first half of
// CTAs are layerforward and second half adjust_weights; a cap >= 2 emits them apart;
// a cap of 0 emits and computes nothing (empty result).
BackpropResult generate_backprop(const BackpropNet& net, WorkloadContext& ctx);

}  // namespace zng::workloads::dense
