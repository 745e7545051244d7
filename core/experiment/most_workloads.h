#pragma once
// MOST's six workloads (Table I): BERT-Base at batch 512 and 1024, ViT-Base at 2048 and 4096,
// OPT-1.3B at 128 and 256, as generated training steps with roofline kernel times for the
// RTX 4090 (core/trace/{bert,vit,opt}_training_graph.h, docs/roofline.md). The paper took its
// graphs from PyTorch / Hugging Face and its kernel times from profiling each kernel; ours
// have the same kernels per layer as real H200 traces of those models.
#include "core/trace/profile.h"

#include <string>
#include <vector>

namespace spillway {

struct MostWorkload {
    std::string name;     // "BERT-512": the figures' group label
    std::string command;  // how to make the same profile: "spillway-cli generate bert --batch 512 --gpu rtx4090"
    Profile profile;
};

// In Table I's order. Deterministic.
std::vector<MostWorkload> mostWorkloads();

}  // namespace spillway
