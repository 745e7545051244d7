#pragma once
// One training step of torchvision's vit_b_16 (224x224 images, 16x16 patches: 196 patches and a
// class token = 197 tokens; hidden 768, 12 heads, MLP 3072 with GELU, 12 pre-LayerNorm encoder
// layers, final LayerNorm, linear head to 1000 classes) with torch.optim.AdamW (foreach), fp32,
// SDPA memory-efficient attention: the CUDA kernels of the H200 trace
// ../shared/data/h200/models/roam/vit_b_16-b1-adam (13 per layer forward, 34 backward), timed
// by the roofline model of a chosen GPU. The MOST paper's ViT-Base workload (Table I) at any
// batch. MOST does not name its optimizer, so AdamW as for OPT and BERT (the trace ran Adam: 35
// optimizer kernels, AdamW adds the weight-decay _foreach_mul_). docs/roofline.md.
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

#include <cstdint>

namespace spillway {

struct VitConfig {
    std::int64_t batch = 2048;  // the MOST paper's smaller ViT-Base batch (Table I)
    GpuRoofline gpu = *findGpuRoofline("rtx4090");
};

// vit_b_16's fixed shape.
constexpr std::int64_t kVitLayers = 12, kVitHidden = 768, kVitHeads = 12, kVitMlp = 3072, kVitClasses = 1000;
constexpr std::int64_t kVitPatch = 16, kVitPatches = 196, kVitTokens = kVitPatches + 1;

constexpr std::int64_t kVitForwardKernelsPerLayer = 13;
constexpr std::int64_t kVitBackwardKernelsPerLayer = 34;

// vit_b_16: 86,567,656 parameters in 4 + 12 x 12 + 4 tensors.
std::int64_t vitParameterCount();

// Throws std::invalid_argument when batch is not positive or the GPU's numbers are not.
// Kernel names start "layer<i>." inside the encoder layers.
Profile vitTrainingGraph(const VitConfig& config);

}  // namespace spillway
