#include "core/trace/bert_training_graph.h"

#include "core/trace/transformer_config_check.h"
#include "core/trace/transformer_layer_builder.h"

#include <fmt/format.h>

#include <tuple>
#include <string>
#include <vector>

namespace spillway {

namespace {

constexpr Bytes kFloat = 4;
// BERT-base's 768 x 768 weight gradients get cuBLAS's split-K reduce in the H200 trace.
constexpr SplitKReduce kSplitK = SplitKReduce::WhenCublasSplits;

struct Saved {
    TensorId x, mask1, sum1, stats1, y1, fc1, gelu, mask2, sum2, stats2;
    SdpaSaved attn;
};

class BertStep {
public:
    explicit BertStep(const BertConfig& c)
        : c_(c), b_(c.gpu, {c.batch, c.sequence, c.hidden, c.heads}), T_(b_.tokens()), act_(b_.activationBytes()) {}
    Profile build();

private:
    void makeParameters();
    TensorId embed();
    TensorId layerForward(std::int64_t l, TensorId x, Saved& s);
    TensorId layerBackward(std::int64_t l, const Saved& s, TensorId dy);
    void headAndBackward(TensorId x, const std::vector<Saved>& saved);
    void embeddingBackward(TensorId dx);
    void sortedEmbeddingBackward(const std::string& name, TensorId dx, TensorId ids, TensorId grad);

    const BertConfig& c_;
    TransformerLayerBuilder b_;
    std::int64_t T_;
    Bytes act_;
    std::vector<TransformerLayerParams> layers_;
    AdamParam words_, positions_, types_, mlmBias_;
    NormParams embNorm_, mlmNorm_;
    LinearParams mlmDense_;
    TensorId ids_ = -1, typeIds_ = -1, embSum_ = -1, embStats_ = -1, embMask_ = -1, labels_ = -1, lmGrad_ = -1;
};

// BertForMaskedLM.parameters() order: embeddings, layers, then the MLM head (its decoder weight
// is the word embedding; its bias is cls.predictions.bias, listed first).
void BertStep::makeParameters() {
    const std::int64_t h = c_.hidden;
    words_ = b_.param("bert.embeddings.word_embeddings.weight", c_.vocab * h);
    positions_ = b_.param("bert.embeddings.position_embeddings.weight", c_.maxPositions * h);
    types_ = b_.param("bert.embeddings.token_type_embeddings.weight", c_.typeVocab * h);
    embNorm_ = b_.norm("bert.embeddings.LayerNorm");
    for (std::int64_t l = 0; l < c_.layers; ++l) {
        const std::string pre = fmt::format("bert.encoder.layer.{}.", l);
        TransformerLayerParams lp;
        lp.q = b_.linear(pre + "attention.self.query", h, h);
        lp.k = b_.linear(pre + "attention.self.key", h, h);
        lp.v = b_.linear(pre + "attention.self.value", h, h);
        lp.out = b_.linear(pre + "attention.output.dense", h, h);
        lp.attnNorm = b_.norm(pre + "attention.output.LayerNorm");
        lp.fc1 = b_.linear(pre + "intermediate.dense", h, c_.ffn);
        lp.fc2 = b_.linear(pre + "output.dense", c_.ffn, h);
        lp.ffnNorm = b_.norm(pre + "output.LayerNorm");
        layers_.push_back(lp);
    }
    mlmBias_ = b_.param("cls.predictions.bias", c_.vocab);
    mlmDense_ = b_.linear("cls.predictions.transform.dense", h, h);
    mlmNorm_ = b_.norm("cls.predictions.transform.LayerNorm");
}

// Word, token-type and position embeddings summed, LayerNorm, dropout (9 kernels).
TensorId BertStep::embed() {
    const Bytes idBytes = T_ * 8;
    const double gather = double(idBytes + 2 * act_);
    const TensorId typeBuffer = b_.act("token_type_ids.buffer", c_.maxPositions * 8, TensorKind::Input);
    typeIds_ = b_.act("token_type_ids", c_.sequence * 8, TensorKind::Temporary);
    b_.fwd("token_type_ids.expand", "aten::gather", {typeBuffer}, {typeIds_});
    ids_ = b_.act("input_ids", idBytes, TensorKind::Input);
    const TensorId words = b_.act("word_embeddings.out", act_);
    b_.fwd("word_embeddings", "aten::embedding", {ids_, words_.weight}, {words}, KernelWork{0, gather, false});
    const TensorId typeIdsFull = b_.act("token_type_ids.expanded", idBytes, TensorKind::Temporary);
    b_.fwd("token_type_ids.copy", "aten::copy_", {typeIds_}, {typeIdsFull});
    typeIds_ = typeIdsFull;
    const TensorId types = b_.act("token_type_embeddings.out", act_);
    b_.fwd("token_type_embeddings", "aten::embedding", {typeIds_, types_.weight}, {types}, KernelWork{0, gather, false});
    const TensorId sum = b_.act("embeddings.sum", act_);
    b_.fwd("embeddings.add_types", "aten::add", {words, types}, {sum});
    const TensorId pos = b_.act("position_embeddings.out", c_.sequence * c_.hidden * kFloat);
    b_.fwd("position_embeddings", "aten::embedding", {positions_.weight}, {pos});
    embSum_ = b_.act("embeddings.sum_positions", act_);
    b_.fwd("embeddings.add_positions", "aten::add", {sum, pos}, {embSum_});
    const TensorId normed = b_.layerNormForward("bert.embeddings.LayerNorm", embNorm_, embSum_, embStats_);
    return b_.dropoutForward("bert.embeddings.dropout", normed, embMask_);
}

TensorId BertStep::layerForward(std::int64_t l, TensorId x, Saved& s) {
    const TransformerLayerParams& lp = layers_[static_cast<size_t>(l)];
    const std::string pre = fmt::format("layer{}.", l);
    s.x = x;
    const TensorId q = b_.linearForward(pre + "attention.self.query", lp.q, x);
    const TensorId k = b_.linearForward(pre + "attention.self.key", lp.k, x);
    const TensorId v = b_.linearForward(pre + "attention.self.value", lp.v, x);
    s.attn = b_.sdpaForward(pre + "attention", q, k, v);
    const TensorId o = b_.linearForward(pre + "attention.output.dense", lp.out, s.attn.context);
    const TensorId oDropped = b_.dropoutForward(pre + "attention.output.dropout", o, s.mask1);
    s.sum1 = b_.act(pre + "attention.output.residual", act_);
    b_.fwd(pre + "attention.output.add", "aten::add", {oDropped, x}, {s.sum1});
    s.y1 = b_.layerNormForward(pre + "attention.output.LayerNorm", lp.attnNorm, s.sum1, s.stats1);
    s.fc1 = b_.linearForward(pre + "intermediate.dense", lp.fc1, s.y1);
    s.gelu = b_.act(pre + "intermediate.gelu", T_ * c_.ffn * kFloat);
    b_.fwd(pre + "intermediate.gelu", "aten::gelu", {s.fc1}, {s.gelu});
    const TensorId f2 = b_.linearForward(pre + "output.dense", lp.fc2, s.gelu);
    const TensorId f2Dropped = b_.dropoutForward(pre + "output.dropout", f2, s.mask2);
    s.sum2 = b_.act(pre + "output.residual", act_);
    b_.fwd(pre + "output.add", "aten::add", {f2Dropped, s.y1}, {s.sum2});
    return b_.layerNormForward(pre + "output.LayerNorm", lp.ffnNorm, s.sum2, s.stats2);
}

// Post-LayerNorm: the output LayerNorm's backward comes first; each projection of the
// attention adds its input gradient into the residual's (add_).
TensorId BertStep::layerBackward(std::int64_t l, const Saved& s, TensorId dy) {
    const TransformerLayerParams& lp = layers_[static_cast<size_t>(l)];
    const std::string pre = fmt::format("layer{}.", l);
    const TensorId dSum2 = b_.layerNormBackward(pre + "output.LayerNorm", lp.ffnNorm, dy, s.sum2, s.stats2);
    const TensorId df2 =
        b_.dropoutBackward(pre + "output.dropout.backward", pre + "output.dense.out.grad", dSum2, s.mask2);
    const TensorId dGelu = b_.linearBackward(pre + "output.dense", lp.fc2, df2, s.gelu, kSplitK);
    const TensorId df1 = b_.act(pre + "intermediate.dense.out.grad", T_ * c_.ffn * kFloat, TensorKind::Gradient);
    b_.bwd(pre + "intermediate.gelu.backward", "GeluBackward0", {dGelu, s.fc1}, {df1});
    const TensorId dy1 = b_.linearBackward(pre + "intermediate.dense", lp.fc1, df1, s.y1, kSplitK);
    b_.gradAccumulate(pre + "output.residual.grad_accumulate", dy1, dSum2);
    const TensorId dSum1 = b_.layerNormBackward(pre + "attention.output.LayerNorm", lp.attnNorm, dy1, s.sum1, s.stats1);
    const TensorId dO = b_.dropoutBackward(pre + "attention.output.dropout.backward",
                                           pre + "attention.output.dense.out.grad", dSum1, s.mask1);
    const TensorId dAttn = b_.linearBackward(pre + "attention.output.dense", lp.out, dO, s.attn.context, kSplitK);
    const SdpaGrads g = b_.sdpaBackward(pre + "attention", s.attn, dAttn,
                                        {pre + "attention.query.out.grad", pre + "attention.key.out.grad",
                                         pre + "attention.value.out.grad"},
                                        false);
    for (const auto& [name, lin, grad] :
         {std::tuple{"value", &lp.v, g.dv}, {"key", &lp.k, g.dk}, {"query", &lp.q, g.dq}}) {
        const TensorId dIn = b_.linearBackward(pre + "attention.self." + name, *lin, grad, s.x, kSplitK);
        b_.gradAccumulate(pre + "attention.self." + name + ".grad_accumulate", dSum1, dIn);
    }
    return dSum1;
}

// MLM head (dense, GELU, LayerNorm, decoder tied to the word embeddings), cross-entropy, and
// the backward pass down to the embeddings.
void BertStep::headAndBackward(TensorId x, const std::vector<Saved>& saved) {
    const TensorId dense = b_.linearForward("cls.predictions.transform.dense", mlmDense_, x);
    const TensorId gelu = b_.act("cls.predictions.transform.gelu", act_);
    b_.fwd("cls.predictions.transform.gelu", "aten::gelu", {dense}, {gelu});
    TensorId stats = -1;
    const TensorId normed = b_.layerNormForward("cls.predictions.transform.LayerNorm", mlmNorm_, gelu, stats);
    const Bytes logitBytes = T_ * c_.vocab * kFloat;
    const TensorId logits = b_.act("cls.predictions.logits", logitBytes);
    b_.fwd("cls.predictions.decoder", "aten::linear", {normed, words_.weight, mlmBias_.weight}, {logits},
        TransformerLayerBuilder::gemm(T_, c_.vocab, c_.hidden));
    labels_ = b_.act("labels", T_ * 8, TensorKind::Input);
    TensorId logProbs = -1;
    b_.crossEntropyForward(logits, labels_, logProbs);
    const TensorId dLogits = b_.crossEntropyBackward(logProbs, labels_, "cls.predictions.logits.grad");
    const TensorId dNormed = b_.act("cls.predictions.transform.LayerNorm.out.grad", act_, TensorKind::Gradient);
    b_.bwd("cls.predictions.decoder.backward_input", "AddmmBackward0", {dLogits, words_.weight}, {dNormed},
        TransformerLayerBuilder::gemm(T_, c_.hidden, c_.vocab));
    lmGrad_ = b_.act("cls.predictions.decoder.weight.grad", c_.vocab * c_.hidden * kFloat, TensorKind::Gradient);
    b_.bwd("cls.predictions.decoder.backward_weight", "AddmmBackward0", {dLogits, normed}, {lmGrad_},
        TransformerLayerBuilder::gemm(c_.vocab, c_.hidden, T_));
    b_.bwd("cls.predictions.decoder.backward_bias", "AddmmBackward0", {dLogits}, {mlmBias_.grad});
    const TensorId dGelu = b_.layerNormBackward("cls.predictions.transform.LayerNorm", mlmNorm_, dNormed, gelu, stats);
    const TensorId dDense = b_.act("cls.predictions.transform.dense.out.grad", act_, TensorKind::Gradient);
    b_.bwd("cls.predictions.transform.gelu.backward", "GeluBackward0", {dGelu, dense}, {dDense});
    TensorId dx = b_.linearBackward("cls.predictions.transform.dense", mlmDense_, dDense, x, kSplitK);
    for (std::int64_t l = c_.layers - 1; l >= 0; --l) dx = layerBackward(l, saved[static_cast<size_t>(l)], dx);
    embeddingBackward(dx);
}

// embedding_dense_backward with many indices: sort them and scatter by segments: an arange, 10
// sort and scan kernels, the zeroed gradient, 9 segment kernels (the last two add the rows).
void BertStep::sortedEmbeddingBackward(const std::string& name, TensorId dx, TensorId ids, TensorId grad) {
    const double indexBytes = double(T_ * 16);
    const TensorId order = b_.act(name + ".sorted_indices", T_ * 16, TensorKind::Temporary);
    b_.bwd(name + ".arange", "EmbeddingBackward0", {}, {order});
    for (int i = 0; i < 10; ++i)
        b_.bwd(fmt::format("{}.sort.{}", name, i), "EmbeddingBackward0", {ids, order}, {order},
               KernelWork{0, indexBytes});
    b_.bwd(name + ".grad_zero", "EmbeddingBackward0", {}, {grad});
    for (int i = 0; i < 9; ++i) {
        const bool rows = i >= 7;
        b_.bwd(fmt::format("{}.segments.{}", name, i), "EmbeddingBackward0", rows ? std::vector{dx, order, grad}
                                                                               : std::vector{order},
            rows ? std::vector{grad} : std::vector{order}, KernelWork{0, rows ? double(act_) : indexBytes});
    }
}

void BertStep::embeddingBackward(TensorId dx) {
    const TensorId dNormed =
        b_.dropoutBackward("bert.embeddings.dropout.backward", "bert.embeddings.dropout.grad", dx, embMask_);
    const TensorId dSum = b_.layerNormBackward("bert.embeddings.LayerNorm", embNorm_, dNormed, embSum_, embStats_);
    const TensorId dPos = b_.act("position_embeddings.out.grad", c_.sequence * c_.hidden * kFloat, TensorKind::Gradient);
    b_.bwd("position_embeddings.grad_sum", "AddBackward0", {dSum}, {dPos});
    b_.bwd("position_embeddings.grad_zero", "EmbeddingBackward0", {}, {positions_.grad});
    b_.bwd("position_embeddings.backward", "EmbeddingBackward0", {dPos, positions_.grad}, {positions_.grad},
        KernelWork{0, 3.0 * double(b_.graph().bytesOf(dPos))});
    const TensorId typeIds = b_.act("token_type_ids.contiguous", T_ * 8, TensorKind::Temporary);
    b_.bwd("token_type_embeddings.ids_copy", "EmbeddingBackward0", {typeIds_}, {typeIds});
    sortedEmbeddingBackward("token_type_embeddings", dSum, typeIds, types_.grad);
    const TensorId wordGrad =
        b_.act("word_embeddings.grad_embedding", c_.vocab * c_.hidden * kFloat, TensorKind::Gradient);
    sortedEmbeddingBackward("word_embeddings", dSum, ids_, wordGrad);
    b_.bwd("word_embeddings.grad_tied_sum", "aten::add", {lmGrad_, wordGrad}, {words_.grad});
}

Profile BertStep::build() {
    makeParameters();
    TensorId x = embed();
    std::vector<Saved> saved(static_cast<size_t>(c_.layers));
    for (std::int64_t l = 0; l < c_.layers; ++l) x = layerForward(l, x, saved[static_cast<size_t>(l)]);
    headAndBackward(x, saved);
    Profile p = b_.finish("bert", c_.layers, c_.ffn, c_.vocab);
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
    checkStepConfig("bert", config, {{config.typeVocab, "type-vocab"}});
    BertStep step(config);
    return step.build();
}

}  // namespace spillway
