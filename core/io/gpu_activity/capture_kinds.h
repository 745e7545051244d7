#pragma once
// What a captured allocation holds, from its lifetime and the phases of the kernels that use it
// (docs/capture.md, "Kinds"). Each decision names its rule, so the profile's notes can say which
// rule classified how many bytes (core/trace/kind_evidence.h).
#include "core/io/gpu_activity/memory_pairing.h"
#include "core/trace/kernel.h"
#include "core/trace/tensor.h"

#include <optional>
#include <string>

namespace spillway::gpu_activity {

struct KindFacts {
    bool persistent = false;   // there before the first kernel (or static) and never freed
    bool used = false;         // some kernel writes or reads it
    bool oneKernel = false;    // written and read by the same single kernel
    std::optional<KernelPhase> writerPhase;
    std::optional<KernelPhase> readerPhase;  // of the last kernel that reads it
    bool allocatorSegment = false;  // a caching-allocator segment (caching_allocator.h)
};

struct KindDecision {
    TensorKind kind = TensorKind::Activation;
    std::string rule;  // kind_rule.<rule>
    std::string text;  // the rule in words
    bool unclassified = false;
};

KindDecision decideKind(const Block& block, const KindFacts& facts);

}  // namespace spillway::gpu_activity
