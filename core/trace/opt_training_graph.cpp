#include "core/trace/opt_training_graph.h"

#include "core/trace/foreach_adamw.h"
#include "core/trace/roofline_graph_builder.h"

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace spillway {

namespace {

constexpr Bytes kFloat = 4;

void requirePositive(std::int64_t value, const char* field) {
    if (value <= 0) throw std::invalid_argument(fmt::format("opt: {} must be positive (got {})", field, value));
}

void checkConfig(const OptConfig& c) {
    requirePositive(c.layers, "layers");
    requirePositive(c.hidden, "hidden");
    requirePositive(c.heads, "heads");
    requirePositive(c.ffn, "ffn");
    requirePositive(c.vocab, "vocab");
    requirePositive(c.maxPositions, "max-positions");
    requirePositive(c.sequence, "sequence");
    requirePositive(c.batch, "batch");
    if (c.hidden % c.heads != 0)
        throw std::invalid_argument(fmt::format("opt: hidden ({}) must be a multiple of heads ({})", c.hidden, c.heads));
    if (c.sequence > c.maxPositions)
        throw std::invalid_argument(
            fmt::format("opt: sequence ({}) exceeds max-positions ({})", c.sequence, c.maxPositions));
    const GpuRoofline& g = c.gpu;
    if (!(g.fp32FlopRate > 0) || !(g.tf32FlopRate > 0) || !(g.memoryBandwidth > 0) || !(g.computeEfficiency > 0) ||
        !(g.memoryEfficiency > 0) || g.launchOverhead < 0)
        throw std::invalid_argument("opt: the GPU's peaks and efficiencies must be positive");
}

struct Linear {
    AdamParam w, b;
};
struct Norm {
    AdamParam w, b;
};
// OPTDecoderLayer's parameters in model.parameters() order (the order AdamW's lists follow).
struct LayerParams {
    Linear k, v, q, out;
    Norm attnNorm;
    Linear fc1, fc2;
    Norm finalNorm;
};

// What a layer's forward leaves for its backward (autograd's saved tensors).
struct Saved {
    TensorId x, ln1, stats1, q, k, v, attn, lse, mask1, x1, ln2, stats2, relu, mask2;
};

class OptStep {
public:
    explicit OptStep(const OptConfig& c)
        : c_(c), b_(c.gpu), T_(c.batch * c.sequence), act_(T_ * c.hidden * kFloat) {}

    Profile build();

private:
    AdamParam param(const std::string& name, std::int64_t elements) {
        AdamParam p;
        p.name = name;
        p.weight = b_.tensor(name, elements * kFloat, TensorKind::Weight, true);
        p.grad = b_.tensor(name + ".grad", elements * kFloat, TensorKind::Gradient);
        p.expAvg = b_.tensor(name + ".exp_avg", elements * kFloat, TensorKind::OptimizerState, true);
        p.expAvgSq = b_.tensor(name + ".exp_avg_sq", elements * kFloat, TensorKind::OptimizerState, true);
        params_.push_back(p);
        return p;
    }
    Linear linear(const std::string& name, std::int64_t in, std::int64_t out) {
        Linear l;
        l.w = param(name + ".weight", in * out);
        l.b = param(name + ".bias", out);
        return l;
    }
    Norm norm(const std::string& name) {
        Norm n;
        n.w = param(name + ".weight", c_.hidden);
        n.b = param(name + ".bias", c_.hidden);
        return n;
    }
    void makeParameters();

    TensorId act(const std::string& name, Bytes bytes, TensorKind kind = TensorKind::Activation) {
        return b_.tensor(name, bytes, kind);
    }
    void k(const std::string& name, const char* op, KernelPhase phase, std::vector<TensorId> in,
           std::vector<TensorId> out, KernelWork work = {}) {
        b_.kernel(name, op, phase, std::move(in), std::move(out), work);
    }
    void fwd(const std::string& name, const char* op, std::vector<TensorId> in, std::vector<TensorId> out,
             KernelWork work = {}) {
        k(name, op, KernelPhase::Forward, std::move(in), std::move(out), work);
    }
    void bwd(const std::string& name, const char* op, std::vector<TensorId> in, std::vector<TensorId> out,
             KernelWork work = {}) {
        k(name, op, KernelPhase::Backward, std::move(in), std::move(out), work);
    }
    KernelWork gemm(std::int64_t m, std::int64_t n, std::int64_t kk) const {
        return {2.0 * double(m) * double(n) * double(kk), -1, true};
    }

    TensorId linearForward(const std::string& name, const Linear& l, TensorId x, std::int64_t in, std::int64_t out);
    TensorId linearBackward(const std::string& name, const Linear& l, TensorId dy, TensorId x, std::int64_t in,
                            std::int64_t out);
    TensorId layerNormForward(const std::string& name, const Norm& n, TensorId x, TensorId& stats);
    TensorId layerNormBackward(const std::string& name, const Norm& n, TensorId dy, TensorId x, TensorId stats);
    TensorId embed();
    TensorId layerForward(std::int64_t l, TensorId x, Saved& s);
    TensorId attentionBackward(const std::string& pre, const LayerParams& lp, const Saved& s, TensorId dAttn);
    TensorId layerBackward(std::int64_t l, const Saved& s, TensorId dy);
    TensorId headAndLoss(TensorId x, TensorId& lnf, TensorId& lnfStats, TensorId& logProbs);
    void backward(TensorId x, TensorId lnf, TensorId lnfStats, TensorId logProbs, const std::vector<Saved>& saved);

    const OptConfig& c_;
    RooflineGraphBuilder b_;
    std::int64_t T_;  // tokens in the batch
    Bytes act_;       // one (tokens, hidden) fp32 activation
    std::vector<AdamParam> params_;
    std::vector<LayerParams> layers_;
    AdamParam embedTokens_, embedPositions_;
    Norm finalNorm_;
    TensorId ids_ = -1, positions_ = -1, labels_ = -1, lmGrad_ = -1;
};

void OptStep::makeParameters() {
    const std::int64_t h = c_.hidden;
    embedTokens_ = param("decoder.embed_tokens.weight", c_.vocab * h);
    embedPositions_ = param("decoder.embed_positions.weight", (c_.maxPositions + 2) * h);
    finalNorm_ = norm("decoder.final_layer_norm");
    for (std::int64_t l = 0; l < c_.layers; ++l) {
        const std::string pre = fmt::format("decoder.layers.{}.", l);
        LayerParams lp;
        lp.k = linear(pre + "self_attn.k_proj", h, h);
        lp.v = linear(pre + "self_attn.v_proj", h, h);
        lp.q = linear(pre + "self_attn.q_proj", h, h);
        lp.out = linear(pre + "self_attn.out_proj", h, h);
        lp.attnNorm = norm(pre + "self_attn_layer_norm");
        lp.fc1 = linear(pre + "fc1", h, c_.ffn);
        lp.fc2 = linear(pre + "fc2", c_.ffn, h);
        lp.finalNorm = norm(pre + "final_layer_norm");
        layers_.push_back(lp);
    }
}

TensorId OptStep::linearForward(const std::string& name, const Linear& l, TensorId x, std::int64_t in,
                                std::int64_t out) {
    const TensorId y = act(name + ".out", T_ * out * kFloat);
    fwd(name, "aten::linear", {x, l.w.weight, l.b.weight}, {y}, gemm(T_, out, in));
    return y;
}

// dX = dY W (an mm), dW = dY^T X (an mm into the gradient), db = sum(dY) (a reduction).
TensorId OptStep::linearBackward(const std::string& name, const Linear& l, TensorId dy, TensorId x, std::int64_t in,
                                 std::int64_t out) {
    const TensorId dx = act(name + ".grad_input", T_ * in * kFloat, TensorKind::Gradient);
    bwd(name + ".backward_input", "AddmmBackward0", {dy, l.w.weight}, {dx}, gemm(T_, in, out));
    bwd(name + ".backward_weight", "AddmmBackward0", {dy, x}, {l.w.grad}, gemm(out, in, T_));
    bwd(name + ".backward_bias", "AddmmBackward0", {dy}, {l.b.grad});
    return dx;
}

TensorId OptStep::layerNormForward(const std::string& name, const Norm& n, TensorId x, TensorId& stats) {
    const TensorId y = act(name + ".out", act_);
    stats = act(name + ".mean_rstd", T_ * 2 * kFloat);
    fwd(name, "aten::layer_norm", {x, n.w.weight, n.b.weight}, {y, stats});
    return y;
}

// Two kernels: the input gradient, then gamma and beta's (reads dy and x again).
TensorId OptStep::layerNormBackward(const std::string& name, const Norm& n, TensorId dy, TensorId x, TensorId stats) {
    const TensorId dx = act(name + ".grad_input", act_, TensorKind::Gradient);
    bwd(name + ".backward_input", "NativeLayerNormBackward0", {dy, x, stats, n.w.weight}, {dx});
    bwd(name + ".backward_gamma_beta", "NativeLayerNormBackward0", {dy, x, stats}, {n.w.grad, n.b.grad});
    return dx;
}

// OPTLearnedPositionalEmbedding: positions from the attention mask's cumulative sum (the mask
// ops of HF's forward: fill, cumsum, mul, sub, three copies, sum, eq, add), then two gathers.
TensorId OptStep::embed() {
    const Bytes idBytes = T_ * 8;  // int64 per token
    ids_ = act("input_ids", idBytes, TensorKind::Input);
    const TensorId tokens = act("embed_tokens.out", act_);
    fwd("embed_tokens", "aten::embedding", {ids_, embedTokens_.weight}, {tokens},
        KernelWork{0, double(idBytes + 2 * act_), false});
    TensorId mask = act("attention_mask", idBytes, TensorKind::Input);
    fwd("attention_mask.fill", "aten::ones", {}, {mask});
    const char* maskOps[][2] = {{"positions.cumsum", "aten::cumsum"}, {"positions.mul", "aten::mul"},
                                {"positions.sub", "aten::sub"},       {"positions.copy_0", "aten::copy_"},
                                {"positions.copy_1", "aten::copy_"},  {"positions.copy_2", "aten::copy_"},
                                {"mask.sum", "aten::sum"},            {"mask.eq", "aten::eq"},
                                {"positions.offset", "aten::add"}};
    for (const auto& [name, op] : maskOps) {
        const TensorId next = act(std::string(name) + ".out", idBytes, TensorKind::Temporary);
        fwd(name, op, {mask}, {next});
        mask = next;
    }
    positions_ = mask;
    const TensorId pos = act("embed_positions.out", act_);
    fwd("embed_positions", "aten::embedding", {positions_, embedPositions_.weight}, {pos},
        KernelWork{0, double(idBytes + 2 * act_), false});
    const TensorId x = act("embeddings", act_);
    fwd("embeddings.add", "aten::add", {tokens, pos}, {x});
    return x;
}

TensorId OptStep::layerForward(std::int64_t l, TensorId x, Saved& s) {
    const LayerParams& lp = layers_[l];
    const std::string pre = fmt::format("layer{}.", l);
    const std::int64_t h = c_.hidden, B = c_.batch, S = c_.sequence;
    s.x = x;
    s.ln1 = layerNormForward(pre + "self_attn_layer_norm", lp.attnNorm, x, s.stats1);
    const TensorId q = linearForward(pre + "self_attn.q_proj", lp.q, s.ln1, h, h);
    s.q = act(pre + "self_attn.q_scaled", act_);
    fwd(pre + "self_attn.q_scale", "aten::mul", {q}, {s.q});
    const TensorId k = linearForward(pre + "self_attn.k_proj", lp.k, s.ln1, h, h);
    const TensorId v = linearForward(pre + "self_attn.v_proj", lp.v, s.ln1, h, h);
    // The key/value cache (use_cache): each projection copied into (batch, heads, seq, head_dim).
    s.k = act(pre + "self_attn.key_states", act_);
    fwd(pre + "self_attn.key_cache", "aten::cat", {k}, {s.k});
    s.v = act(pre + "self_attn.value_states", act_);
    fwd(pre + "self_attn.value_cache", "aten::cat", {v}, {s.v});
    // Memory-efficient SDPA: QK^T and PV, 2 B s^2 h FLOPs each (tiles above the diagonal are not
    // skipped by this fp32 kernel: its time matches the full count).
    s.attn = act(pre + "self_attn.context", act_);
    s.lse = act(pre + "self_attn.logsumexp", B * c_.heads * S * kFloat);
    fwd(pre + "self_attn.sdpa", "aten::scaled_dot_product_attention", {s.q, s.k, s.v}, {s.attn, s.lse},
        KernelWork{4.0 * double(B) * double(S) * double(S) * double(h), -1, true});
    const TensorId o = linearForward(pre + "self_attn.out_proj", lp.out, s.attn, h, h);
    const TensorId oDropped = act(pre + "self_attn.dropout.out", act_);
    s.mask1 = act(pre + "self_attn.dropout.mask", T_ * h);
    fwd(pre + "self_attn.dropout", "aten::dropout", {o}, {oDropped, s.mask1});
    s.x1 = act(pre + "residual_1", act_);
    fwd(pre + "residual_1.add", "aten::add", {x, oDropped}, {s.x1});
    s.ln2 = layerNormForward(pre + "final_layer_norm", lp.finalNorm, s.x1, s.stats2);
    const TensorId f1 = linearForward(pre + "fc1", lp.fc1, s.ln2, h, c_.ffn);
    s.relu = act(pre + "relu.out", T_ * c_.ffn * kFloat);
    fwd(pre + "relu", "aten::relu", {f1}, {s.relu});
    const TensorId f2 = linearForward(pre + "fc2", lp.fc2, s.relu, c_.ffn, h);
    const TensorId f2Dropped = act(pre + "dropout.out", act_);
    s.mask2 = act(pre + "dropout.mask", T_ * h);
    fwd(pre + "dropout", "aten::dropout", {f2}, {f2Dropped, s.mask2});
    const TensorId x2 = act(pre + "residual_2", act_);
    fwd(pre + "residual_2.add", "aten::add", {s.x1, f2Dropped}, {x2});
    return x2;
}

// SDPA's memory-efficient backward: delta = rowsum(dO * O) (a mul and a sum), the logsumexp
// copied, a zeroed workspace, then one kernel for dQ, dK, dV: 5 matrix products, 10 B s^2 h.
TensorId OptStep::attentionBackward(const std::string& pre, const LayerParams& lp, const Saved& s, TensorId dAttn) {
    const std::int64_t h = c_.hidden, B = c_.batch, S = c_.sequence;
    const Bytes rowBytes = B * c_.heads * S * kFloat;
    const TensorId prod = act(pre + "self_attn.sdpa.grad_out_times_out", act_, TensorKind::Temporary);
    bwd(pre + "self_attn.sdpa.delta_mul", "ScaledDotProductEfficientAttentionBackward0", {dAttn, s.attn}, {prod});
    const TensorId delta = act(pre + "self_attn.sdpa.delta", rowBytes, TensorKind::Temporary);
    bwd(pre + "self_attn.sdpa.delta_sum", "ScaledDotProductEfficientAttentionBackward0", {prod}, {delta});
    const TensorId lse = act(pre + "self_attn.sdpa.logsumexp_copy", rowBytes, TensorKind::Temporary);
    bwd(pre + "self_attn.sdpa.logsumexp_copy", "ScaledDotProductEfficientAttentionBackward0", {s.lse}, {lse});
    const TensorId workspace = act(pre + "self_attn.sdpa.workspace", act_, TensorKind::Workspace);
    bwd(pre + "self_attn.sdpa.workspace_zero", "ScaledDotProductEfficientAttentionBackward0", {}, {workspace});
    const TensorId dq = act(pre + "self_attn.q_scaled.grad", act_, TensorKind::Gradient);
    const TensorId dk = act(pre + "self_attn.key_states.grad", act_, TensorKind::Gradient);
    const TensorId dv = act(pre + "self_attn.value_states.grad", act_, TensorKind::Gradient);
    bwd(pre + "self_attn.sdpa.backward", "ScaledDotProductEfficientAttentionBackward0",
        {dAttn, s.q, s.k, s.v, s.attn, lse, delta, workspace}, {dq, dk, dv},
        KernelWork{10.0 * double(B) * double(S) * double(S) * double(h), -1, true});
    const TensorId dhv = linearBackward(pre + "self_attn.v_proj", lp.v, dv, s.ln1, h, h);
    const TensorId dhk = linearBackward(pre + "self_attn.k_proj", lp.k, dk, s.ln1, h, h);
    const TensorId dhkv = act(pre + "self_attn_layer_norm.out.grad", act_, TensorKind::Gradient);
    bwd(pre + "self_attn.kv.grad_sum", "ViewBackward0", {dhv, dhk}, {dhkv});
    const TensorId dqUnscaled = act(pre + "self_attn.q_proj.out.grad", act_, TensorKind::Gradient);
    bwd(pre + "self_attn.q_scale.backward", "MulBackward0", {dq}, {dqUnscaled});
    const TensorId dhq = linearBackward(pre + "self_attn.q_proj", lp.q, dqUnscaled, s.ln1, h, h);
    bwd(pre + "self_attn.q.grad_accumulate", "ViewBackward0", {dhkv, dhq}, {dhkv}, KernelWork{0, 3.0 * double(act_)});
    return dhkv;
}

TensorId OptStep::layerBackward(std::int64_t l, const Saved& s, TensorId dy) {
    const LayerParams& lp = layers_[l];
    const std::string pre = fmt::format("layer{}.", l);
    const std::int64_t h = c_.hidden, f = c_.ffn;
    const TensorId df2 = act(pre + "fc2.out.grad", act_, TensorKind::Gradient);
    bwd(pre + "dropout.backward", "NativeDropoutBackward0", {dy, s.mask2}, {df2});
    const TensorId dRelu = linearBackward(pre + "fc2", lp.fc2, df2, s.relu, f, h);
    const TensorId df1 = act(pre + "fc1.out.grad", T_ * f * kFloat, TensorKind::Gradient);
    bwd(pre + "relu.backward", "ReluBackward0", {dRelu, s.relu}, {df1});
    const TensorId dLn2 = linearBackward(pre + "fc1", lp.fc1, df1, s.ln2, h, f);
    const TensorId dx1a = layerNormBackward(pre + "final_layer_norm", lp.finalNorm, dLn2, s.x1, s.stats2);
    const TensorId dx1 = act(pre + "residual_1.grad", act_, TensorKind::Gradient);
    // The autograd engine sums two gradients of one tensor inside the node that delivers the
    // second (the trace's op for these adds is that node).
    bwd(pre + "residual_2.backward", "NativeLayerNormBackward0", {dy, dx1a}, {dx1});
    const TensorId dO = act(pre + "self_attn.out_proj.out.grad", act_, TensorKind::Gradient);
    bwd(pre + "self_attn.dropout.backward", "NativeDropoutBackward0", {dx1, s.mask1}, {dO});
    const TensorId dAttn = linearBackward(pre + "self_attn.out_proj", lp.out, dO, s.attn, h, h);
    const TensorId dLn1 = attentionBackward(pre, lp, s, dAttn);
    const TensorId dxa = layerNormBackward(pre + "self_attn_layer_norm", lp.attnNorm, dLn1, s.x, s.stats1);
    const TensorId dx = act(pre + "input.grad", act_, TensorKind::Gradient);
    bwd(pre + "residual_1.backward", "NativeLayerNormBackward0", {dx1, dxa}, {dx});
    return dx;
}

// Final LayerNorm, the LM head (tied to embed_tokens), HF's label shift (a fill and two
// copies, still in the forward pass), then cross-entropy: log-softmax and NLL (the loss phase).
TensorId OptStep::headAndLoss(TensorId x, TensorId& lnf, TensorId& lnfStats, TensorId& logProbs) {
    lnf = layerNormForward("decoder.final_layer_norm", finalNorm_, x, lnfStats);
    const Bytes logitBytes = T_ * c_.vocab * kFloat;
    const TensorId logits = act("lm_head.logits", logitBytes);
    fwd("lm_head", "aten::linear", {lnf, embedTokens_.weight}, {logits}, gemm(T_, c_.vocab, c_.hidden));
    labels_ = act("labels", T_ * 8, TensorKind::Input);
    const TensorId padded = act("labels.padded", c_.batch * (c_.sequence + 1) * 8, TensorKind::Temporary);
    fwd("labels.pad", "aten::fill_", {}, {padded});
    fwd("labels.pad_copy", "aten::copy_", {labels_}, {padded});
    const TensorId shifted = act("labels.shifted", T_ * 8, TensorKind::Temporary);
    fwd("labels.shift", "aten::copy_", {padded}, {shifted});
    labels_ = shifted;
    logProbs = act("log_softmax.out", logitBytes);
    // A vocabulary row (201 KB for OPT) does not stay on chip: the kernel reads it three times
    // (max, sum of exponentials, output) and writes it once.
    k("loss.log_softmax", "aten::cross_entropy_loss", KernelPhase::Loss, {logits}, {logProbs},
      KernelWork{0, 4.0 * double(logitBytes), false});
    const TensorId loss = act("loss", kFloat);
    k("loss.nll", "aten::cross_entropy_loss", KernelPhase::Loss, {logProbs, labels_}, {loss},
      KernelWork{0, double(T_ * 16), false});
    return loss;
}

void OptStep::backward(TensorId x, TensorId lnf, TensorId lnfStats, TensorId logProbs,
                       const std::vector<Saved>& saved) {
    const Bytes logitBytes = T_ * c_.vocab * kFloat;
    const TensorId seed = act("loss.grad", kFloat, TensorKind::Gradient);
    bwd("loss.grad_seed", "aten::ones_like", {}, {seed});
    const TensorId dLogProbs = act("log_softmax.out.grad", logitBytes, TensorKind::Gradient);
    bwd("loss.nll.grad_zero", "NllLossBackward0", {}, {dLogProbs});
    bwd("loss.nll.backward", "NllLossBackward0", {seed, labels_, dLogProbs}, {dLogProbs},
        KernelWork{0, double(T_ * 16), false});
    const TensorId dLogits = act("lm_head.logits.grad", logitBytes, TensorKind::Gradient);
    // Two passes: the row sum of the incoming gradient, then gradient, output in, result out.
    bwd("loss.log_softmax.backward", "LogSoftmaxBackward0", {dLogProbs, logProbs}, {dLogits},
        KernelWork{0, 4.0 * double(logitBytes), false});
    lmGrad_ = act("lm_head.weight.grad", c_.vocab * c_.hidden * kFloat, TensorKind::Gradient);
    bwd("lm_head.backward_weight", "MmBackward0", {dLogits, lnf}, {lmGrad_}, gemm(c_.vocab, c_.hidden, T_));
    const TensorId dLnf = act("decoder.final_layer_norm.out.grad", act_, TensorKind::Gradient);
    bwd("lm_head.backward_input", "MmBackward0", {dLogits, embedTokens_.weight}, {dLnf},
        gemm(T_, c_.hidden, c_.vocab));
    TensorId dx = layerNormBackward("decoder.final_layer_norm", finalNorm_, dLnf, x, lnfStats);
    for (std::int64_t l = c_.layers - 1; l >= 0; --l) dx = layerBackward(l, saved[static_cast<size_t>(l)], dx);
    // Embedding backward: a zeroed gradient, then a scatter-add of the rows the batch used.
    const double scatter = double(act_ + T_ * 8);
    bwd("embed_positions.grad_zero", "EmbeddingBackward0", {}, {embedPositions_.grad});
    bwd("embed_positions.backward", "EmbeddingBackward0", {dx, positions_, embedPositions_.grad},
        {embedPositions_.grad}, KernelWork{0, scatter, false});
    const TensorId tokGrad = act("embed_tokens.grad_embedding", c_.vocab * c_.hidden * kFloat, TensorKind::Gradient);
    bwd("embed_tokens.grad_zero", "EmbeddingBackward0", {}, {tokGrad});
    bwd("embed_tokens.backward", "EmbeddingBackward0", {dx, ids_, tokGrad}, {tokGrad}, KernelWork{0, scatter, false});
    // The tied weight: the LM head's and the embedding's gradients summed.
    bwd("embed_tokens.grad_tied_sum", "aten::add", {lmGrad_, tokGrad}, {embedTokens_.grad});
}

Profile OptStep::build() {
    makeParameters();
    TensorId x = embed();
    std::vector<Saved> saved(static_cast<size_t>(c_.layers));
    for (std::int64_t l = 0; l < c_.layers; ++l) x = layerForward(l, x, saved[static_cast<size_t>(l)]);
    TensorId lnf = -1, lnfStats = -1, logProbs = -1;
    headAndLoss(x, lnf, lnfStats, logProbs);
    backward(x, lnf, lnfStats, logProbs, saved);
    appendForeachAdamW(b_, params_);
    Profile p = b_.take();
    p.jobs.push_back(Job{0, "train"});
    p.metadata.model = fmt::format("opt L{} h{} heads{} ffn{} vocab{} seq{}", c_.layers, c_.hidden, c_.heads, c_.ffn,
                                   c_.vocab, c_.sequence);
    p.metadata.batch = c_.batch;
    p.metadata.device = c_.gpu.name + " (roofline model)";
    p.metadata.source = "generated-opt";
    p.metadata.notes["precision"] = "fp32";
    p.metadata.notes["optimizer"] = "AdamW (foreach)";
    p.metadata.notes["sequence"] = std::to_string(c_.sequence);
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
    checkConfig(config);
    OptStep step(config);
    return step.build();
}

}  // namespace spillway
