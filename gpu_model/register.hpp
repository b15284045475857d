// Registration of the GPU model's pluggable parts: warp schedulers (gto, lrr), L2
// policies (none), the first_touch translator, the schemas of every GPU section for
// `zngsim config describe`.
#pragma once

namespace zng {
void register_gpu_model_components();
}  // namespace zng
