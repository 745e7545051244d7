#pragma once
// One training step of a Hugging Face BERT masked LM (BertForMaskedLM: post-LayerNorm encoder,
// GELU, word + position + token-type embeddings, MLM head tied to the word embeddings) with
// torch.optim.AdamW (foreach), fp32, SDPA memory-efficient attention: the CUDA kernels of the
// H200 BERT-base trace (../shared/data/h200/models/llm/bert-base-b32-s128-adamw), one for one —
// 14 per layer forward, 37 backward — timed by the roofline model of a chosen GPU. The MOST
// paper's BERT-Base workload at any batch. Construction and validation: docs/roofline.md.
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

#include <cstdint>

namespace spillway {

struct BertConfig {
    std::int64_t layers = 12;  // BERT-base (BertConfig() defaults)
    std::int64_t hidden = 768;
    std::int64_t heads = 12;
    std::int64_t ffn = 3072;
    std::int64_t vocab = 30522;
    std::int64_t maxPositions = 512;
    std::int64_t typeVocab = 2;
    std::int64_t sequence = 128;
    std::int64_t batch = 512;  // the MOST paper's smaller BERT-Base batch (Table I)
    GpuRoofline gpu = *findGpuRoofline("rtx4090");
};

constexpr std::int64_t kBertForwardKernelsPerLayer = 14;
constexpr std::int64_t kBertBackwardKernelsPerLayer = 37;

// 5 + 16 L + 5 parameter tensors; BERT-base: 109,514,298 parameters in 202 tensors.
std::int64_t bertParameterCount(const BertConfig& config);

// Throws std::invalid_argument naming the field when a size is not positive, hidden is not a
// multiple of heads, or sequence > maxPositions. Kernel names start "layer<i>." inside layers.
Profile bertTrainingGraph(const BertConfig& config);

}  // namespace spillway
