#pragma once
// What a memory block of the trace holds, decided rule by rule from evidence (docs/torch-import.md
// lists the rules). Each rule has an id and a text for the kind_rule.* notes
// (core/trace/kind_evidence.h); the last one is the fallback, counted as unclassified.
#include "core/trace/kernel.h"
#include "core/trace/tensor.h"

#include <optional>
#include <string_view>

namespace spillway::torch_trace {

struct KindRule {
    std::string_view id;
    TensorKind kind;
    std::string_view text;
    bool unclassified = false;
};

// What is known about one block, in the imported iteration.
struct BlockFacts {
    bool oneKernel = false;          // the same kernel produced it and read it last
    bool oneOp = false;              // allocated and freed inside one framework op's span
    bool freedByZeroGrad = false;    // freed inside an Optimizer.zero_grad span
    bool freed = false;              // freed inside the iteration
    bool madeBeforeIteration = false;
    std::optional<KernelPhase> made;   // phase of its producer, or of the time it was allocated
    std::optional<KernelPhase> freedIn;  // phase of its last reader, or of the time it was freed
    bool marks = false;              // phases from spillway.* marks: "other" is spillway.data
};

const KindRule& classifyBlock(const BlockFacts& facts);

}  // namespace spillway::torch_trace
