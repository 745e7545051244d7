#pragma once
// The framework ops whose argument shapes (record_shapes=True: "Input Dims", "Input type") are
// evidence of what a model holds: which argument positions carry a module's parameters and which
// its buffers, the autograd node that receives each parameter's gradient, and element sizes.
#include <array>
#include <cstdint>
#include <string_view>

namespace spillway::torch_trace {

// One AccumulateGrad call per parameter that received a gradient; its input has the
// parameter's shape and type.
inline constexpr std::string_view kAccumulateGrad = "torch::autograd::AccumulateGrad";

struct ParamOp {
    std::string_view name;
    std::array<int, 2> params;   // argument positions of parameters (-1: none)
    std::array<int, 2> buffers;  // argument positions of buffers (running statistics)
};

// aten ops as torch.nn modules call them in forward.
inline constexpr std::array<ParamOp, 14> kParamOps{{
    {"aten::conv1d", {1, 2}, {-1, -1}},
    {"aten::conv2d", {1, 2}, {-1, -1}},
    {"aten::conv3d", {1, 2}, {-1, -1}},
    {"aten::conv_transpose1d", {1, 2}, {-1, -1}},
    {"aten::conv_transpose2d", {1, 2}, {-1, -1}},
    {"aten::conv_transpose3d", {1, 2}, {-1, -1}},
    {"aten::linear", {1, 2}, {-1, -1}},
    {"aten::batch_norm", {1, 2}, {3, 4}},
    {"aten::instance_norm", {1, 2}, {3, 4}},
    {"aten::layer_norm", {2, 3}, {-1, -1}},
    {"aten::group_norm", {2, 3}, {-1, -1}},
    {"aten::embedding", {0, -1}, {-1, -1}},
    {"aten::embedding_bag", {0, -1}, {-1, -1}},
    {"aten::prelu", {1, -1}, {-1, -1}},
}};

inline const ParamOp* findParamOp(std::string_view name) {
    for (const auto& op : kParamOps)
        if (op.name == name) return &op;
    return nullptr;
}

// Profiler bookkeeping and phase marks: never framework ops (nor kernels), even where a torch
// version records them as cpu_op rather than user_annotation.
inline bool isBookkeepingName(std::string_view name) {
    return name.starts_with("spillway.") || name.starts_with("ProfilerStep#") || name.starts_with("Optimizer.") ||
           name.starts_with("PyTorch Profiler");
}

// Spans whose argument shapes the importer keeps.
inline bool needsArgShapes(std::string_view name) { return name == kAccumulateGrad || findParamOp(name); }

// Bytes per element of a tensor whose "Input type" is `dtype` (caffe2 TypeMeta names as Kineto
// writes them); 0 for what is not a tensor type ("Scalar", "TensorList", "") or unknown.
inline std::int64_t elementSize(std::string_view dtype) {
    struct Size {
        std::string_view name;
        std::int64_t bytes;
    };
    static constexpr std::array<Size, 16> kSizes{{
        {"float", 4}, {"double", 8}, {"c10::Half", 2}, {"c10::BFloat16", 2}, {"long int", 8},
        {"int", 4}, {"short int", 2}, {"signed char", 1}, {"unsigned char", 1}, {"bool", 1},
        {"c10::complex<float>", 8}, {"c10::complex<double>", 16}, {"c10::complex<c10::Half>", 4},
        {"c10::Float8_e4m3fn", 1}, {"c10::Float8_e5m2", 1}, {"long long", 8},
    }};
    for (const auto& s : kSizes)
        if (s.name == dtype) return s.bytes;
    return 0;
}

}  // namespace spillway::torch_trace
