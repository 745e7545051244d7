#include "core/trace/opt_training_graph.h"

#include "core/trace/transformer_config_check.h"
#include "core/trace/transformer_layer_builder.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace spillway {

namespace {

constexpr Bytes kFloat = 4;
// OPT-1.3B's weight gradients get no cuBLAS split-K reduce in the H200 trace.
constexpr SplitKReduce kSplitK = SplitKReduce::Never;

// What a layer's forward leaves for its backward (autograd's saved tensors).
struct Saved {
    TensorId x, ln1, stats1, mask1, x1, ln2, stats2, relu, mask2;
    SdpaSaved attn;
};

class OptStep {
public:
    explicit OptStep(const OptConfig& c)
        : c_(c), b_(c.gpu, {c.batch, c.sequence, c.hidden, c.heads}), T_(b_.tokens()), act_(b_.activationBytes()) {}

    Profile build();

private:
    void makeParameters();
    TensorId embed();
    TensorId layerForward(std::int64_t l, TensorId x, Saved& s);
    TensorId attentionBackward(const std::string& pre, const TransformerLayerParams& lp, const Saved& s, TensorId dAttn);
    TensorId layerBackward(std::int64_t l, const Saved& s, TensorId dy);
    TensorId headAndLoss(TensorId x, TensorId& lnf, TensorId& lnfStats, TensorId& logProbs);
    void backward(TensorId x, TensorId lnf, TensorId lnfStats, TensorId logProbs, const std::vector<Saved>& saved);

    const OptConfig& c_;
    TransformerLayerBuilder b_;
    std::int64_t T_;  // tokens in the batch
    Bytes act_;       // one (tokens, hidden) fp32 activation
    std::vector<TransformerLayerParams> layers_;
    AdamParam embedTokens_, embedPositions_;
    NormParams finalNorm_;
    TensorId ids_ = -1, positions_ = -1, labels_ = -1, lmGrad_ = -1;
};

// OPTForCausalLM.parameters() order (the order AdamW's lists follow).
void OptStep::makeParameters() {
    const std::int64_t h = c_.hidden;
    embedTokens_ = b_.param("decoder.embed_tokens.weight", c_.vocab * h);
    embedPositions_ = b_.param("decoder.embed_positions.weight", (c_.maxPositions + 2) * h);
    finalNorm_ = b_.norm("decoder.final_layer_norm");
    for (std::int64_t l = 0; l < c_.layers; ++l) {
        const std::string pre = fmt::format("decoder.layers.{}.", l);
        TransformerLayerParams lp;
        lp.k = b_.linear(pre + "self_attn.k_proj", h, h);
        lp.v = b_.linear(pre + "self_attn.v_proj", h, h);
        lp.q = b_.linear(pre + "self_attn.q_proj", h, h);
        lp.out = b_.linear(pre + "self_attn.out_proj", h, h);
        lp.attnNorm = b_.norm(pre + "self_attn_layer_norm");
        lp.fc1 = b_.linear(pre + "fc1", h, c_.ffn);
        lp.fc2 = b_.linear(pre + "fc2", c_.ffn, h);
        lp.ffnNorm = b_.norm(pre + "final_layer_norm");
        layers_.push_back(lp);
    }
}

// OPTLearnedPositionalEmbedding: positions from the attention mask's cumulative sum (the mask
// ops of HF's forward: fill, cumsum, mul, sub, three copies, sum, eq, add), then two gathers.
TensorId OptStep::embed() {
    const Bytes idBytes = T_ * 8;  // int64 per token
    ids_ = b_.act("input_ids", idBytes, TensorKind::Input);
    const TensorId tokens = b_.act("embed_tokens.out", act_);
    b_.fwd("embed_tokens", "aten::embedding", {ids_, embedTokens_.weight}, {tokens},
        KernelWork{0, double(idBytes + 2 * act_), false});
    TensorId mask = b_.act("attention_mask", idBytes, TensorKind::Input);
    b_.fwd("attention_mask.fill", "aten::ones", {}, {mask});
    const char* maskOps[][2] = {{"positions.cumsum", "aten::cumsum"}, {"positions.mul", "aten::mul"},
                                {"positions.sub", "aten::sub"},       {"positions.copy_0", "aten::copy_"},
                                {"positions.copy_1", "aten::copy_"},  {"positions.copy_2", "aten::copy_"},
                                {"mask.sum", "aten::sum"},            {"mask.eq", "aten::eq"},
                                {"positions.offset", "aten::add"}};
    for (const auto& [name, op] : maskOps) {
        const TensorId next = b_.act(std::string(name) + ".out", idBytes, TensorKind::Temporary);
        b_.fwd(name, op, {mask}, {next});
        mask = next;
    }
    positions_ = mask;
    const TensorId pos = b_.act("embed_positions.out", act_);
    b_.fwd("embed_positions", "aten::embedding", {positions_, embedPositions_.weight}, {pos},
        KernelWork{0, double(idBytes + 2 * act_), false});
    const TensorId x = b_.act("embeddings", act_);
    b_.fwd("embeddings.add", "aten::add", {tokens, pos}, {x});
    return x;
}

TensorId OptStep::layerForward(std::int64_t l, TensorId x, Saved& s) {
    const TransformerLayerParams& lp = layers_[l];
    const std::string pre = fmt::format("layer{}.", l);
    s.x = x;
    s.ln1 = b_.layerNormForward(pre + "self_attn_layer_norm", lp.attnNorm, x, s.stats1);
    const TensorId q = b_.linearForward(pre + "self_attn.q_proj", lp.q, s.ln1);
    const TensorId qScaled = b_.act(pre + "self_attn.q_scaled", act_);
    b_.fwd(pre + "self_attn.q_scale", "aten::mul", {q}, {qScaled});
    const TensorId k = b_.linearForward(pre + "self_attn.k_proj", lp.k, s.ln1);
    const TensorId v = b_.linearForward(pre + "self_attn.v_proj", lp.v, s.ln1);
    // The key/value cache (use_cache): each projection copied into (batch, heads, seq, head_dim).
    const TensorId kStates = b_.act(pre + "self_attn.key_states", act_);
    b_.fwd(pre + "self_attn.key_cache", "aten::cat", {k}, {kStates});
    const TensorId vStates = b_.act(pre + "self_attn.value_states", act_);
    b_.fwd(pre + "self_attn.value_cache", "aten::cat", {v}, {vStates});
    s.attn = b_.sdpaForward(pre + "self_attn", qScaled, kStates, vStates);
    const TensorId o = b_.linearForward(pre + "self_attn.out_proj", lp.out, s.attn.context);
    const TensorId oDropped = b_.dropoutForward(pre + "self_attn.dropout", o, s.mask1);
    s.x1 = b_.act(pre + "residual_1", act_);
    b_.fwd(pre + "residual_1.add", "aten::add", {x, oDropped}, {s.x1});
    s.ln2 = b_.layerNormForward(pre + "final_layer_norm", lp.ffnNorm, s.x1, s.stats2);
    const TensorId f1 = b_.linearForward(pre + "fc1", lp.fc1, s.ln2);
    s.relu = b_.act(pre + "relu.out", T_ * c_.ffn * kFloat);
    b_.fwd(pre + "relu", "aten::relu", {f1}, {s.relu});
    const TensorId f2 = b_.linearForward(pre + "fc2", lp.fc2, s.relu);
    const TensorId f2Dropped = b_.dropoutForward(pre + "dropout", f2, s.mask2);
    const TensorId x2 = b_.act(pre + "residual_2", act_);
    b_.fwd(pre + "residual_2.add", "aten::add", {s.x1, f2Dropped}, {x2});
    return x2;
}

// SDPA's backward (with the zeroed workspace the trace shows), then the three projections; K's and
// V's input gradients summed, Q's scale undone, Q's added in place.
TensorId OptStep::attentionBackward(const std::string& pre, const TransformerLayerParams& lp, const Saved& s,
                                    TensorId dAttn) {
    const SdpaGrads g = b_.sdpaBackward(pre + "self_attn", s.attn, dAttn,
                                        {pre + "self_attn.q_scaled.grad", pre + "self_attn.key_states.grad",
                                         pre + "self_attn.value_states.grad"},
                                        true);
    const TensorId dhv = b_.linearBackward(pre + "self_attn.v_proj", lp.v, g.dv, s.ln1, kSplitK);
    const TensorId dhk = b_.linearBackward(pre + "self_attn.k_proj", lp.k, g.dk, s.ln1, kSplitK);
    const TensorId dhkv = b_.act(pre + "self_attn_layer_norm.out.grad", act_, TensorKind::Gradient);
    b_.bwd(pre + "self_attn.kv.grad_sum", "ViewBackward0", {dhv, dhk}, {dhkv});
    const TensorId dqUnscaled = b_.act(pre + "self_attn.q_proj.out.grad", act_, TensorKind::Gradient);
    b_.bwd(pre + "self_attn.q_scale.backward", "MulBackward0", {g.dq}, {dqUnscaled});
    const TensorId dhq = b_.linearBackward(pre + "self_attn.q_proj", lp.q, dqUnscaled, s.ln1, kSplitK);
    b_.gradAccumulate(pre + "self_attn.q.grad_accumulate", dhkv, dhq);
    return dhkv;
}

TensorId OptStep::layerBackward(std::int64_t l, const Saved& s, TensorId dy) {
    const TransformerLayerParams& lp = layers_[l];
    const std::string pre = fmt::format("layer{}.", l);
    const TensorId df2 = b_.dropoutBackward(pre + "dropout.backward", pre + "fc2.out.grad", dy, s.mask2);
    const TensorId dRelu = b_.linearBackward(pre + "fc2", lp.fc2, df2, s.relu, kSplitK);
    const TensorId df1 = b_.act(pre + "fc1.out.grad", T_ * c_.ffn * kFloat, TensorKind::Gradient);
    b_.bwd(pre + "relu.backward", "ReluBackward0", {dRelu, s.relu}, {df1});
    const TensorId dLn2 = b_.linearBackward(pre + "fc1", lp.fc1, df1, s.ln2, kSplitK);
    const TensorId dx1a = b_.layerNormBackward(pre + "final_layer_norm", lp.ffnNorm, dLn2, s.x1, s.stats2);
    const TensorId dx1 = b_.act(pre + "residual_1.grad", act_, TensorKind::Gradient);
    // The autograd engine sums two gradients of one tensor inside the node that delivers the
    // second (the trace's op for these adds is that node).
    b_.bwd(pre + "residual_2.backward", "NativeLayerNormBackward0", {dy, dx1a}, {dx1});
    const TensorId dO =
        b_.dropoutBackward(pre + "self_attn.dropout.backward", pre + "self_attn.out_proj.out.grad", dx1, s.mask1);
    const TensorId dAttn = b_.linearBackward(pre + "self_attn.out_proj", lp.out, dO, s.attn.context, kSplitK);
    const TensorId dLn1 = attentionBackward(pre, lp, s, dAttn);
    const TensorId dxa = b_.layerNormBackward(pre + "self_attn_layer_norm", lp.attnNorm, dLn1, s.x, s.stats1);
    const TensorId dx = b_.act(pre + "input.grad", act_, TensorKind::Gradient);
    b_.bwd(pre + "residual_1.backward", "NativeLayerNormBackward0", {dx1, dxa}, {dx});
    return dx;
}

// Final LayerNorm, the LM head (tied to embed_tokens), HF's label shift (a fill and two
// copies, still in the forward pass), then cross-entropy: log-softmax and NLL (the loss phase).
TensorId OptStep::headAndLoss(TensorId x, TensorId& lnf, TensorId& lnfStats, TensorId& logProbs) {
    lnf = b_.layerNormForward("decoder.final_layer_norm", finalNorm_, x, lnfStats);
    const Bytes logitBytes = T_ * c_.vocab * kFloat;
    const TensorId logits = b_.act("lm_head.logits", logitBytes);
    b_.fwd("lm_head", "aten::linear", {lnf, embedTokens_.weight}, {logits},
        TransformerLayerBuilder::gemm(T_, c_.vocab, c_.hidden));
    labels_ = b_.act("labels", T_ * 8, TensorKind::Input);
    const TensorId padded = b_.act("labels.padded", c_.batch * (c_.sequence + 1) * 8, TensorKind::Temporary);
    b_.fwd("labels.pad", "aten::fill_", {}, {padded});
    b_.fwd("labels.pad_copy", "aten::copy_", {labels_}, {padded});
    const TensorId shifted = b_.act("labels.shifted", T_ * 8, TensorKind::Temporary);
    b_.fwd("labels.shift", "aten::copy_", {padded}, {shifted});
    labels_ = shifted;
    // A vocabulary row (201 KB for OPT) does not stay on chip (crossEntropyForward).
    return b_.crossEntropyForward(logits, labels_, logProbs);
}

void OptStep::backward(TensorId x, TensorId lnf, TensorId lnfStats, TensorId logProbs,
                       const std::vector<Saved>& saved) {
    const TensorId dLogits = b_.crossEntropyBackward(logProbs, labels_, "lm_head.logits.grad");
    lmGrad_ = b_.act("lm_head.weight.grad", c_.vocab * c_.hidden * kFloat, TensorKind::Gradient);
    b_.bwd("lm_head.backward_weight", "MmBackward0", {dLogits, lnf}, {lmGrad_},
        TransformerLayerBuilder::gemm(c_.vocab, c_.hidden, T_));
    const TensorId dLnf = b_.act("decoder.final_layer_norm.out.grad", act_, TensorKind::Gradient);
    b_.bwd("lm_head.backward_input", "MmBackward0", {dLogits, embedTokens_.weight}, {dLnf},
        TransformerLayerBuilder::gemm(T_, c_.hidden, c_.vocab));
    TensorId dx = b_.layerNormBackward("decoder.final_layer_norm", finalNorm_, dLnf, x, lnfStats);
    for (std::int64_t l = c_.layers - 1; l >= 0; --l) dx = layerBackward(l, saved[static_cast<size_t>(l)], dx);
    // Embedding backward: a zeroed gradient, then a scatter-add of the rows the batch used.
    const double scatter = double(act_ + T_ * 8);
    b_.bwd("embed_positions.grad_zero", "EmbeddingBackward0", {}, {embedPositions_.grad});
    b_.bwd("embed_positions.backward", "EmbeddingBackward0", {dx, positions_, embedPositions_.grad},
        {embedPositions_.grad}, KernelWork{0, scatter, false});
    const TensorId tokGrad = b_.act("embed_tokens.grad_embedding", c_.vocab * c_.hidden * kFloat, TensorKind::Gradient);
    b_.bwd("embed_tokens.grad_zero", "EmbeddingBackward0", {}, {tokGrad});
    b_.bwd("embed_tokens.backward", "EmbeddingBackward0", {dx, ids_, tokGrad}, {tokGrad}, KernelWork{0, scatter, false});
    // The tied weight: the LM head's and the embedding's gradients summed.
    b_.bwd("embed_tokens.grad_tied_sum", "aten::add", {lmGrad_, tokGrad}, {embedTokens_.grad});
}

Profile OptStep::build() {
    makeParameters();
    TensorId x = embed();
    std::vector<Saved> saved(static_cast<size_t>(c_.layers));
    for (std::int64_t l = 0; l < c_.layers; ++l) x = layerForward(l, x, saved[static_cast<size_t>(l)]);
    TensorId lnf = -1, lnfStats = -1, logProbs = -1;
    headAndLoss(x, lnf, lnfStats, logProbs);
    backward(x, lnf, lnfStats, logProbs, saved);
    Profile p = b_.finish("opt", c_.layers, c_.ffn, c_.vocab);
    p.metadata.notes["kernels_per_layer.forward"] = std::to_string(kOptForwardKernelsPerLayer);
    p.metadata.notes["kernels_per_layer.backward"] = std::to_string(kOptBackwardKernelsPerLayer);
    p.metadata.notes["durations"] = fmt::format(
        "max(FLOPs / ({:.4g} FLOP/s x {}), bytes / ({:.4g} B/s x {})) + {} ns (docs/roofline.md)",
        c_.gpu.matmulTf32 ? c_.gpu.tf32FlopRate : c_.gpu.fp32FlopRate, c_.gpu.computeEfficiency,
        c_.gpu.memoryBandwidth, c_.gpu.memoryEfficiency, c_.gpu.launchOverhead);
    return p;
}

}  // namespace

std::int64_t optParameterCount(const OptConfig& c) {
    const std::int64_t h = c.hidden, f = c.ffn;
    const std::int64_t perLayer = 4 * (h * h + h) + 2 * f * h + f + h + 4 * h;
    return c.vocab * h + (c.maxPositions + 2) * h + 2 * h + c.layers * perLayer;
}

Profile optTrainingGraph(const OptConfig& config) {
    checkStepConfig("opt", config);
    OptStep step(config);
    return step.build();
}

}  // namespace spillway
