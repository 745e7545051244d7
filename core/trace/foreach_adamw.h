#pragma once
// torch.optim.AdamW's default (foreach) step as its CUDA kernels: 8 _foreach_* ops over all
// parameters, each split into multi_tensor_apply launches the way PyTorch splits them (chunks of
// 65,536 elements, at most 320 chunks and 110/64/48/36/30 tensors per launch for 1-5 lists,
// ATen's MultiTensorApply.cuh). The H200 OPT-1.3B trace has 64 launches of each op (128 of
// _foreach_mul_, which runs twice) and so does this.
#include "core/trace/roofline_graph_builder.h"

#include <string>
#include <vector>

namespace spillway {

struct AdamParam {
    std::string name;
    TensorId weight = -1;
    TensorId grad = -1;
    TensorId expAvg = -1;
    TensorId expAvgSq = -1;
};

// Appends the optimizer-phase kernels; the sqrt of exp_avg_sq is a temporary per parameter.
void appendForeachAdamW(RooflineGraphBuilder& b, const std::vector<AdamParam>& params);

// One multi_tensor_apply launch: the tensors (indices) it touches and its elements.
struct ForeachLaunch {
    std::vector<std::size_t> tensors;
    std::int64_t elements = 0;
};

// The launches one _foreach_ op over tensors of these element counts takes with `lists` lists.
std::vector<ForeachLaunch> multiTensorApplyLaunches(const std::vector<std::int64_t>& elements, int lists);

}  // namespace spillway
