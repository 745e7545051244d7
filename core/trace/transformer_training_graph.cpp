#include "core/trace/transformer_training_graph.h"

#include "core/trace/append_tensor.h"
#include "core/trace/transformer_config_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace spillway {

namespace {

constexpr Bytes kFloat = 4;  // fp32 everywhere: weights, activations, gradients, Adam states

void checkConfig(const TransformerConfig& c) {
    checkTransformerSizes("transformer",
                          {{c.layers, "layers"},
                           {c.hidden, "hidden"},
                           {c.heads, "heads"},
                           {c.sequence, "sequence"},
                           {c.vocab, "vocab"},
                           {c.maxPositions, "max-positions"},
                           {c.batch, "batch"},
                           {c.microBatches, "micro-batches"}},
                          c.hidden, c.heads, c.sequence, c.maxPositions);
    if (!(c.flopRate > 0) || !(c.memoryBandwidth > 0) || c.minKernelNs <= 0)
        throw std::invalid_argument("transformer: flop rate, memory bandwidth and minimum kernel time must be positive");
}

// Appends tensors and kernels; kernel durations come from FLOPs and the bytes a kernel touches.
class GraphBuilder {
public:
    explicit GraphBuilder(const TransformerConfig& c) : c_(c) {}

    TensorId tensor(std::string name, Bytes bytes, TensorKind kind, bool persistent = false) {
        return appendTensor(p_, std::move(name), bytes, kind, persistent);
    }

    void kernel(std::string name, std::string op, KernelPhase phase, std::vector<TensorId> inputs,
                std::vector<TensorId> outputs, double flops = 0) {
        double bytes = 0;
        for (TensorId id : inputs) bytes += double(p_.tensors[id].bytes);
        for (TensorId id : outputs)
            if (std::find(inputs.begin(), inputs.end(), id) == inputs.end()) bytes += double(p_.tensors[id].bytes);
        const double seconds = std::max(flops / c_.flopRate, bytes / c_.memoryBandwidth);
        Kernel k;
        k.id = static_cast<KernelId>(p_.kernels.size());
        k.name = std::move(name);
        k.op = std::move(op);
        k.phase = phase;
        k.duration = std::max<Nanoseconds>(c_.minKernelNs, static_cast<Nanoseconds>(std::ceil(seconds * 1e9)));
        k.inputs = std::move(inputs);
        k.outputs = std::move(outputs);
        p_.kernels.push_back(std::move(k));
    }

    Bytes bytesOf(TensorId id) const { return p_.tensors[static_cast<size_t>(id)].bytes; }
    Profile take() { return std::move(p_); }

private:
    const TransformerConfig& c_;
    Profile p_;
};

// One parameter tensor with its gradient (allocated by the first micro-batch's backward, freed
// after the optimizer step) and its AdamW states.
struct Param {
    std::string name;
    TensorId weight = -1;
    TensorId grad = -1;
    TensorId expAvg = -1;
    TensorId expAvgSq = -1;
};

struct LayerParams {
    Param ln1g, ln1b, wqkv, bqkv, wproj, bproj, ln2g, ln2b, wfc1, bfc1, wfc2, bfc2;
    TensorId causalMask = -1;
};

// What a layer's forward leaves for its backward (autograd's saved tensors).
struct LayerSaved {
    TensorId x, ln1, ln1Stats, qkv, probs, probsDropped, attnMask, ctx, projMask, x1, ln2, ln2Stats, h1, gelu,
        fc2Mask;
};

class TransformerStep {
public:
    explicit TransformerStep(const TransformerConfig& c)
        : c_(c), b_(c), tokens_(c.batch * c.sequence), act_(tokens_ * c.hidden * kFloat) {}

    Profile build() {
        makeParameters();
        for (std::int64_t m = 0; m < c_.microBatches; ++m) microBatch(m);
        optimizer();
        Profile p = b_.take();
        p.jobs.push_back(Job{0, "train"});
        p.metadata.model = fmt::format("gpt2-like L{} h{} heads{} seq{} vocab{}", c_.layers, c_.hidden, c_.heads,
                                       c_.sequence, c_.vocab);
        p.metadata.batch = c_.batch * c_.microBatches;
        p.metadata.device = "A100 (modelled)";
        p.metadata.source = "generated-transformer";
        p.metadata.notes["precision"] = "fp32";
        p.metadata.notes["optimizer"] = "AdamW with gradient-norm clipping";
        p.metadata.notes["micro_batches"] = std::to_string(c_.microBatches);
        p.metadata.notes["micro_batch_size"] = std::to_string(c_.batch);
        p.metadata.notes["durations"] = fmt::format("max(FLOPs / {:.3g} FLOP/s, bytes / {:.3g} B/s), at least {} ns",
                                                    c_.flopRate, c_.memoryBandwidth, c_.minKernelNs);
        return p;
    }

private:
    Param param(const std::string& name, std::int64_t elements) {
        Param p;
        p.name = name;
        p.weight = b_.tensor(name, elements * kFloat, TensorKind::Weight, true);
        p.grad = b_.tensor(name + ".grad", elements * kFloat, TensorKind::Gradient, false);
        p.expAvg = b_.tensor(name + ".exp_avg", elements * kFloat, TensorKind::OptimizerState, true);
        p.expAvgSq = b_.tensor(name + ".exp_avg_sq", elements * kFloat, TensorKind::OptimizerState, true);
        params_.push_back(p);
        return p;
    }

    void makeParameters() {
        const std::int64_t h = c_.hidden;
        wte_ = param("wte", c_.vocab * h);
        wpe_ = param("wpe", c_.maxPositions * h);
        for (std::int64_t l = 0; l < c_.layers; ++l) {
            const std::string pre = fmt::format("h{}.", l);
            LayerParams lp;
            lp.ln1g = param(pre + "ln_1.weight", h);
            lp.ln1b = param(pre + "ln_1.bias", h);
            lp.wqkv = param(pre + "attn.c_attn.weight", h * 3 * h);
            lp.bqkv = param(pre + "attn.c_attn.bias", 3 * h);
            lp.wproj = param(pre + "attn.c_proj.weight", h * h);
            lp.bproj = param(pre + "attn.c_proj.bias", h);
            lp.ln2g = param(pre + "ln_2.weight", h);
            lp.ln2b = param(pre + "ln_2.bias", h);
            lp.wfc1 = param(pre + "mlp.c_fc.weight", h * 4 * h);
            lp.bfc1 = param(pre + "mlp.c_fc.bias", 4 * h);
            lp.wfc2 = param(pre + "mlp.c_proj.weight", 4 * h * h);
            lp.bfc2 = param(pre + "mlp.c_proj.bias", h);
            // HF GPT-2 registers the causal mask as a per-layer bool buffer of maxPositions^2.
            lp.causalMask =
                b_.tensor(pre + "attn.bias", c_.maxPositions * c_.maxPositions, TensorKind::Input, true);
            layers_.push_back(lp);
        }
        lnfg_ = param("ln_f.weight", h);
        lnfb_ = param("ln_f.bias", h);
    }

    // The first micro-batch's backward allocates a gradient; later ones accumulate into it
    // (the kernel reads and rewrites it, as fused gradient accumulation does).
    std::vector<TensorId> gradOut(const Param& p, std::vector<TensorId>& inputs) const {
        if (micro_ > 0) inputs.push_back(p.grad);
        return {p.grad};
    }

    TensorId act(const std::string& name, Bytes bytes, TensorKind kind = TensorKind::Activation) {
        return b_.tensor(fmt::format("mb{}.{}", micro_, name), bytes, kind);
    }

    void fwd(const std::string& name, const std::string& op, std::vector<TensorId> in, std::vector<TensorId> out,
             double flops = 0, KernelPhase phase = KernelPhase::Forward) {
        b_.kernel(fmt::format("mb{}.{}", micro_, name), op, phase, std::move(in), std::move(out), flops);
    }
    void bwd(const std::string& name, const std::string& op, std::vector<TensorId> in, std::vector<TensorId> out,
             double flops = 0) {
        fwd(name, op, std::move(in), std::move(out), flops, KernelPhase::Backward);
    }

    // A linear layer's backward: input gradient, weight gradient, bias gradient (3 kernels).
    TensorId linearBackward(const std::string& pre, TensorId dOut, TensorId savedIn, const Param& w, const Param& bias,
                            Bytes inBytes, double flops) {
        const TensorId dIn = act(pre + ".grad_input", inBytes, TensorKind::Gradient);
        bwd(pre + ".backward_input", "aten::mm", {dOut, w.weight}, {dIn}, flops);
        std::vector<TensorId> wIn{dOut, savedIn};
        auto wOut = gradOut(w, wIn);
        bwd(pre + ".backward_weight", "aten::mm", wIn, wOut, flops);
        std::vector<TensorId> bIn{dOut};
        auto bOut = gradOut(bias, bIn);
        bwd(pre + ".backward_bias", "aten::sum", bIn, bOut);
        return dIn;
    }

    TensorId layerNormBackward(const std::string& pre, TensorId dOut, TensorId x, TensorId stats, const Param& g,
                               const Param& beta) {
        const TensorId dx = act(pre + ".grad_input", act_, TensorKind::Gradient);
        std::vector<TensorId> in{dOut, x, stats, g.weight};
        if (micro_ > 0) {
            in.push_back(g.grad);
            in.push_back(beta.grad);
        }
        bwd(pre + ".backward", "aten::native_layer_norm_backward", in, {dx, g.grad, beta.grad});
        return dx;
    }

    LayerSaved layerForward(std::int64_t l, TensorId x) {
        const LayerParams& lp = layers_[l];
        const std::string pre = fmt::format("h{}", l);
        const double T = double(tokens_), h = double(c_.hidden), s = double(c_.sequence), B = double(c_.batch);
        const Bytes scoreBytes = c_.batch * c_.heads * c_.sequence * c_.sequence * kFloat;
        const Bytes statsBytes = tokens_ * 2 * kFloat;  // mean and rstd per token
        LayerSaved sv{};
        sv.x = x;
        sv.ln1 = act(pre + ".ln_1.out", act_);
        sv.ln1Stats = act(pre + ".ln_1.stats", statsBytes);
        fwd(pre + ".ln_1", "aten::native_layer_norm", {x, lp.ln1g.weight, lp.ln1b.weight}, {sv.ln1, sv.ln1Stats});
        sv.qkv = act(pre + ".attn.qkv", 3 * act_);
        fwd(pre + ".attn.c_attn", "aten::addmm", {sv.ln1, lp.wqkv.weight, lp.bqkv.weight}, {sv.qkv}, 2 * T * h * 3 * h);
        const TensorId scores = act(pre + ".attn.scores", scoreBytes);
        fwd(pre + ".attn.qk", "aten::bmm", {sv.qkv}, {scores}, 2 * B * s * s * h);
        const TensorId scaled = act(pre + ".attn.scaled", scoreBytes);
        fwd(pre + ".attn.scale", "aten::div", {scores}, {scaled});
        const TensorId masked = act(pre + ".attn.masked", scoreBytes);
        fwd(pre + ".attn.causal_mask", "aten::where", {scaled, lp.causalMask}, {masked});
        sv.probs = act(pre + ".attn.probs", scoreBytes);
        fwd(pre + ".attn.softmax", "aten::_softmax", {masked}, {sv.probs});
        sv.probsDropped = act(pre + ".attn.probs_dropped", scoreBytes);
        sv.attnMask = act(pre + ".attn.dropout_mask", scoreBytes / kFloat);
        fwd(pre + ".attn.attn_dropout", "aten::native_dropout", {sv.probs}, {sv.probsDropped, sv.attnMask});
        const TensorId ctxHeads = act(pre + ".attn.context_heads", act_);
        fwd(pre + ".attn.pv", "aten::bmm", {sv.probsDropped, sv.qkv}, {ctxHeads}, 2 * B * s * s * h);
        sv.ctx = act(pre + ".attn.context", act_);
        fwd(pre + ".attn.merge_heads", "aten::clone", {ctxHeads}, {sv.ctx});
        const TensorId proj = act(pre + ".attn.c_proj.out", act_);
        fwd(pre + ".attn.c_proj", "aten::addmm", {sv.ctx, lp.wproj.weight, lp.bproj.weight}, {proj}, 2 * T * h * h);
        const TensorId projDropped = act(pre + ".attn.resid_dropped", act_);
        sv.projMask = act(pre + ".attn.resid_dropout_mask", act_ / kFloat);
        fwd(pre + ".attn.resid_dropout", "aten::native_dropout", {proj}, {projDropped, sv.projMask});
        sv.x1 = act(pre + ".residual_1", act_);
        fwd(pre + ".add_1", "aten::add", {x, projDropped}, {sv.x1});
        sv.ln2 = act(pre + ".ln_2.out", act_);
        sv.ln2Stats = act(pre + ".ln_2.stats", statsBytes);
        fwd(pre + ".ln_2", "aten::native_layer_norm", {sv.x1, lp.ln2g.weight, lp.ln2b.weight}, {sv.ln2, sv.ln2Stats});
        sv.h1 = act(pre + ".mlp.c_fc.out", 4 * act_);
        fwd(pre + ".mlp.c_fc", "aten::addmm", {sv.ln2, lp.wfc1.weight, lp.bfc1.weight}, {sv.h1}, 2 * T * h * 4 * h);
        sv.gelu = act(pre + ".mlp.gelu", 4 * act_);
        fwd(pre + ".mlp.act", "aten::gelu", {sv.h1}, {sv.gelu});
        const TensorId h2 = act(pre + ".mlp.c_proj.out", act_);
        fwd(pre + ".mlp.c_proj", "aten::addmm", {sv.gelu, lp.wfc2.weight, lp.bfc2.weight}, {h2}, 2 * T * h * 4 * h);
        const TensorId h2Dropped = act(pre + ".mlp.dropped", act_);
        sv.fc2Mask = act(pre + ".mlp.dropout_mask", act_ / kFloat);
        fwd(pre + ".mlp.dropout", "aten::native_dropout", {h2}, {h2Dropped, sv.fc2Mask});
        const TensorId x2 = act(pre + ".residual_2", act_);
        fwd(pre + ".add_2", "aten::add", {sv.x1, h2Dropped}, {x2});
        layerOut_ = x2;
        return sv;
    }

    TensorId layerBackward(std::int64_t l, const LayerSaved& sv, TensorId dx2) {
        const LayerParams& lp = layers_[l];
        const std::string pre = fmt::format("h{}", l);
        const double T = double(tokens_), h = double(c_.hidden), s = double(c_.sequence), B = double(c_.batch);
        const Bytes scoreBytes = c_.batch * c_.heads * c_.sequence * c_.sequence * kFloat;
        const TensorId dh2 = act(pre + ".mlp.dropout.grad", act_, TensorKind::Gradient);
        bwd(pre + ".mlp.dropout.backward", "aten::native_dropout_backward", {dx2, sv.fc2Mask}, {dh2});
        const TensorId dGelu =
            linearBackward(pre + ".mlp.c_proj", dh2, sv.gelu, lp.wfc2, lp.bfc2, 4 * act_, 2 * T * h * 4 * h);
        const TensorId dh1 = act(pre + ".mlp.act.grad", 4 * act_, TensorKind::Gradient);
        bwd(pre + ".mlp.act.backward", "aten::gelu_backward", {dGelu, sv.h1}, {dh1});
        const TensorId dLn2 = linearBackward(pre + ".mlp.c_fc", dh1, sv.ln2, lp.wfc1, lp.bfc1, act_, 2 * T * h * 4 * h);
        const TensorId dx1a = layerNormBackward(pre + ".ln_2", dLn2, sv.x1, sv.ln2Stats, lp.ln2g, lp.ln2b);
        const TensorId dx1 = act(pre + ".residual_1.grad", act_, TensorKind::Gradient);
        bwd(pre + ".add_1.backward", "aten::add", {dx2, dx1a}, {dx1});
        const TensorId dProj = act(pre + ".attn.resid_dropout.grad", act_, TensorKind::Gradient);
        bwd(pre + ".attn.resid_dropout.backward", "aten::native_dropout_backward", {dx1, sv.projMask}, {dProj});
        const TensorId dCtx =
            linearBackward(pre + ".attn.c_proj", dProj, sv.ctx, lp.wproj, lp.bproj, act_, 2 * T * h * h);
        const TensorId dCtxHeads = act(pre + ".attn.merge_heads.grad", act_, TensorKind::Gradient);
        bwd(pre + ".attn.merge_heads.backward", "aten::clone", {dCtx}, {dCtxHeads});
        const TensorId dProbsDropped = act(pre + ".attn.probs_dropped.grad", scoreBytes, TensorKind::Gradient);
        bwd(pre + ".attn.pv.backward_probs", "aten::bmm", {dCtxHeads, sv.qkv}, {dProbsDropped}, 2 * B * s * s * h);
        const TensorId dv = act(pre + ".attn.v.grad", act_, TensorKind::Gradient);
        bwd(pre + ".attn.pv.backward_v", "aten::bmm", {dCtxHeads, sv.probsDropped}, {dv}, 2 * B * s * s * h);
        const TensorId dProbs = act(pre + ".attn.probs.grad", scoreBytes, TensorKind::Gradient);
        bwd(pre + ".attn.attn_dropout.backward", "aten::native_dropout_backward", {dProbsDropped, sv.attnMask},
            {dProbs});
        const TensorId dMasked = act(pre + ".attn.masked.grad", scoreBytes, TensorKind::Gradient);
        bwd(pre + ".attn.softmax.backward", "aten::_softmax_backward_data", {dProbs, sv.probs}, {dMasked});
        const TensorId dScaled = act(pre + ".attn.scaled.grad", scoreBytes, TensorKind::Gradient);
        bwd(pre + ".attn.causal_mask.backward", "aten::where", {dMasked, lp.causalMask}, {dScaled});
        const TensorId dScores = act(pre + ".attn.scores.grad", scoreBytes, TensorKind::Gradient);
        bwd(pre + ".attn.scale.backward", "aten::div", {dScaled}, {dScores});
        const TensorId dq = act(pre + ".attn.q.grad", act_, TensorKind::Gradient);
        bwd(pre + ".attn.qk.backward_q", "aten::bmm", {dScores, sv.qkv}, {dq}, 2 * B * s * s * h);
        const TensorId dk = act(pre + ".attn.k.grad", act_, TensorKind::Gradient);
        bwd(pre + ".attn.qk.backward_k", "aten::bmm", {dScores, sv.qkv}, {dk}, 2 * B * s * s * h);
        const TensorId dQkv = act(pre + ".attn.qkv.grad", 3 * act_, TensorKind::Gradient);
        bwd(pre + ".attn.qkv.backward_cat", "aten::cat", {dq, dk, dv}, {dQkv});
        const TensorId dLn1 =
            linearBackward(pre + ".attn.c_attn", dQkv, sv.ln1, lp.wqkv, lp.bqkv, act_, 2 * T * h * 3 * h);
        const TensorId dxa = layerNormBackward(pre + ".ln_1", dLn1, sv.x, sv.ln1Stats, lp.ln1g, lp.ln1b);
        const TensorId dx = act(pre + ".input.grad", act_, TensorKind::Gradient);
        bwd(pre + ".add_0.backward", "aten::add", {dx1, dxa}, {dx});
        return dx;
    }

    void microBatch(std::int64_t m) {
        micro_ = m;
        const double T = double(tokens_), h = double(c_.hidden), V = double(c_.vocab);
        const Bytes idBytes = tokens_ * 8;  // int64 token ids
        const TensorId tokens = act("input_ids", idBytes, TensorKind::Input);
        const TensorId targets = act("labels", idBytes, TensorKind::Input);
        fwd("to_device", "aten::copy_", {}, {tokens, targets});
        const TensorId emb = act("embedding", act_);
        fwd("embedding", "aten::embedding", {tokens, wte_.weight, wpe_.weight}, {emb});
        const TensorId x0 = act("embedding.dropped", act_);
        const TensorId embMask = act("embedding.dropout_mask", act_ / kFloat);
        fwd("embedding.dropout", "aten::native_dropout", {emb}, {x0, embMask});
        std::vector<LayerSaved> saved;
        TensorId x = x0;
        for (std::int64_t l = 0; l < c_.layers; ++l) {
            saved.push_back(layerForward(l, x));
            x = layerOut_;
        }
        const TensorId lnf = act("ln_f.out", act_);
        const TensorId lnfStats = act("ln_f.stats", tokens_ * 2 * kFloat);
        fwd("ln_f", "aten::native_layer_norm", {x, lnfg_.weight, lnfb_.weight}, {lnf, lnfStats});
        const Bytes logitBytes = tokens_ * c_.vocab * kFloat;
        const TensorId logits = act("lm_head.logits", logitBytes);
        fwd("lm_head", "aten::mm", {lnf, wte_.weight}, {logits}, 2 * T * h * V);
        const TensorId logProbs = act("log_softmax", logitBytes);
        fwd("log_softmax", "aten::_log_softmax", {logits}, {logProbs});
        const TensorId loss = act("loss", kFloat);
        fwd("nll_loss", "aten::nll_loss_forward", {logProbs, targets}, {loss}, 0, KernelPhase::Loss);

        const TensorId dLogProbs = act("log_softmax.grad", logitBytes, TensorKind::Gradient);
        bwd("nll_loss.backward", "aten::nll_loss_backward", {loss, logProbs, targets}, {dLogProbs});
        const TensorId dLogits = act("lm_head.logits.grad", logitBytes, TensorKind::Gradient);
        bwd("log_softmax.backward", "aten::_log_softmax_backward_data", {dLogProbs, logProbs}, {dLogits});
        const TensorId dLnf = act("ln_f.out.grad", act_, TensorKind::Gradient);
        bwd("lm_head.backward_input", "aten::mm", {dLogits, wte_.weight}, {dLnf}, 2 * T * h * V);
        std::vector<TensorId> wIn{dLogits, lnf};
        auto wOut = gradOut(wte_, wIn);
        bwd("lm_head.backward_weight", "aten::mm", wIn, wOut, 2 * T * h * V);
        TensorId dx = layerNormBackward("ln_f", dLnf, x, lnfStats, lnfg_, lnfb_);
        for (std::int64_t l = c_.layers - 1; l >= 0; --l) dx = layerBackward(l, saved[l], dx);
        const TensorId dEmb = act("embedding.grad", act_, TensorKind::Gradient);
        bwd("embedding.dropout.backward", "aten::native_dropout_backward", {dx, embMask}, {dEmb});
        // The LM head and the token embedding share wte: its gradient is always accumulated here.
        bwd("embedding.backward_wte", "aten::embedding_dense_backward", {dEmb, tokens, wte_.grad}, {wte_.grad});
        std::vector<TensorId> pIn{dEmb};
        auto pOut = gradOut(wpe_, pIn);
        bwd("embedding.backward_wpe", "aten::embedding_dense_backward", pIn, pOut);
    }

    void optimizer() {
        const auto opt = [&](const std::string& name, const std::string& op, std::vector<TensorId> in,
                             std::vector<TensorId> out) {
            b_.kernel(name, op, KernelPhase::Optimizer, std::move(in), std::move(out));
        };
        // torch.nn.utils.clip_grad_norm_: a norm per gradient, the total norm, then a scale of each.
        std::vector<TensorId> norms;
        for (const Param& p : params_) {
            norms.push_back(b_.tensor(p.name + ".grad_norm", kFloat, TensorKind::Temporary));
            opt("clip." + p.name + ".norm", "aten::linalg_vector_norm", {p.grad}, {norms.back()});
        }
        const TensorId clipCoef = b_.tensor("clip.coef", kFloat, TensorKind::Temporary);
        opt("clip.total_norm", "aten::linalg_vector_norm", norms, {clipCoef});
        for (const Param& p : params_) opt("clip." + p.name + ".scale", "aten::mul_", {p.grad, clipCoef}, {p.grad});
        // torch.optim.AdamW, single-tensor path: 8 kernels per parameter, two temporaries.
        for (const Param& p : params_) {
            const Bytes bytes = b_.bytesOf(p.weight);
            opt("adamw." + p.name + ".weight_decay", "aten::mul_", {p.weight}, {p.weight});
            opt("adamw." + p.name + ".exp_avg", "aten::lerp_", {p.expAvg, p.grad}, {p.expAvg});
            opt("adamw." + p.name + ".exp_avg_sq_decay", "aten::mul_", {p.expAvgSq}, {p.expAvgSq});
            opt("adamw." + p.name + ".exp_avg_sq", "aten::addcmul_", {p.expAvgSq, p.grad}, {p.expAvgSq});
            const TensorId root = b_.tensor(p.name + ".adamw.sqrt", bytes, TensorKind::Temporary);
            opt("adamw." + p.name + ".sqrt", "aten::sqrt", {p.expAvgSq}, {root});
            const TensorId denom = b_.tensor(p.name + ".adamw.denom", bytes, TensorKind::Temporary);
            opt("adamw." + p.name + ".bias_correction", "aten::div", {root}, {denom});
            opt("adamw." + p.name + ".eps", "aten::add_", {denom}, {denom});
            opt("adamw." + p.name + ".update", "aten::addcdiv_", {p.weight, p.expAvg, denom}, {p.weight});
        }
    }

    const TransformerConfig& c_;
    GraphBuilder b_;
    std::int64_t tokens_;
    Bytes act_;  // one (batch, sequence, hidden) fp32 activation
    std::int64_t micro_ = 0;
    std::vector<Param> params_;
    std::vector<LayerParams> layers_;
    Param wte_, wpe_, lnfg_, lnfb_;
    TensorId layerOut_ = -1;
};

}  // namespace

std::int64_t transformerParameterCount(const TransformerConfig& c) {
    const std::int64_t h = c.hidden;
    return c.layers * (12 * h * h + 13 * h) + c.vocab * h + c.maxPositions * h + 2 * h;
}

std::int64_t transformerKernelCount(const TransformerConfig& c) {
    const std::int64_t paramTensors = 12 * c.layers + 4;
    return c.microBatches * (47 * c.layers + 15) + 10 * paramTensors + 1;
}

Profile transformerTrainingGraph(const TransformerConfig& config) {
    checkConfig(config);
    TransformerStep step(config);
    return step.build();
}

}  // namespace spillway
