#include "core/trace/transformer_layer_builder.h"

#include <fmt/format.h>

#include <algorithm>

namespace spillway {

namespace {
constexpr Bytes kFloat = 4;
}

TransformerLayerBuilder::TransformerLayerBuilder(GpuRoofline gpu, TransformerSize size)
    : b_(std::move(gpu)), size_(size), T_(size.batch * size.sequence), act_(T_ * size.hidden * kFloat) {}

AdamParam TransformerLayerBuilder::param(const std::string& name, std::int64_t elements) {
    AdamParam p;
    p.name = name;
    p.weight = b_.tensor(name, elements * kFloat, TensorKind::Weight, true);
    p.grad = b_.tensor(name + ".grad", elements * kFloat, TensorKind::Gradient);
    p.expAvg = b_.tensor(name + ".exp_avg", elements * kFloat, TensorKind::OptimizerState, true);
    p.expAvgSq = b_.tensor(name + ".exp_avg_sq", elements * kFloat, TensorKind::OptimizerState, true);
    params_.push_back(p);
    return p;
}

LinearParams TransformerLayerBuilder::linear(const std::string& name, std::int64_t in, std::int64_t out) {
    LinearParams l;
    l.w = param(name + ".weight", in * out);
    l.b = param(name + ".bias", out);
    l.in = in;
    l.out = out;
    return l;
}

NormParams TransformerLayerBuilder::norm(const std::string& name) {
    NormParams n;
    n.w = param(name + ".weight", size_.hidden);
    n.b = param(name + ".bias", size_.hidden);
    return n;
}

TensorId TransformerLayerBuilder::linearForward(const std::string& name, const LinearParams& l, TensorId x) {
    const TensorId y = act(name + ".out", T_ * l.out * kFloat);
    fwd(name, "aten::linear", {x, l.w.weight, l.b.weight}, {y}, gemm(T_, l.out, l.in));
    return y;
}

// dX = dY W (an mm), dW = dY^T X (an mm into the gradient), db = sum(dY) (a reduction). Where
// cuBLAS splits dW's reduction (a weight gradient of at most 2^20 elements over a 4x longer
// reduction, as BERT-base's 768 x 768 ones), a split-K reduce follows dW.
TensorId TransformerLayerBuilder::linearBackward(const std::string& name, const LinearParams& l, TensorId dy,
                                                 TensorId x, SplitKReduce splitK) {
    const TensorId dx = act(name + ".grad_input", T_ * l.in * kFloat, TensorKind::Gradient);
    bwd(name + ".backward_input", "AddmmBackward0", {dy, l.w.weight}, {dx}, gemm(T_, l.in, l.out));
    bwd(name + ".backward_weight", "AddmmBackward0", {dy, x}, {l.w.grad}, gemm(l.out, l.in, T_));
    if (splitK == SplitKReduce::WhenCublasSplits && l.in * l.out <= (std::int64_t(1) << 20) &&
        T_ >= 4 * std::max(l.in, l.out))
        bwd(name + ".backward_weight_splitk_reduce", "AddmmBackward0", {l.w.grad}, {l.w.grad},
            KernelWork{0, 3.0 * double(b_.bytesOf(l.w.grad)), false});
    bwd(name + ".backward_bias", "AddmmBackward0", {dy}, {l.b.grad});
    return dx;
}

TensorId TransformerLayerBuilder::layerNormForward(const std::string& name, const NormParams& n, TensorId x,
                                                   TensorId& stats) {
    const TensorId y = act(name + ".out", act_);
    stats = act(name + ".mean_rstd", T_ * 2 * kFloat);
    fwd(name, "aten::layer_norm", {x, n.w.weight, n.b.weight}, {y, stats});
    return y;
}

// Two kernels: the input gradient, then gamma and beta's (reads dy and x again).
TensorId TransformerLayerBuilder::layerNormBackward(const std::string& name, const NormParams& n, TensorId dy,
                                                    TensorId x, TensorId stats) {
    const TensorId dx = act(name + ".grad_input", act_, TensorKind::Gradient);
    bwd(name + ".backward_input", "NativeLayerNormBackward0", {dy, x, stats, n.w.weight}, {dx});
    bwd(name + ".backward_gamma_beta", "NativeLayerNormBackward0", {dy, x, stats}, {n.w.grad, n.b.grad});
    return dx;
}

// The mask is one byte per element.
TensorId TransformerLayerBuilder::dropoutForward(const std::string& name, TensorId x, TensorId& mask) {
    const TensorId y = act(name + ".out", act_);
    mask = act(name + ".mask", T_ * size_.hidden);
    fwd(name, "aten::dropout", {x}, {y, mask});
    return y;
}

TensorId TransformerLayerBuilder::dropoutBackward(const std::string& name, const std::string& gradName, TensorId dy,
                                                  TensorId mask) {
    const TensorId dx = act(gradName, act_, TensorKind::Gradient);
    bwd(name, "NativeDropoutBackward0", {dy, mask}, {dx});
    return dx;
}

// The trace's op for such a sum is the autograd node that delivers the second gradient.
void TransformerLayerBuilder::gradAccumulate(const std::string& name, TensorId into, TensorId add) {
    bwd(name, "ViewBackward0", {into, add}, {into}, KernelWork{0, 3.0 * double(act_)});
}

// Memory-efficient SDPA: QK^T and PV, 2 B s^2 h FLOPs each (tiles above the diagonal are not
// skipped by this fp32 kernel: its time matches the full count).
SdpaSaved TransformerLayerBuilder::sdpaForward(const std::string& prefix, TensorId q, TensorId k, TensorId v) {
    const double B = double(size_.batch), S = double(size_.sequence), h = double(size_.hidden);
    SdpaSaved s{q, k, v, act(prefix + ".context", act_), -1};
    s.logsumexp = act(prefix + ".logsumexp", size_.batch * size_.heads * size_.sequence * kFloat);
    fwd(prefix + ".sdpa", "aten::scaled_dot_product_attention", {q, k, v}, {s.context, s.logsumexp},
        KernelWork{4.0 * B * S * S * h, -1, true});
    return s;
}

// SDPA's memory-efficient backward: delta = rowsum(dO * O) (a mul and a sum), the logsumexp
// copied, a zeroed workspace where the kernel wants one (OPT's trace), then one kernel for dQ,
// dK, dV: 5 matrix products, 10 B s^2 h. gradNames: dQ's, dK's and dV's tensors.
SdpaGrads TransformerLayerBuilder::sdpaBackward(const std::string& prefix, const SdpaSaved& s, TensorId dContext,
                                                const std::array<std::string, 3>& gradNames, bool zeroedWorkspace) {
    const double B = double(size_.batch), S = double(size_.sequence), h = double(size_.hidden);
    const Bytes rowBytes = size_.batch * size_.heads * size_.sequence * kFloat;
    const std::string pre = prefix + ".sdpa.";
    const char* op = "ScaledDotProductEfficientAttentionBackward0";
    const TensorId prod = act(pre + "grad_out_times_out", act_, TensorKind::Temporary);
    bwd(pre + "delta_mul", op, {dContext, s.context}, {prod});
    const TensorId delta = act(pre + "delta", rowBytes, TensorKind::Temporary);
    bwd(pre + "delta_sum", op, {prod}, {delta});
    const TensorId lse = act(pre + "logsumexp_copy", rowBytes, TensorKind::Temporary);
    bwd(pre + "logsumexp_copy", op, {s.logsumexp}, {lse});
    std::vector<TensorId> inputs{dContext, s.q, s.k, s.v, s.context, lse, delta};
    if (zeroedWorkspace) {
        const TensorId workspace = act(pre + "workspace", act_, TensorKind::Workspace);
        bwd(pre + "workspace_zero", op, {}, {workspace});
        inputs.push_back(workspace);
    }
    SdpaGrads g;
    g.dq = act(gradNames[0], act_, TensorKind::Gradient);
    g.dk = act(gradNames[1], act_, TensorKind::Gradient);
    g.dv = act(gradNames[2], act_, TensorKind::Gradient);
    bwd(pre + "backward", op, std::move(inputs), {g.dq, g.dk, g.dv}, KernelWork{10.0 * B * S * S * h, -1, true});
    return g;
}

// A vocabulary row does not stay on chip: log_softmax reads it three times (max, sum of
// exponentials, output) and writes it once; NLL gathers one value per token.
TensorId TransformerLayerBuilder::crossEntropyForward(TensorId logits, TensorId labels, TensorId& logProbs) {
    const Bytes logitBytes = b_.bytesOf(logits);
    logProbs = act("log_softmax.out", logitBytes);
    kernel("loss.log_softmax", "aten::cross_entropy_loss", KernelPhase::Loss, {logits}, {logProbs},
           KernelWork{0, 4.0 * double(logitBytes), false});
    const TensorId loss = act("loss", kFloat);
    kernel("loss.nll", "aten::cross_entropy_loss", KernelPhase::Loss, {logProbs, labels}, {loss},
           KernelWork{0, double(T_ * 16), false});
    return loss;
}

// The seed, NLL's zeroed and scattered gradient, then log_softmax's backward in two passes (the
// row sum of the incoming gradient, then gradient and output in, result out).
TensorId TransformerLayerBuilder::crossEntropyBackward(TensorId logProbs, TensorId labels,
                                                       const std::string& logitsGradName) {
    const Bytes logitBytes = b_.bytesOf(logProbs);
    const TensorId seed = act("loss.grad", kFloat, TensorKind::Gradient);
    bwd("loss.grad_seed", "aten::ones_like", {}, {seed});
    const TensorId dLogProbs = act("log_softmax.out.grad", logitBytes, TensorKind::Gradient);
    bwd("loss.nll.grad_zero", "NllLossBackward0", {}, {dLogProbs});
    bwd("loss.nll.backward", "NllLossBackward0", {seed, labels, dLogProbs}, {dLogProbs},
        KernelWork{0, double(T_ * 16), false});
    const TensorId dLogits = act(logitsGradName, logitBytes, TensorKind::Gradient);
    bwd("loss.log_softmax.backward", "LogSoftmaxBackward0", {dLogProbs, logProbs}, {dLogits},
        KernelWork{0, 4.0 * double(logitBytes), false});
    return dLogits;
}

Profile TransformerLayerBuilder::finish(const std::string& family, std::int64_t layers, std::int64_t ffn,
                                        std::int64_t vocab) {
    appendForeachAdamW(b_, params_);
    Profile p = b_.take();
    p.jobs.push_back(Job{0, "train"});
    p.metadata.model = fmt::format("{} L{} h{} heads{} ffn{} vocab{} seq{}", family, layers, size_.hidden, size_.heads,
                                   ffn, vocab, size_.sequence);
    p.metadata.batch = size_.batch;
    p.metadata.device = b_.gpu().name + " (roofline model)";
    p.metadata.source = "generated-" + family;
    p.metadata.notes["precision"] = "fp32";
    p.metadata.notes["optimizer"] = "AdamW (foreach)";
    p.metadata.notes["sequence"] = std::to_string(size_.sequence);
    return p;
}

}  // namespace spillway
