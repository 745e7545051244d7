#pragma once
// One training step of a Hugging Face OPT model (OPTForCausalLM: pre-LayerNorm decoder, ReLU
// FFN, learned positions with offset 2, LM head tied to the token embedding) with
// torch.optim.AdamW (foreach), fp32, PyTorch eager with SDPA's memory-efficient attention: the
// CUDA kernels the H200 OPT-1.3B trace (../shared/data/h200/models/llm) shows, one for one —
// 17 per decoder layer forward, 35 backward, 8 x 64 AdamW launches for OPT-1.3B — with the
// tensors they read and write and kernel times from a roofline model of a chosen GPU. The MOST
// paper's OPT-1.3B workload, for which no G10 trace exists. Construction and validation:
// docs/roofline.md.
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

#include <cstdint>

namespace spillway {

struct OptConfig {
    std::int64_t layers = 24;  // OPT-1.3B (facebook/opt-1.3b config.json)
    std::int64_t hidden = 2048;
    std::int64_t heads = 32;
    std::int64_t ffn = 8192;
    std::int64_t vocab = 50272;
    std::int64_t maxPositions = 2048;  // embed_positions has maxPositions + 2 rows
    // The MOST paper gives batch 128 and 256 but no sequence length; at 128 tokens the largest
    // kernel's working set at batch 256 (the vocabulary-wide loss tensors, 18.4 GiB) still fits
    // its 24 GB RTX 4090, at 512 it would not (docs/roofline.md).
    std::int64_t sequence = 128;
    std::int64_t batch = 128;
    GpuRoofline gpu = *findGpuRoofline("rtx4090");
};

constexpr std::int64_t kOptForwardKernelsPerLayer = 17;
constexpr std::int64_t kOptBackwardKernelsPerLayer = 35;

// 2 + 16 L parameter tensors; OPT-1.3B: 1,315,758,080 parameters in 388 tensors.
std::int64_t optParameterCount(const OptConfig& config);

// Throws std::invalid_argument naming the field when a size is not positive, hidden is not a
// multiple of heads, or sequence > maxPositions. Kernel names start "layer<i>." inside decoder
// layers ("layer3.fc1", "layer3.fc1.backward_weight").
Profile optTrainingGraph(const OptConfig& config);

}  // namespace spillway
