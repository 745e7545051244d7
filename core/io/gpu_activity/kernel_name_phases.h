#pragma once
// What a kernel's name says about its phase, when it says anything: the words cuDNN, CUTLASS,
// cuBLAS and PyTorch put in their kernel names (docs/capture.md, "Phases"). Most kernels
// (elementwise, layout conversions, reductions) say nothing; kernel_phases.h fills those in.
#include "core/trace/kernel.h"

#include <optional>
#include <string>
#include <string_view>

namespace spillway::gpu_activity {

// "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, int>(int, ...)" ->
// "at::native::max_pool_forward_nchw": the function, without return type, template arguments,
// parameters and anonymous namespaces.
std::string kernelFunctionName(std::string_view name);

// Optimizer: "multi_tensor_apply" anywhere in the name (torch's foreach and fused optimizers),
// or a function word sgd, adam, adamw, adagrad, rmsprop, lamb, lion, optimizer. Backward:
// "dgrad", "wgrad", "bprop" anywhere (cuDNN and CUTLASS name the convolution's data and weight
// gradients so, also in template arguments), "backward" in the function name, a function word
// bwd or bw. Loss: "loss" in the function name. Forward: "fprop" anywhere, "forward" in the
// function name, a function word fwd or fw. In that order; nullopt when none matches.
std::optional<KernelPhase> phaseOfKernelName(std::string_view name);

}  // namespace spillway::gpu_activity
