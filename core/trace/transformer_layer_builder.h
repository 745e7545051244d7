#pragma once
// The pieces the generated OPT and BERT training steps (opt_training_graph, bert_training_graph)
// are built from, each as the CUDA kernels PyTorch eager launches for it over (tokens, hidden)
// fp32 activations: AdamW parameters, linear layers, LayerNorm, dropout, SDPA's memory-efficient
// attention and the cross-entropy loss. Names are the caller's; where the two models' kernels
// differ (cuBLAS's split-K reduce, SDPA's zeroed workspace) a parameter says which.
#include "core/trace/foreach_adamw.h"
#include "core/trace/roofline_graph_builder.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

struct LinearParams {
    AdamParam w, b;
    std::int64_t in = 0, out = 0;
};
struct NormParams {
    AdamParam w, b;
};
// One encoder or decoder layer's parameters (the order they are made in is the model's, which
// AdamW's lists follow; makeParameters in each step). ffnNorm: the LayerNorm of the feed-forward
// block, before it in OPT (pre-LN), after it in BERT (post-LN).
struct TransformerLayerParams {
    LinearParams q, k, v, out;
    NormParams attnNorm;
    LinearParams fc1, fc2;
    NormParams ffnNorm;
};

// OPT-1.3B's weight gradients never get cuBLAS's split-K reduce in the H200 trace; BERT-base's
// small ones do (see linearBackward).
enum class SplitKReduce { Never, WhenCublasSplits };

// What SDPA's forward saves for its backward.
struct SdpaSaved {
    TensorId q = -1, k = -1, v = -1, context = -1, logsumexp = -1;
};
struct SdpaGrads {
    TensorId dq = -1, dk = -1, dv = -1;
};

struct TransformerSize {
    std::int64_t batch = 0, sequence = 0, hidden = 0, heads = 0;
};

class TransformerLayerBuilder {
public:
    TransformerLayerBuilder(GpuRoofline gpu, TransformerSize size);

    std::int64_t tokens() const { return T_; }
    Bytes activationBytes() const { return act_; }
    RooflineGraphBuilder& graph() { return b_; }

    // Weight, gradient and both Adam states, remembered for the optimizer step (finish).
    AdamParam param(const std::string& name, std::int64_t elements);
    LinearParams linear(const std::string& name, std::int64_t in, std::int64_t out);
    NormParams norm(const std::string& name);

    TensorId act(const std::string& name, Bytes bytes, TensorKind kind = TensorKind::Activation) {
        return b_.tensor(name, bytes, kind);
    }
    void kernel(const std::string& name, const char* op, KernelPhase phase, std::vector<TensorId> in,
                std::vector<TensorId> out, KernelWork work = {}) {
        b_.kernel(name, op, phase, std::move(in), std::move(out), work);
    }
    void fwd(const std::string& name, const char* op, std::vector<TensorId> in, std::vector<TensorId> out,
             KernelWork work = {}) {
        kernel(name, op, KernelPhase::Forward, std::move(in), std::move(out), work);
    }
    void bwd(const std::string& name, const char* op, std::vector<TensorId> in, std::vector<TensorId> out,
             KernelWork work = {}) {
        kernel(name, op, KernelPhase::Backward, std::move(in), std::move(out), work);
    }
    static KernelWork gemm(std::int64_t m, std::int64_t n, std::int64_t k) {
        return {2.0 * double(m) * double(n) * double(k), -1, true};
    }

    TensorId linearForward(const std::string& name, const LinearParams& l, TensorId x);
    TensorId linearBackward(const std::string& name, const LinearParams& l, TensorId dy, TensorId x,
                            SplitKReduce splitK);
    TensorId layerNormForward(const std::string& name, const NormParams& n, TensorId x, TensorId& stats);
    TensorId layerNormBackward(const std::string& name, const NormParams& n, TensorId dy, TensorId x, TensorId stats);
    TensorId dropoutForward(const std::string& name, TensorId x, TensorId& mask);
    // gradName: the gradient of the dropout's input, named after the tensor it belongs to.
    TensorId dropoutBackward(const std::string& name, const std::string& gradName, TensorId dy, TensorId mask);
    // into += add, in place: autograd's sum of a second gradient of one tensor.
    void gradAccumulate(const std::string& name, TensorId into, TensorId add);

    // prefix: the attention module ("layer3.self_attn"); kernels "<prefix>.sdpa...".
    SdpaSaved sdpaForward(const std::string& prefix, TensorId q, TensorId k, TensorId v);
    SdpaGrads sdpaBackward(const std::string& prefix, const SdpaSaved& s, TensorId dContext,
                           const std::array<std::string, 3>& gradNames, bool zeroedWorkspace);

    // log_softmax and NLL (the loss phase); returns the loss, logProbs is what the backward reads.
    TensorId crossEntropyForward(TensorId logits, TensorId labels, TensorId& logProbs);
    TensorId crossEntropyBackward(TensorId logProbs, TensorId labels, const std::string& logitsGradName);

    // The AdamW step over every param(), the job, and the metadata both models share.
    Profile finish(const std::string& family, std::int64_t layers, std::int64_t ffn, std::int64_t vocab);

private:
    RooflineGraphBuilder b_;
    TransformerSize size_;
    std::int64_t T_;  // tokens in the batch
    Bytes act_;       // one (tokens, hidden) fp32 activation
    std::vector<AdamParam> params_;
};

}  // namespace spillway
