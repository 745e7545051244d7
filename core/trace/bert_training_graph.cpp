#include "core/trace/bert_training_graph.h"

#include "core/trace/foreach_adamw.h"
#include "core/trace/roofline_graph_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <string>
#include <vector>

namespace spillway {

namespace {

constexpr Bytes kFloat = 4;

void checkConfig(const BertConfig& c) {
    const std::pair<std::int64_t, const char*> sizes[] = {
        {c.layers, "layers"}, {c.hidden, "hidden"},          {c.heads, "heads"},         {c.ffn, "ffn"},
        {c.vocab, "vocab"},   {c.maxPositions, "max-positions"}, {c.typeVocab, "type-vocab"}, {c.sequence, "sequence"},
        {c.batch, "batch"}};
    for (const auto& [value, field] : sizes)
        if (value <= 0) throw std::invalid_argument(fmt::format("bert: {} must be positive (got {})", field, value));
    if (c.hidden % c.heads != 0)
        throw std::invalid_argument(fmt::format("bert: hidden ({}) must be a multiple of heads ({})", c.hidden, c.heads));
    if (c.sequence > c.maxPositions)
        throw std::invalid_argument(
            fmt::format("bert: sequence ({}) exceeds max-positions ({})", c.sequence, c.maxPositions));
    const GpuRoofline& g = c.gpu;
    if (!(g.fp32FlopRate > 0) || !(g.tf32FlopRate > 0) || !(g.memoryBandwidth > 0) || !(g.computeEfficiency > 0) ||
        !(g.memoryEfficiency > 0) || g.launchOverhead < 0)
        throw std::invalid_argument("bert: the GPU's peaks and efficiencies must be positive");
}

struct Linear {
    AdamParam w, b;
    std::int64_t in = 0, out = 0;
};
struct Norm {
    AdamParam w, b;
};
struct LayerParams {
    Linear q, k, v, out;
    Norm attnNorm;
    Linear fc1, fc2;
    Norm outNorm;
};
struct Saved {
    TensorId x, q, k, v, attn, lse, mask1, sum1, stats1, y1, fc1, gelu, mask2, sum2, stats2;
};

class BertStep {
public:
    explicit BertStep(const BertConfig& c) : c_(c), b_(c.gpu), T_(c.batch * c.sequence), act_(T_ * c.hidden * kFloat) {}
    Profile build();

private:
    AdamParam param(const std::string& name, std::int64_t elements) {
        AdamParam p{name, b_.tensor(name, elements * kFloat, TensorKind::Weight, true),
                    b_.tensor(name + ".grad", elements * kFloat, TensorKind::Gradient),
                    b_.tensor(name + ".exp_avg", elements * kFloat, TensorKind::OptimizerState, true),
                    b_.tensor(name + ".exp_avg_sq", elements * kFloat, TensorKind::OptimizerState, true)};
        params_.push_back(p);
        return p;
    }
    Linear linear(const std::string& name, std::int64_t in, std::int64_t out) {
        Linear l{param(name + ".weight", in * out), param(name + ".bias", out), in, out};
        return l;
    }
    Norm norm(const std::string& name) { return {param(name + ".weight", c_.hidden), param(name + ".bias", c_.hidden)}; }
    TensorId act(const std::string& name, Bytes bytes, TensorKind kind = TensorKind::Activation) {
        return b_.tensor(name, bytes, kind);
    }
    void fwd(const std::string& name, const char* op, std::vector<TensorId> in, std::vector<TensorId> out,
             KernelWork work = {}, KernelPhase phase = KernelPhase::Forward) {
        b_.kernel(name, op, phase, std::move(in), std::move(out), work);
    }
    void bwd(const std::string& name, const char* op, std::vector<TensorId> in, std::vector<TensorId> out,
             KernelWork work = {}) {
        b_.kernel(name, op, KernelPhase::Backward, std::move(in), std::move(out), work);
    }
    static KernelWork gemm(std::int64_t m, std::int64_t n, std::int64_t k) {
        return {2.0 * double(m) * double(n) * double(k), -1, true};
    }

    void makeParameters();
    TensorId linearForward(const std::string& name, const Linear& l, TensorId x);
    TensorId linearBackward(const std::string& name, const Linear& l, TensorId dy, TensorId x);
    TensorId normForward(const std::string& name, const Norm& n, TensorId x, TensorId& stats);
    TensorId normBackward(const std::string& name, const Norm& n, TensorId dy, TensorId x, TensorId stats);
    TensorId dropoutForward(const std::string& name, TensorId x, TensorId& mask);
    TensorId embed();
    TensorId layerForward(std::int64_t l, TensorId x, Saved& s);
    TensorId layerBackward(std::int64_t l, const Saved& s, TensorId dy);
    void headAndBackward(TensorId x, const std::vector<Saved>& saved);
    void embeddingBackward(TensorId dx);
    void sortedEmbeddingBackward(const std::string& name, TensorId dx, TensorId ids, TensorId grad);

    const BertConfig& c_;
    RooflineGraphBuilder b_;
    std::int64_t T_;
    Bytes act_;
    std::vector<AdamParam> params_;
    std::vector<LayerParams> layers_;
    AdamParam words_, positions_, types_, mlmBias_;
    Norm embNorm_, mlmNorm_;
    Linear mlmDense_;
    TensorId ids_ = -1, typeIds_ = -1, embSum_ = -1, embStats_ = -1, embMask_ = -1, labels_ = -1, lmGrad_ = -1;
};

// BertForMaskedLM.parameters() order: embeddings, layers, then the MLM head (its decoder weight
// is the word embedding; its bias is cls.predictions.bias, listed first).
void BertStep::makeParameters() {
    const std::int64_t h = c_.hidden;
    words_ = param("bert.embeddings.word_embeddings.weight", c_.vocab * h);
    positions_ = param("bert.embeddings.position_embeddings.weight", c_.maxPositions * h);
    types_ = param("bert.embeddings.token_type_embeddings.weight", c_.typeVocab * h);
    embNorm_ = norm("bert.embeddings.LayerNorm");
    for (std::int64_t l = 0; l < c_.layers; ++l) {
        const std::string pre = fmt::format("bert.encoder.layer.{}.", l);
        LayerParams lp;
        lp.q = linear(pre + "attention.self.query", h, h);
        lp.k = linear(pre + "attention.self.key", h, h);
        lp.v = linear(pre + "attention.self.value", h, h);
        lp.out = linear(pre + "attention.output.dense", h, h);
        lp.attnNorm = norm(pre + "attention.output.LayerNorm");
        lp.fc1 = linear(pre + "intermediate.dense", h, c_.ffn);
        lp.fc2 = linear(pre + "output.dense", c_.ffn, h);
        lp.outNorm = norm(pre + "output.LayerNorm");
        layers_.push_back(lp);
    }
    mlmBias_ = param("cls.predictions.bias", c_.vocab);
    mlmDense_ = linear("cls.predictions.transform.dense", h, h);
    mlmNorm_ = norm("cls.predictions.transform.LayerNorm");
}

TensorId BertStep::linearForward(const std::string& name, const Linear& l, TensorId x) {
    const TensorId y = act(name + ".out", T_ * l.out * kFloat);
    fwd(name, "aten::linear", {x, l.w.weight, l.b.weight}, {y}, gemm(T_, l.out, l.in));
    return y;
}

// dX, dW, then (for a weight gradient of at most 2^20 elements over a 4x longer reduction, where
// cuBLAS splits the reduction, as the trace's 768 x 768 ones) a split-K reduce, then db.
TensorId BertStep::linearBackward(const std::string& name, const Linear& l, TensorId dy, TensorId x) {
    const TensorId dx = act(name + ".grad_input", T_ * l.in * kFloat, TensorKind::Gradient);
    bwd(name + ".backward_input", "AddmmBackward0", {dy, l.w.weight}, {dx}, gemm(T_, l.in, l.out));
    bwd(name + ".backward_weight", "AddmmBackward0", {dy, x}, {l.w.grad}, gemm(l.out, l.in, T_));
    if (l.in * l.out <= (std::int64_t(1) << 20) && T_ >= 4 * std::max(l.in, l.out))
        bwd(name + ".backward_weight_splitk_reduce", "AddmmBackward0", {l.w.grad}, {l.w.grad},
            KernelWork{0, 3.0 * double(b_.bytesOf(l.w.grad)), false});
    bwd(name + ".backward_bias", "AddmmBackward0", {dy}, {l.b.grad});
    return dx;
}

TensorId BertStep::normForward(const std::string& name, const Norm& n, TensorId x, TensorId& stats) {
    const TensorId y = act(name + ".out", act_);
    stats = act(name + ".mean_rstd", T_ * 2 * kFloat);
    fwd(name, "aten::layer_norm", {x, n.w.weight, n.b.weight}, {y, stats});
    return y;
}

TensorId BertStep::normBackward(const std::string& name, const Norm& n, TensorId dy, TensorId x, TensorId stats) {
    const TensorId dx = act(name + ".grad_input", act_, TensorKind::Gradient);
    bwd(name + ".backward_input", "NativeLayerNormBackward0", {dy, x, stats, n.w.weight}, {dx});
    bwd(name + ".backward_gamma_beta", "NativeLayerNormBackward0", {dy, x, stats}, {n.w.grad, n.b.grad});
    return dx;
}

TensorId BertStep::dropoutForward(const std::string& name, TensorId x, TensorId& mask) {
    const TensorId y = act(name + ".out", act_);
    mask = act(name + ".mask", T_ * c_.hidden);
    fwd(name, "aten::dropout", {x}, {y, mask});
    return y;
}

// Word, token-type and position embeddings summed, LayerNorm, dropout (9 kernels).
TensorId BertStep::embed() {
    const Bytes idBytes = T_ * 8;
    const double gather = double(idBytes + 2 * act_);
    const TensorId typeBuffer = act("token_type_ids.buffer", c_.maxPositions * 8, TensorKind::Input);
    typeIds_ = act("token_type_ids", c_.sequence * 8, TensorKind::Temporary);
    fwd("token_type_ids.expand", "aten::gather", {typeBuffer}, {typeIds_});
    ids_ = act("input_ids", idBytes, TensorKind::Input);
    const TensorId words = act("word_embeddings.out", act_);
    fwd("word_embeddings", "aten::embedding", {ids_, words_.weight}, {words}, KernelWork{0, gather, false});
    const TensorId typeIdsFull = act("token_type_ids.expanded", idBytes, TensorKind::Temporary);
    fwd("token_type_ids.copy", "aten::copy_", {typeIds_}, {typeIdsFull});
    typeIds_ = typeIdsFull;
    const TensorId types = act("token_type_embeddings.out", act_);
    fwd("token_type_embeddings", "aten::embedding", {typeIds_, types_.weight}, {types}, KernelWork{0, gather, false});
    const TensorId sum = act("embeddings.sum", act_);
    fwd("embeddings.add_types", "aten::add", {words, types}, {sum});
    const TensorId pos = act("position_embeddings.out", c_.sequence * c_.hidden * kFloat);
    fwd("position_embeddings", "aten::embedding", {positions_.weight}, {pos});
    embSum_ = act("embeddings.sum_positions", act_);
    fwd("embeddings.add_positions", "aten::add", {sum, pos}, {embSum_});
    const TensorId normed = normForward("bert.embeddings.LayerNorm", embNorm_, embSum_, embStats_);
    return dropoutForward("bert.embeddings.dropout", normed, embMask_);
}

TensorId BertStep::layerForward(std::int64_t l, TensorId x, Saved& s) {
    const LayerParams& lp = layers_[static_cast<size_t>(l)];
    const std::string pre = fmt::format("layer{}.", l);
    const double B = double(c_.batch), S = double(c_.sequence), h = double(c_.hidden);
    s.x = x;
    s.q = linearForward(pre + "attention.self.query", lp.q, x);
    s.k = linearForward(pre + "attention.self.key", lp.k, x);
    s.v = linearForward(pre + "attention.self.value", lp.v, x);
    s.attn = act(pre + "attention.context", act_);
    s.lse = act(pre + "attention.logsumexp", c_.batch * c_.heads * c_.sequence * kFloat);
    fwd(pre + "attention.sdpa", "aten::scaled_dot_product_attention", {s.q, s.k, s.v}, {s.attn, s.lse},
        KernelWork{4.0 * B * S * S * h, -1, true});
    const TensorId o = linearForward(pre + "attention.output.dense", lp.out, s.attn);
    const TensorId oDropped = dropoutForward(pre + "attention.output.dropout", o, s.mask1);
    s.sum1 = act(pre + "attention.output.residual", act_);
    fwd(pre + "attention.output.add", "aten::add", {oDropped, x}, {s.sum1});
    s.y1 = normForward(pre + "attention.output.LayerNorm", lp.attnNorm, s.sum1, s.stats1);
    s.fc1 = linearForward(pre + "intermediate.dense", lp.fc1, s.y1);
    s.gelu = act(pre + "intermediate.gelu", T_ * c_.ffn * kFloat);
    fwd(pre + "intermediate.gelu", "aten::gelu", {s.fc1}, {s.gelu});
    const TensorId f2 = linearForward(pre + "output.dense", lp.fc2, s.gelu);
    const TensorId f2Dropped = dropoutForward(pre + "output.dropout", f2, s.mask2);
    s.sum2 = act(pre + "output.residual", act_);
    fwd(pre + "output.add", "aten::add", {f2Dropped, s.y1}, {s.sum2});
    return normForward(pre + "output.LayerNorm", lp.outNorm, s.sum2, s.stats2);
}

// Post-LayerNorm: the output LayerNorm's backward comes first; each projection of the
// attention adds its input gradient into the residual's (add_).
TensorId BertStep::layerBackward(std::int64_t l, const Saved& s, TensorId dy) {
    const LayerParams& lp = layers_[static_cast<size_t>(l)];
    const std::string pre = fmt::format("layer{}.", l);
    const double B = double(c_.batch), S = double(c_.sequence), h = double(c_.hidden);
    const TensorId dSum2 = normBackward(pre + "output.LayerNorm", lp.outNorm, dy, s.sum2, s.stats2);
    const TensorId df2 = act(pre + "output.dense.out.grad", act_, TensorKind::Gradient);
    bwd(pre + "output.dropout.backward", "NativeDropoutBackward0", {dSum2, s.mask2}, {df2});
    const TensorId dGelu = linearBackward(pre + "output.dense", lp.fc2, df2, s.gelu);
    const TensorId df1 = act(pre + "intermediate.dense.out.grad", T_ * c_.ffn * kFloat, TensorKind::Gradient);
    bwd(pre + "intermediate.gelu.backward", "GeluBackward0", {dGelu, s.fc1}, {df1});
    const TensorId dy1 = linearBackward(pre + "intermediate.dense", lp.fc1, df1, s.y1);
    // Gradient sums run in the autograd node that delivers the second gradient (the trace's op).
    bwd(pre + "output.residual.grad_accumulate", "ViewBackward0", {dy1, dSum2}, {dy1}, KernelWork{0, 3.0 * double(act_)});
    const TensorId dSum1 = normBackward(pre + "attention.output.LayerNorm", lp.attnNorm, dy1, s.sum1, s.stats1);
    const TensorId dO = act(pre + "attention.output.dense.out.grad", act_, TensorKind::Gradient);
    bwd(pre + "attention.output.dropout.backward", "NativeDropoutBackward0", {dSum1, s.mask1}, {dO});
    const TensorId dAttn = linearBackward(pre + "attention.output.dense", lp.out, dO, s.attn);
    const Bytes rowBytes = c_.batch * c_.heads * c_.sequence * kFloat;
    const TensorId prod = act(pre + "attention.sdpa.grad_out_times_out", act_, TensorKind::Temporary);
    const char* sdpa = "ScaledDotProductEfficientAttentionBackward0";
    bwd(pre + "attention.sdpa.delta_mul", sdpa, {dAttn, s.attn}, {prod});
    const TensorId delta = act(pre + "attention.sdpa.delta", rowBytes, TensorKind::Temporary);
    bwd(pre + "attention.sdpa.delta_sum", sdpa, {prod}, {delta});
    const TensorId lse = act(pre + "attention.sdpa.logsumexp_copy", rowBytes, TensorKind::Temporary);
    bwd(pre + "attention.sdpa.logsumexp_copy", sdpa, {s.lse}, {lse});
    const TensorId dq = act(pre + "attention.query.out.grad", act_, TensorKind::Gradient);
    const TensorId dk = act(pre + "attention.key.out.grad", act_, TensorKind::Gradient);
    const TensorId dv = act(pre + "attention.value.out.grad", act_, TensorKind::Gradient);
    bwd(pre + "attention.sdpa.backward", sdpa, {dAttn, s.q, s.k, s.v, s.attn, lse, delta}, {dq, dk, dv},
        KernelWork{10.0 * B * S * S * h, -1, true});
    for (const auto& [name, lin, grad] : {std::tuple{"value", &lp.v, dv}, {"key", &lp.k, dk}, {"query", &lp.q, dq}}) {
        const TensorId dIn = linearBackward(pre + "attention.self." + name, *lin, grad, s.x);
        bwd(pre + "attention.self." + name + ".grad_accumulate", "ViewBackward0", {dSum1, dIn}, {dSum1},
            KernelWork{0, 3.0 * double(act_)});
    }
    return dSum1;
}

// MLM head (dense, GELU, LayerNorm, decoder tied to the word embeddings), cross-entropy, and
// the backward pass down to the embeddings.
void BertStep::headAndBackward(TensorId x, const std::vector<Saved>& saved) {
    const TensorId dense = linearForward("cls.predictions.transform.dense", mlmDense_, x);
    const TensorId gelu = act("cls.predictions.transform.gelu", act_);
    fwd("cls.predictions.transform.gelu", "aten::gelu", {dense}, {gelu});
    TensorId stats = -1;
    const TensorId normed = normForward("cls.predictions.transform.LayerNorm", mlmNorm_, gelu, stats);
    const Bytes logitBytes = T_ * c_.vocab * kFloat;
    const TensorId logits = act("cls.predictions.logits", logitBytes);
    fwd("cls.predictions.decoder", "aten::linear", {normed, words_.weight, mlmBias_.weight}, {logits},
        gemm(T_, c_.vocab, c_.hidden));
    labels_ = act("labels", T_ * 8, TensorKind::Input);
    const TensorId logProbs = act("log_softmax.out", logitBytes);
    // Three reads of each vocabulary row and one write (docs/roofline.md), then the NLL gather.
    fwd("loss.log_softmax", "aten::cross_entropy_loss", {logits}, {logProbs}, KernelWork{0, 4.0 * double(logitBytes)},
        KernelPhase::Loss);
    const TensorId loss = act("loss", kFloat);
    fwd("loss.nll", "aten::cross_entropy_loss", {logProbs, labels_}, {loss}, KernelWork{0, double(T_ * 16)},
        KernelPhase::Loss);

    const TensorId seed = act("loss.grad", kFloat, TensorKind::Gradient);
    bwd("loss.grad_seed", "aten::ones_like", {}, {seed});
    const TensorId dLogProbs = act("log_softmax.out.grad", logitBytes, TensorKind::Gradient);
    bwd("loss.nll.grad_zero", "NllLossBackward0", {}, {dLogProbs});
    bwd("loss.nll.backward", "NllLossBackward0", {seed, labels_, dLogProbs}, {dLogProbs},
        KernelWork{0, double(T_ * 16)});
    const TensorId dLogits = act("cls.predictions.logits.grad", logitBytes, TensorKind::Gradient);
    bwd("loss.log_softmax.backward", "LogSoftmaxBackward0", {dLogProbs, logProbs}, {dLogits},
        KernelWork{0, 4.0 * double(logitBytes)});
    const TensorId dNormed = act("cls.predictions.transform.LayerNorm.out.grad", act_, TensorKind::Gradient);
    bwd("cls.predictions.decoder.backward_input", "AddmmBackward0", {dLogits, words_.weight}, {dNormed},
        gemm(T_, c_.hidden, c_.vocab));
    lmGrad_ = act("cls.predictions.decoder.weight.grad", c_.vocab * c_.hidden * kFloat, TensorKind::Gradient);
    bwd("cls.predictions.decoder.backward_weight", "AddmmBackward0", {dLogits, normed}, {lmGrad_},
        gemm(c_.vocab, c_.hidden, T_));
    bwd("cls.predictions.decoder.backward_bias", "AddmmBackward0", {dLogits}, {mlmBias_.grad});
    const TensorId dGelu = normBackward("cls.predictions.transform.LayerNorm", mlmNorm_, dNormed, gelu, stats);
    const TensorId dDense = act("cls.predictions.transform.dense.out.grad", act_, TensorKind::Gradient);
    bwd("cls.predictions.transform.gelu.backward", "GeluBackward0", {dGelu, dense}, {dDense});
    TensorId dx = linearBackward("cls.predictions.transform.dense", mlmDense_, dDense, x);
    for (std::int64_t l = c_.layers - 1; l >= 0; --l) dx = layerBackward(l, saved[static_cast<size_t>(l)], dx);
    embeddingBackward(dx);
}

// embedding_dense_backward with many indices: sort them and scatter by segments: an arange, 10
// sort and scan kernels, the zeroed gradient, 9 segment kernels (the last two add the rows).
void BertStep::sortedEmbeddingBackward(const std::string& name, TensorId dx, TensorId ids, TensorId grad) {
    const double indexBytes = double(T_ * 16);
    const TensorId order = act(name + ".sorted_indices", T_ * 16, TensorKind::Temporary);
    bwd(name + ".arange", "EmbeddingBackward0", {}, {order});
    for (int i = 0; i < 10; ++i)
        bwd(fmt::format("{}.sort.{}", name, i), "EmbeddingBackward0", {ids, order}, {order}, KernelWork{0, indexBytes});
    bwd(name + ".grad_zero", "EmbeddingBackward0", {}, {grad});
    for (int i = 0; i < 9; ++i) {
        const bool rows = i >= 7;
        bwd(fmt::format("{}.segments.{}", name, i), "EmbeddingBackward0", rows ? std::vector{dx, order, grad}
                                                                               : std::vector{order},
            rows ? std::vector{grad} : std::vector{order}, KernelWork{0, rows ? double(act_) : indexBytes});
    }
}

void BertStep::embeddingBackward(TensorId dx) {
    const TensorId dNormed = act("bert.embeddings.dropout.grad", act_, TensorKind::Gradient);
    bwd("bert.embeddings.dropout.backward", "NativeDropoutBackward0", {dx, embMask_}, {dNormed});
    const TensorId dSum = normBackward("bert.embeddings.LayerNorm", embNorm_, dNormed, embSum_, embStats_);
    const TensorId dPos = act("position_embeddings.out.grad", c_.sequence * c_.hidden * kFloat, TensorKind::Gradient);
    bwd("position_embeddings.grad_sum", "AddBackward0", {dSum}, {dPos});
    bwd("position_embeddings.grad_zero", "EmbeddingBackward0", {}, {positions_.grad});
    bwd("position_embeddings.backward", "EmbeddingBackward0", {dPos, positions_.grad}, {positions_.grad},
        KernelWork{0, 3.0 * double(b_.bytesOf(dPos))});
    const TensorId typeIds = act("token_type_ids.contiguous", T_ * 8, TensorKind::Temporary);
    bwd("token_type_embeddings.ids_copy", "EmbeddingBackward0", {typeIds_}, {typeIds});
    sortedEmbeddingBackward("token_type_embeddings", dSum, typeIds, types_.grad);
    const TensorId wordGrad = act("word_embeddings.grad_embedding", c_.vocab * c_.hidden * kFloat, TensorKind::Gradient);
    sortedEmbeddingBackward("word_embeddings", dSum, ids_, wordGrad);
    bwd("word_embeddings.grad_tied_sum", "aten::add", {lmGrad_, wordGrad}, {words_.grad});
}

Profile BertStep::build() {
    makeParameters();
    TensorId x = embed();
    std::vector<Saved> saved(static_cast<size_t>(c_.layers));
    for (std::int64_t l = 0; l < c_.layers; ++l) x = layerForward(l, x, saved[static_cast<size_t>(l)]);
    headAndBackward(x, saved);
    appendForeachAdamW(b_, params_);
    Profile p = b_.take();
    p.jobs.push_back(Job{0, "train"});
    p.metadata.model = fmt::format("bert L{} h{} heads{} ffn{} vocab{} seq{}", c_.layers, c_.hidden, c_.heads, c_.ffn,
                                   c_.vocab, c_.sequence);
    p.metadata.batch = c_.batch;
    p.metadata.device = c_.gpu.name + " (roofline model)";
    p.metadata.source = "generated-bert";
    p.metadata.notes["precision"] = "fp32";
    p.metadata.notes["optimizer"] = "AdamW (foreach)";
    p.metadata.notes["sequence"] = std::to_string(c_.sequence);
    p.metadata.notes["durations"] = "roofline model (docs/roofline.md)";
    return p;
}

}  // namespace

std::int64_t bertParameterCount(const BertConfig& c) {
    const std::int64_t h = c.hidden, f = c.ffn;
    const std::int64_t perLayer = 4 * (h * h + h) + 2 * f * h + f + h + 4 * h;
    return (c.vocab + c.maxPositions + c.typeVocab) * h + 2 * h + c.layers * perLayer + c.vocab + h * h + h + 2 * h;
}

Profile bertTrainingGraph(const BertConfig& config) {
    checkConfig(config);
    BertStep step(config);
    return step.build();
}

}  // namespace spillway
