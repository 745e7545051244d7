#pragma once
// The checks every generated transformer graph (transformer_training_graph, opt_training_graph,
// bert_training_graph) makes of its sizes before building, with one wording for the errors:
// "<family>: <field> must be positive (got <value>)".
#include "core/trace/gpu_roofline.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct NamedSize {
    std::int64_t value;
    const char* field;  // as the CLI spells the option ("max-positions")
};

// Throws std::invalid_argument for the first size (in the order given) that is not positive,
// then where hidden is not a multiple of heads or sequence exceeds maxPositions.
void checkTransformerSizes(const char* family, const std::vector<NamedSize>& sizes, std::int64_t hidden,
                           std::int64_t heads, std::int64_t sequence, std::int64_t maxPositions);

// Throws std::invalid_argument unless the GPU's peaks and efficiencies are positive (its launch
// overhead may be zero).
void checkGpuRoofline(const char* family, const GpuRoofline& gpu);

// The generated steps' configs (OptConfig, BertConfig): the sizes they share in the CLI's option
// order, a model's own sizes (BERT's type-vocab) after max-positions, then the GPU.
template <class StepConfig>
void checkStepConfig(const char* family, const StepConfig& c, const std::vector<NamedSize>& own = {}) {
    std::vector<NamedSize> sizes{{c.layers, "layers"}, {c.hidden, "hidden"}, {c.heads, "heads"},
                                 {c.ffn, "ffn"},       {c.vocab, "vocab"},   {c.maxPositions, "max-positions"}};
    sizes.insert(sizes.end(), own.begin(), own.end());
    sizes.push_back({c.sequence, "sequence"});
    sizes.push_back({c.batch, "batch"});
    checkTransformerSizes(family, sizes, c.hidden, c.heads, c.sequence, c.maxPositions);
    checkGpuRoofline(family, c.gpu);
}

}  // namespace spillway
