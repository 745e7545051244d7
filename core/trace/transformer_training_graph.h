#pragma once
// A synthetic but realistic training step of a GPT-2-style decoder-only transformer (HF GPT-2 /
// nanoGPT layer structure) with AdamW and gradient-norm clipping, as PyTorch eager runs it: one
// kernel per ATen op, the tensors autograd really saves, fp32 throughout. Used as a large
// profile (GPT-2 XL: over 10,000 kernels) for ordering and layout planners, where no captured
// profile of that size exists. Construction and decisions: docs/layout-heuristics.md.
#include "core/trace/profile.h"

#include <cstdint>

namespace spillway {

struct TransformerConfig {
    std::int64_t layers = 48;          // GPT-2 XL
    std::int64_t hidden = 1600;
    std::int64_t heads = 25;
    std::int64_t sequence = 1024;      // tokens per sample (<= maxPositions)
    std::int64_t vocab = 50257;
    std::int64_t maxPositions = 1024;  // rows of the position embedding
    std::int64_t batch = 1;            // samples per micro-batch
    std::int64_t microBatches = 4;     // gradient accumulation steps before one optimizer step
    // Kernel durations: max(FLOPs / flopRate, bytes touched / memoryBandwidth), at least
    // minKernelNs. Defaults: an A100 (FP32 19.5 TFLOP/s, HBM2 1.555 TB/s), 3 us launch floor.
    double flopRate = 19.5e12;
    double memoryBandwidth = 1.555e12;
    std::int64_t minKernelNs = 3000;
};

// Parameters: L (12 h^2 + 13 h) + vocab h (tied embedding / LM head) + maxPositions h + 2 h.
std::int64_t transformerParameterCount(const TransformerConfig& config);
// Kernels: microBatches (47 L + 15) + 10 P + 1, P = 12 L + 4 parameter tensors.
std::int64_t transformerKernelCount(const TransformerConfig& config);

// Throws std::invalid_argument naming the field when a size is not positive, hidden is not a
// multiple of heads, or sequence > maxPositions.
Profile transformerTrainingGraph(const TransformerConfig& config);

}  // namespace spillway
