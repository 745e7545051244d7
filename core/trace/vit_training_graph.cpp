#include "core/trace/vit_training_graph.h"

#include "core/trace/transformer_config_check.h"
#include "core/trace/transformer_layer_builder.h"

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace spillway {

namespace {

constexpr Bytes kFloat = 4;

// torchvision's EncoderBlock: nn.MultiheadAttention (one fused in_proj), MLP fc1 / fc2.
struct VitLayerParams {
    NormParams ln1, ln2;
    LinearParams inProj, outProj, fc1, fc2;
};

struct Saved {
    TensorId x, stats1, y1, qkv, sum1, stats2, y2, fc1, gelu;
    SdpaSaved attn;
};

class VitStep {
public:
    explicit VitStep(const VitConfig& c)
        : c_(c), b_(c.gpu, {c.batch, kVitTokens, kVitHidden, kVitHeads}), T_(b_.tokens()), act_(b_.activationBytes()) {}
    Profile build();

private:
    void makeParameters();
    TensorId embed();
    TensorId layerForward(std::int64_t l, TensorId x, Saved& s);
    TensorId layerBackward(std::int64_t l, const Saved& s, TensorId dy);
    TensorId linearBackward(const std::string& name, const LinearParams& l, TensorId dy, TensorId x);
    void residualAccumulate(const std::string& name, TensorId into, TensorId add);
    TensorId fc2Forward(const std::string& name, const LinearParams& l, TensorId x);
    void headAndBackward(TensorId x, const std::vector<Saved>& saved);
    void embeddingBackward(TensorId dx);

    const VitConfig& c_;
    TransformerLayerBuilder b_;
    std::int64_t T_;
    Bytes act_;
    std::vector<VitLayerParams> layers_;
    AdamParam classToken_, convW_, convB_, pos_;
    NormParams finalNorm_;
    LinearParams head_;
    TensorId images_ = -1, patches_ = -1;
};

// VisionTransformer.parameters() order: class_token, conv_proj, encoder.pos_embedding, the
// layers, encoder.ln, heads.head.
void VitStep::makeParameters() {
    const std::int64_t h = kVitHidden;
    classToken_ = b_.param("class_token", h);
    convW_ = b_.param("conv_proj.weight", h * 3 * kVitPatch * kVitPatch);
    convB_ = b_.param("conv_proj.bias", h);
    pos_ = b_.param("encoder.pos_embedding", kVitTokens * h);
    for (std::int64_t l = 0; l < kVitLayers; ++l) {
        const std::string pre = fmt::format("encoder.layers.encoder_layer_{}.", l);
        VitLayerParams lp;
        lp.ln1 = b_.norm(pre + "ln_1");
        lp.inProj = b_.linear(pre + "self_attention.in_proj", h, 3 * h);
        lp.outProj = b_.linear(pre + "self_attention.out_proj", h, h);
        lp.ln2 = b_.norm(pre + "ln_2");
        lp.fc1 = b_.linear(pre + "mlp.0", h, kVitMlp);
        lp.fc2 = b_.linear(pre + "mlp.3", kVitMlp, h);
        layers_.push_back(lp);
    }
    finalNorm_ = b_.norm("encoder.ln");
    head_ = b_.linear("heads.head", h, kVitClasses);
}

// conv_proj (a 16x16 stride-16 convolution, then its bias added), the class token prepended
// (cat), the position embedding added: 4 kernels. Dropout has p = 0: no kernel.
TensorId VitStep::embed() {
    const Bytes imageBytes = c_.batch * 3 * 224 * 224 * kFloat;
    images_ = b_.act("images", imageBytes, TensorKind::Input);
    const Bytes patchBytes = c_.batch * kVitPatches * kVitHidden * kFloat;
    const TensorId conv = b_.act("conv_proj.out", patchBytes);
    const double convFlops = 2.0 * double(c_.batch) * kVitPatches * kVitHidden * 3 * kVitPatch * kVitPatch;
    b_.fwd("conv_proj", "aten::conv2d", {images_, convW_.weight}, {conv}, KernelWork{convFlops, -1, true});
    patches_ = b_.act("conv_proj.biased", patchBytes);
    b_.fwd("conv_proj.bias_add", "aten::conv2d", {conv, convB_.weight}, {patches_});
    const TensorId tokens = b_.act("encoder.input", act_);
    b_.fwd("class_token.cat", "aten::cat", {classToken_.weight, patches_}, {tokens});
    const TensorId x = b_.act("encoder.pos_added", act_);
    b_.fwd("encoder.pos_embedding.add", "aten::add", {tokens, pos_.weight}, {x});
    return x;
}

// At batch 1 (197 rows against a 3072-long reduction) cuBLAS runs fc2 as a large-K sgemm
// between a zeroing scal and a bias epilogue; with a few images it is one gemm.
TensorId VitStep::fc2Forward(const std::string& name, const LinearParams& l, TensorId x) {
    if (T_ >= l.in) return b_.linearForward(name, l, x);
    const TensorId y = b_.act(name + ".out", T_ * l.out * kFloat);
    b_.fwd(name + ".scal", "aten::linear", {}, {y});
    b_.fwd(name, "aten::linear", {x, l.w.weight, y}, {y}, TransformerLayerBuilder::gemm(T_, l.out, l.in));
    b_.fwd(name + ".epilogue", "aten::linear", {y, l.b.weight}, {y});
    return y;
}

TensorId VitStep::layerForward(std::int64_t l, TensorId x, Saved& s) {
    const VitLayerParams& lp = layers_[static_cast<size_t>(l)];
    const std::string pre = fmt::format("layer{}.", l);
    s.x = x;
    s.y1 = b_.layerNormForward(pre + "ln_1", lp.ln1, x, s.stats1);
    s.qkv = b_.linearForward(pre + "self_attention.in_proj", lp.inProj, s.y1);
    const TensorId q = b_.act(pre + "self_attention.q", act_), k = b_.act(pre + "self_attention.k", act_),
                   v = b_.act(pre + "self_attention.v", act_);
    b_.fwd(pre + "self_attention.qkv_split", "aten::contiguous", {s.qkv}, {q, k, v});
    s.attn = b_.sdpaForward(pre + "self_attention", q, k, v);
    const TensorId o = b_.linearForward(pre + "self_attention.out_proj", lp.outProj, s.attn.context);
    s.sum1 = b_.act(pre + "attention.residual", act_);
    b_.fwd(pre + "attention.add", "aten::add", {o, x}, {s.sum1});
    s.y2 = b_.layerNormForward(pre + "ln_2", lp.ln2, s.sum1, s.stats2);
    s.fc1 = b_.linearForward(pre + "mlp.0", lp.fc1, s.y2);
    s.gelu = b_.act(pre + "mlp.1", T_ * kVitMlp * kFloat);
    b_.fwd(pre + "mlp.1", "aten::gelu", {s.fc1}, {s.gelu});
    const TensorId f2 = fc2Forward(pre + "mlp.3", lp.fc2, s.gelu);
    const TensorId out = b_.act(pre + "mlp.residual", act_);
    b_.fwd(pre + "mlp.add", "aten::add", {f2, s.sum1}, {out});
    return out;
}

// dX, dW, db as TransformerLayerBuilder::linearBackward, except that cuBLAS splits dX's
// reduction (a split-K reduce after it) when there are fewer rows than the reduction is long,
// as in every layer of the batch-1 trace.
TensorId VitStep::linearBackward(const std::string& name, const LinearParams& l, TensorId dy, TensorId x) {
    const TensorId dx = b_.act(name + ".grad_input", T_ * l.in * kFloat, TensorKind::Gradient);
    b_.bwd(name + ".backward_input", "AddmmBackward0", {dy, l.w.weight}, {dx},
           TransformerLayerBuilder::gemm(T_, l.in, l.out));
    if (T_ < l.out)
        b_.bwd(name + ".backward_input_splitk_reduce", "AddmmBackward0", {dx}, {dx},
               KernelWork{0, 3.0 * double(b_.graph().bytesOf(dx)), false});
    b_.bwd(name + ".backward_weight", "AddmmBackward0", {dy, x}, {l.w.grad}, TransformerLayerBuilder::gemm(l.out, l.in, T_));
    b_.bwd(name + ".backward_bias", "AddmmBackward0", {dy}, {l.b.grad});
    return dx;
}

// The residual's gradient added into the LayerNorm's input gradient: autograd runs the add_ in
// the LayerNorm's backward node (the trace's operator), else as gradAccumulate.
void VitStep::residualAccumulate(const std::string& name, TensorId into, TensorId add) {
    b_.bwd(name, "NativeLayerNormBackward0", {into, add}, {into}, KernelWork{0, 3.0 * double(act_), false});
}

// Pre-LayerNorm: the MLP's backward first; the residual gradients are added in (add_).
TensorId VitStep::layerBackward(std::int64_t l, const Saved& s, TensorId dy) {
    const VitLayerParams& lp = layers_[static_cast<size_t>(l)];
    const std::string pre = fmt::format("layer{}.", l);
    const TensorId dGelu = linearBackward(pre + "mlp.3", lp.fc2, dy, s.gelu);
    const TensorId dFc1 = b_.act(pre + "mlp.0.out.grad", T_ * kVitMlp * kFloat, TensorKind::Gradient);
    b_.bwd(pre + "mlp.1.backward", "GeluBackward0", {dGelu, s.fc1}, {dFc1});
    const TensorId dy2 = linearBackward(pre + "mlp.0", lp.fc1, dFc1, s.y2);
    const TensorId dSum1 = b_.layerNormBackward(pre + "ln_2", lp.ln2, dy2, s.sum1, s.stats2);
    residualAccumulate(pre + "mlp.residual.grad_accumulate", dSum1, dy);
    const TensorId dContext = linearBackward(pre + "self_attention.out_proj", lp.outProj, dSum1, s.attn.context);
    const SdpaGrads g = b_.sdpaBackward(pre + "self_attention", s.attn, dContext,
                                        {pre + "self_attention.q.grad", pre + "self_attention.k.grad",
                                         pre + "self_attention.v.grad"},
                                        true);
    // The q, k, v split's backward (select's): three zeroed slices of the fused gradient, two
    // adds, then the copy of the unflatten's view.
    const TensorId dQkv = b_.act(pre + "self_attention.in_proj.out.grad", 3 * act_, TensorKind::Gradient);
    for (int i = 0; i < 3; ++i) {
        b_.bwd(fmt::format("{}self_attention.qkv_split.backward_zero{}", pre, i), "SelectBackward0", {}, {dQkv},
               KernelWork{0, double(act_), false});
        if (i > 0)
            b_.bwd(fmt::format("{}self_attention.qkv_split.backward_add{}", pre, i), "SelectBackward0",
                   {i == 1 ? g.dk : g.dv, dQkv}, {dQkv}, KernelWork{0, 3.0 * double(act_), false});
    }
    b_.bwd(pre + "self_attention.qkv_split.backward_copy", "ViewBackward0", {g.dq, dQkv}, {dQkv},
           KernelWork{0, 6.0 * double(act_), false});
    const TensorId dy1 = linearBackward(pre + "self_attention.in_proj", lp.inProj, dQkv, s.y1);
    const TensorId dx = b_.layerNormBackward(pre + "ln_1", lp.ln1, dy1, s.x, s.stats1);
    residualAccumulate(pre + "attention.residual.grad_accumulate", dx, dSum1);
    return dx;
}

// Final LayerNorm, the class token's row through the head, cross-entropy, and the backward
// pass down to the patch embedding.
void VitStep::headAndBackward(TensorId x, const std::vector<Saved>& saved) {
    TensorId stats = -1;
    const TensorId normed = b_.layerNormForward("encoder.ln", finalNorm_, x, stats);
    const std::int64_t B = c_.batch;
    const TensorId logits = b_.act("heads.head.out", B * kVitClasses * kFloat);
    b_.fwd("heads.head", "aten::linear", {normed, head_.w.weight, head_.b.weight}, {logits},
           TransformerLayerBuilder::gemm(B, kVitClasses, kVitHidden));
    const TensorId labels = b_.act("labels", B * 8, TensorKind::Input);
    TensorId logProbs = -1;
    b_.crossEntropyForward(logits, labels, logProbs);
    const TensorId dLogits = b_.crossEntropyBackward(logProbs, labels, "heads.head.out.grad");
    const TensorId dCls = b_.act("heads.head.grad_input", B * kVitHidden * kFloat, TensorKind::Gradient);
    b_.bwd("heads.head.backward_input", "AddmmBackward0", {dLogits, head_.w.weight}, {dCls},
           TransformerLayerBuilder::gemm(B, kVitHidden, kVitClasses));
    b_.bwd("heads.head.backward_weight", "AddmmBackward0", {dLogits, normed}, {head_.w.grad},
           TransformerLayerBuilder::gemm(kVitClasses, kVitHidden, B));
    b_.bwd("heads.head.backward_bias", "AddmmBackward0", {dLogits}, {head_.b.grad});
    // x[:, 0]'s backward: a zeroed (tokens, hidden) gradient with the class token's row in it.
    const TensorId dNormed = b_.act("encoder.ln.out.grad", act_, TensorKind::Gradient);
    b_.bwd("class_token.select_backward", "SelectBackward0", {dCls}, {dNormed});
    TensorId dx = b_.layerNormBackward("encoder.ln", finalNorm_, dNormed, x, stats);
    for (std::int64_t l = kVitLayers - 1; l >= 0; --l) dx = layerBackward(l, saved[static_cast<size_t>(l)], dx);
    embeddingBackward(dx);
}

// With one image the class token's and position embedding's gradients are views of the
// incoming one (no kernel, as in the trace); with more they are sums over the batch.
void VitStep::embeddingBackward(TensorId dx) {
    if (c_.batch > 1) {
        b_.bwd("encoder.pos_embedding.backward", "AddBackward0", {dx}, {pos_.grad});
        b_.bwd("class_token.backward", "CatBackward0", {dx}, {classToken_.grad});
    }
    const TensorId dPatches =
        b_.act("conv_proj.out.grad", c_.batch * kVitPatches * kVitHidden * kFloat, TensorKind::Gradient);
    // The patch tokens' gradient, (B, 196, 768) out of (B, 197, 768), copied contiguous for the
    // convolution's backward (the trace files the copy under it).
    b_.bwd("conv_proj.backward_grad_copy", "ConvolutionBackward0", {dx}, {dPatches});
    const double convFlops = 2.0 * double(c_.batch) * kVitPatches * kVitHidden * 3 * kVitPatch * kVitPatch;
    b_.bwd("conv_proj.backward_weight", "ConvolutionBackward0", {dPatches, images_}, {convW_.grad},
           KernelWork{convFlops, -1, true});
    b_.bwd("conv_proj.backward_bias", "ConvolutionBackward0", {dPatches}, {convB_.grad});
}

Profile VitStep::build() {
    makeParameters();
    TensorId x = embed();
    std::vector<Saved> saved(static_cast<size_t>(kVitLayers));
    for (std::int64_t l = 0; l < kVitLayers; ++l) x = layerForward(l, x, saved[static_cast<size_t>(l)]);
    headAndBackward(x, saved);
    Profile p = b_.finish("vit", kVitLayers, kVitMlp, kVitClasses);
    p.metadata.model = fmt::format("vit_b_16 L{} h{} heads{} mlp{} classes{} tokens{}", kVitLayers, kVitHidden,
                                   kVitHeads, kVitMlp, kVitClasses, kVitTokens);
    p.metadata.notes["durations"] = "roofline model (docs/roofline.md)";
    p.metadata.notes["image"] = "224x224, patch 16";
    return p;
}

}  // namespace

std::int64_t vitParameterCount() {
    const std::int64_t h = kVitHidden, m = kVitMlp;
    const std::int64_t perLayer = 4 * h + (3 * h * h + 3 * h) + (h * h + h) + (m * h + m) + (h * m + h);
    return h + (h * 3 * kVitPatch * kVitPatch + h) + kVitTokens * h + kVitLayers * perLayer + 2 * h +
           (kVitClasses * h + kVitClasses);
}

Profile vitTrainingGraph(const VitConfig& config) {
    if (config.batch <= 0)
        throw std::invalid_argument(fmt::format("vit: batch must be positive (got {})", config.batch));
    checkGpuRoofline("vit", config.gpu);
    VitStep step(config);
    return step.build();
}

}  // namespace spillway
